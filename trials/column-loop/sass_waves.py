#!/usr/bin/env python3
"""Waves of loads per iteration in each column_tiled instance's main loop (sm_90 SASS):
1 + the number of times a load is issued after a use of an earlier load of the same body."""
import os, re, subprocess, sys
def functions(binary):
    out = subprocess.run(['cuobjdump', '-sass', binary], capture_output=True, text=True).stdout
    for text in out.split('Function : ')[1:]:
        m = re.search(r'column_tiledI([if])Li(\d)ELi(\d)ELb(\d)', text.split('\n')[0])
        if m:
            lines = [re.sub(r'\s*/\* 0x[0-9a-f]+ \*/', '', l).strip()
                     for l in text.split('\n') if re.search(r'/\*[0-9a-f]{4}\*/', l)]
            yield m.groups(), lines
def pattern(lines):
    ld = re.compile(r'LDG\.E(\.128)?\.CONSTANT (R\d+),')
    loads = [i for i, l in enumerate(lines) if ld.search(l)]
    if not loads: return '', 0
    dest, seq = {}, []
    n = 0
    for i in range(loads[0], len(lines)):
        l = lines[i]
        if 'BRA' in l and i > loads[0] and n >= 2 and seq and seq[-1][0] == 'u' and not any(ld.search(x) for x in lines[i:i+40]):
            break
        m = ld.search(l)
        if m:
            base = int(m.group(2)[1:])
            for j in range(4 if m.group(1) else 1): dest[f'R{base+j}'] = n
            seq.append(f'L{n}'); n += 1
            continue
        body = l.split(';')[0]
        parts = re.findall(r'R\d+', body)
        for reg in parts[1:]:
            if reg in dest:
                k = dest.pop(reg)
                if f'u{k}' not in seq: seq.append(f'u{k}')
        if parts and parts[0] in dest: dest.pop(parts[0])
    waves, seen_u = 1, False
    for e in seq:
        if e[0] == 'u': seen_u = True
        elif seen_u: waves += 1; seen_u = False
    return ' '.join(seq), waves
for binary in sys.argv[1:]:
    for (t, u, lanes, fold), lines in functions(binary):
        if u == '8':
            s, w = pattern(lines)
            print(f'  {t} U={u} L={lanes} Fold={fold}: waves {w}: {s[:150]}')
