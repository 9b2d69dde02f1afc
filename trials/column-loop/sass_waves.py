#!/usr/bin/env python3
"""For each 16-byte-load instance of column_tiled in a binary or object (sm_90 SASS via
cuobjdump), the main loop's order of loads (L<k>, k in issue order) and first uses of their
registers (u<k>). A warp issues in order: a load issued after a use waits a whole memory round
trip more, so "L0 L1 L2 L3 u.. L4" reads in two waves of loads per iteration, not one.
Usage: sass_waves.py BINARY... (CUOBJDUMP names cuobjdump if it is not on PATH)."""
import os, re, subprocess, sys

CUOBJDUMP = os.environ.get('CUOBJDUMP', 'cuobjdump')


def functions(binary):
    out = subprocess.run([CUOBJDUMP, '-sass', binary], capture_output=True, text=True).stdout
    for text in out.split('Function : ')[1:]:
        m = re.search(r'column_tiledI([if])Li(\d)ELi(\d)ELb(\d)', text.split('\n')[0])
        if m:
            lines = [re.sub(r'\s*/\* 0x[0-9a-f]+ \*/', '', l).strip()
                     for l in text.split('\n') if re.search(r'/\*[0-9a-f]{4}\*/', l)]
            yield m.groups(), lines


def pattern(lines):
    loads = [i for i, l in enumerate(lines) if 'LDG.E.128.CONSTANT' in l]
    if not loads:
        return ''
    dest, used, out = {}, set(), []
    for i in range(loads[0], len(lines)):
        l = lines[i]
        if 'BRA' in l and i > loads[-1]:
            break
        m = re.search(r'LDG\.E\.128\.CONSTANT R(\d+),', l)
        if m:
            k = len(set(dest.values()))
            for j in range(4):
                dest[f'R{int(m.group(1)) + j}'] = k
            out.append(f'L{k}')
            continue
        if re.search(r'\b(FADD|IADD3|IMAD\.IADD|IADD|IMAD\.WIDE|I2F|SHF)\b', l):
            for reg in re.findall(r'R\d+', l.split(';')[0])[1:]:
                if reg in dest and dest[reg] not in used:
                    used.add(dest[reg])
                    out.append(f'u{dest[reg]}')
    return ' '.join(out)


for binary in sys.argv[1:]:
    print(binary)
    for (t, u, lanes, fold), lines in functions(binary):
        if lanes == '4':
            print(f'  {t} U={u} Fold={fold}: {pattern(lines)}')
