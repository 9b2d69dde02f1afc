#!/usr/bin/env python3
"""Generates the Code view's data from the built kernels: nothing in it is typed by hand.

For every catalog variant: the source span of its kernel function and the device helpers it calls,
cut from kernels/*.cu and *.cuh, with the lines of each phase marked. For every kernel
instantiation in the given objects: its SASS and PTX per architecture (cuobjdump -sass / -ptx) and
its resource usage (cuobjdump --dump-resource-usage), keyed the way the engine looks them up:
"variant|type|workspace|unroll|block" (block 0: the kernel serves every block size).

Where cuobjdump is missing, the sources are still written and "sass_unavailable" says why.
With nvdisasm, each function also gets its line table per architecture (nvdisasm -g of the cubins
cuobjdump extracts; the kernels are built with -lineinfo): which source line each SASS offset came
from, so sampled program counters land on source lines (the per-line metrics, engine/code/line_metrics.h).

Usage: gen_code_view.py --kernels-dir DIR --out FILE [--cuobjdump PATH] [--nvdisasm PATH]
                        [--cxxfilt PATH] [--objects OBJ...]
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

from code_view_sources import VARIANTS, variant_sources

WORKSPACES = {"0": "global", "1": "shared", "2": "registers"}
TYPES = {"int": "int32", "float": "float32"}
CUB_ALGOS = {"1": "cub_block_reduce_raking", "2": "cub_block_reduce_warp_reductions"}


def run(cmd):
  return subprocess.run(cmd, capture_output=True, text=True, check=True).stdout


def split_top(args):
  """Template or parameter list -> top-level items ("a<b, c>, d" -> ["a<b, c>", "d"])."""
  items, depth, cur = [], 0, ""
  for ch in args:
    if ch in "<(":
      depth += 1
    elif ch in ">)":
      depth -= 1
    if ch == "," and depth == 0:
      items.append(cur.strip())
      cur = ""
    else:
      cur += ch
  if cur.strip():
    items.append(cur.strip())
  return items


def enum_value(arg):
  """"(rl::kernels::Workspace)1" -> "1"; "8" -> "8"."""
  return arg.rsplit(")", 1)[-1].strip()


def lab_variant_ids(kernels_dir):
  """{KernelId value: variant id} of the labs, from kernels/include/kernels/ids.h: a lab's id is
  its enumerator in snake case (BranchDivergent = 40 -> branch_divergent)."""
  with open(os.path.join(kernels_dir, "include", "kernels", "ids.h")) as f:
    text = f.read()
  out = {}
  for name, value in re.findall(r"^\s*(\w+) = (\d+),", text, re.M):
    if 40 <= int(value) < 70:
      out[value] = re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()
  return out


LAB_IDS = {}
LAB_UNROLLS = {"branch_data": [2 ** i for i in range(8)],
               "branch_partitioned": [2 ** i for i in range(8)]}


def lab_keys(name, targs, key):
  """Keys of a lab kernel's instantiation (kernels/lab_*.cu), [] when it is not one."""
  if name == "branch_lab":
    variant = LAB_IDS.get(enum_value(targs[0]))
    return [key(variant, "int32", "registers", u) for u in LAB_UNROLLS.get(variant, [1])]
  if name in ("count_syncthreads_count", "count_shared_tree", "count_ballot", "any_early_exit",
              "any_full_scan", "unroll_pragma"):
    return [key(name, "int32", "registers", int(targs[0]))]
  if name == "tree_loop_unrolled":
    return [key(name, "int32", "shared", 1, int(targs[0]))]
  if name == "tree_loop_rolled":
    return [key(name, "int32", "shared", 1)]
  return []


def instance_keys(demangled):
  """The engine's keys for one kernel instantiation, [] for kernels no variant runs."""
  if re.search(r"::tree_loop_rolled\(", demangled):
    return lab_keys("tree_loop_rolled", [], lambda v, t, w, u, b=0: f"{v}|{t}|{w}|{u}|{b}")
  m = re.search(r"::(\w+)<(.*)>\((.*)\)$", demangled)
  if not m:
    return []
  name, targs, params = m.group(1), split_top(m.group(2)), m.group(3)
  t = TYPES.get(targs[0]) if targs else None

  def key(variant, ty, ws, unroll, block=0):
    return f"{variant}|{ty}|{ws}|{unroll}|{block}"

  if name in ("reduce_neighbored", "reduce_neighbored_less"):
    variant = "neighbored" if name == "reduce_neighbored" else "neighbored_less"
    return [key(variant, t, WORKSPACES[enum_value(targs[1])], 1)]
  if name == "reduce_interleaved":
    ws, u = WORKSPACES[enum_value(targs[1])], int(targs[2])
    keys = [key("unroll", t, ws, u)]
    return keys + ([key("interleaved", t, ws, 1)] if u == 1 else [])
  warp = {"reduce_unroll_warp": "unroll_warp", "reduce_complete_unroll_warp": "complete_unroll_warp",
          "reduce_complete_unroll": "complete_unroll"}
  if name in warp:
    variant = warp[name] + ("_volatile" if targs[3] == "true" else "_sync")
    block = int(targs[4]) if name == "reduce_complete_unroll" else 0
    return [key(variant, t, WORKSPACES[enum_value(targs[1])], int(targs[2]), block)]
  if name in ("warp_shuffle", "cg_reduce"):
    return [key(name, t, "registers", int(targs[1]))]
  if name == "reduce_add_sync":
    return [key(name, "int32", "registers", int(targs[0]))]
  if name in ("vectorized_grid_stride", "single_pass", "cluster_single_pass", "epoch_pass"):
    variant = "vectorized" if name == "vectorized_grid_stride" else name
    return [key(variant, t, "registers", int(targs[2]), int(targs[1]))]
  if name == "cub_block_reduce":
    variant = CUB_ALGOS.get(enum_value(targs[3]))
    return [key(variant, t, "registers", int(targs[2]), int(targs[1]))] if variant else []
  if name in ("branch_lab", "count_syncthreads_count", "count_shared_tree", "count_ballot",
              "any_early_exit", "any_full_scan", "unroll_pragma", "tree_loop_unrolled"):
    return lab_keys(name, targs, key)
  segmented = {"row_per_thread": "row_per_thread", "row_per_warp": "row_per_warp",
               "row_per_block": "row_per_block", "row_split": "row_split",
               "column_strided": "column_strided", "column_tiled": "column_tiled"}
  # The tiled columns come in three instances: scalars, 16-byte vectors of four columns (a width
  # that is a multiple of 4, as every power of two from 4 up), and those vectors with the fold
  # of a large matrix read 2 or 4 rows as one (Fold = true). The code view shows the vectors
  # without the fold.
  if name == "column_tiled" and (targs[2] != "4" or (len(targs) > 3 and targs[3] != "false")):
    return []
  if name in segmented:
    return [key(segmented[name], t, "registers", int(targs[1]))]
  if "SegmentedReduce" in name and "cub" in demangled:
    # CUB's segmented reduce (its own shape): by input type.
    ty = "float32" if re.search(r"\bfloat\b", m.group(2)) else "int32"
    return [key("cub_segmented_rows", ty, "registers", 1)]
  if "DeviceReduce" in name and "cub" in demangled:
    # CUB's own kernels (its tuning picks block size and items per thread): by input type.
    accum = re.search(r"policy_hub<([^,]*),", demangled)
    ty = "float32" if accum and accum.group(1) == "float" else "int32"
    return [key("cub_device_reduce", ty, "registers", 1)]
  return []


def sections(text):
  """cuobjdump output -> [(kind, arch, body)]: kind "elf" or "ptx", one per fatbin entry."""
  out = []
  for part in re.split(r"\nFatbin (elf|ptx) code:\n=+\n", "\n" + text)[1:]:
    out.append(part)
  return [(out[i], re.search(r"arch = (\w+)", out[i + 1]).group(1), out[i + 1])
          for i in range(0, len(out), 2)]


def parse_sass(text):
  """{(arch, mangled): sass text without the encodings}."""
  found = {}
  for kind, arch, body in sections(text):
    if kind != "elf":
      continue
    for block in re.split(r"\n\s*Function : ", body)[1:]:
      name, _, rest = block.partition("\n")
      lines = []
      for line in rest.splitlines():
        if re.match(r"\s*\.{6,}", line):
          break
        line = re.sub(r"\s*/\* 0x[0-9a-f]{16} \*/", "", line).rstrip()
        line = re.sub(r"\s+", " ", line)  # cuobjdump's column padding: narrow windows
        if line.strip() and not line.lstrip().startswith(".headerflags"):
          lines.append(line.strip())
      found[(arch, name.strip())] = "\n".join(lines) + "\n"
  return found


def parse_ptx(text):
  """{(arch, mangled): the .entry's PTX}. Only the entries: the module header is shared."""
  found = {}
  for kind, arch, body in sections(text):
    if kind != "ptx":
      continue
    arch = arch.replace("sm_", "compute_")
    for m in re.finditer(r"^(?:\.visible )?\.entry (\w+)\(.*?^\}\n", body, re.S | re.M):
      found[(arch, m.group(1))] = m.group(0)
  return found


def parse_resources(text):
  """{(arch, mangled): {"registers", "shared", "local", "stack", "constant"}}."""
  found, arch = {}, None
  for line in text.splitlines():
    m = re.match(r"arch = (\w+)", line)
    if m:
      arch = m.group(1)
    m = re.match(r"\s*Function (\w+):", line)
    if m:
      name = m.group(1)
      continue
    if re.match(r"\s*REG:\d+", line) and arch:
      fields = dict(re.findall(r"(\w+(?:\[\d+\])?):(\d+)", line))
      found[(arch, name)] = dict(registers=int(fields["REG"]), stack=int(fields["STACK"]),
                                 shared=int(fields["SHARED"]), local=int(fields["LOCAL"]))
  return found


def repo_file(path, repo_root):
  """The repository-relative name of a file the line info names, or None outside the repository.
  nvcc records the path it was given: absolute here, relative to the build folder where a
  compiler cache rewrote it (ccache's base_dir), so a relative one is tried without its "../"."""
  if os.path.isabs(path):
    rel = os.path.relpath(path, repo_root)
    return None if rel.startswith("..") else rel
  rel = os.path.normpath(path)
  while rel.startswith("../"):
    rel = rel[3:]
  return rel if os.path.exists(os.path.join(repo_root, rel)) else None


def parse_line_info(text, repo_root):
  """nvdisasm -g output -> {mangled: "offset:file:line;..."}: one entry where the line changes
  (offsets in hex as in the SASS, files relative to the repository; lines outside it dropped)."""
  found, name, pos, last = {}, None, None, None
  for line in text.splitlines():
    m = re.match(r"\.text\.(\S+):$", line)
    if m:
      name, pos, last = m.group(1), None, "unset"
      found[name] = []
      continue
    m = re.match(r"\s*//## File \"([^\"]+)\", line (\d+)", line)
    if m:
      pos = (repo_file(m.group(1), repo_root), int(m.group(2)))
      pos = pos if pos[0] else None
      continue
    m = re.match(r"\s*/\*([0-9a-f]{4,})\*/", line)
    if m and name and pos != last:
      found[name].append(f"{m.group(1)}:{pos[0]}:{pos[1]}" if pos else f"{m.group(1)}::0")
      last = pos
  return {n: ";".join(v) for n, v in found.items()}


def collect_lines(cuobjdump, nvdisasm, obj, repo_root):
  """{(arch, mangled): line table} of one object's cubins."""
  found = {}
  with tempfile.TemporaryDirectory() as tmp:
    subprocess.run([cuobjdump, "-xelf", "all", os.path.abspath(obj)], cwd=tmp,
                   capture_output=True, check=True)
    for cubin in sorted(os.listdir(tmp)):
      m = re.search(r"\.(sm_\d+a?)\.cubin$", cubin)
      if not m:
        continue
      text = run([nvdisasm, "-g", "-c", os.path.join(tmp, cubin)])
      for name, table in parse_line_info(text, repo_root).items():
        found[(m.group(1), name)] = table
  return found


def collect_binary(cuobjdump, nvdisasm, cxxfilt, objects, repo_root):
  functions, instances = {}, {}
  sass, ptx, res, lines = {}, {}, {}, {}
  for obj in objects:
    if not obj.endswith(".cu.o"):
      continue  # host-only objects of the kernels library (epoch_total.cpp) hold no device code
    if nvdisasm:
      for k, v in collect_lines(cuobjdump, nvdisasm, obj, repo_root).items():
        lines.setdefault(k, v)
    # setdefault: an architecture built twice (an extra sm_90 object) keeps its first copy.
    for k, v in parse_sass(run([cuobjdump, "-sass", obj])).items():
      sass.setdefault(k, v)
    for k, v in parse_ptx(run([cuobjdump, "-ptx", obj])).items():
      ptx.setdefault(k, v)
    for k, v in parse_resources(run([cuobjdump, "--dump-resource-usage", obj])).items():
      res.setdefault(k, v)
  names = sorted({n for _, n in sass} | {n for _, n in ptx})
  out = subprocess.run([cxxfilt], input="\n".join(names) + "\n", capture_output=True, text=True,
                       check=True).stdout.splitlines()
  for name, readable in zip(names, out):
    keys = instance_keys(readable)
    if not keys:
      continue
    functions[name] = {
        "demangled": readable,
        "sass": {a: t for (a, n), t in sass.items() if n == name},
        "ptx": {a: t for (a, n), t in ptx.items() if n == name},
        "resources": {a: r for (a, n), r in res.items() if n == name},
        "lines": {a: t for (a, n), t in lines.items() if n == name},
    }
    for k in keys:
      instances.setdefault(k, []).append(name)
  archs = sorted({a for a, _ in sass})
  ptx_archs = sorted({a for a, _ in ptx})
  return functions, instances, archs, ptx_archs


def main():
  ap = argparse.ArgumentParser()
  ap.add_argument("--kernels-dir", required=True)
  ap.add_argument("--out", required=True)
  ap.add_argument("--cuobjdump", default="")
  ap.add_argument("--nvdisasm", default="")
  ap.add_argument("--cxxfilt", default="c++filt")
  ap.add_argument("--objects", nargs="*", default=[])
  a = ap.parse_args()
  LAB_IDS.update(lab_variant_ids(a.kernels_dir))

  data = {"variants": variant_sources(a.kernels_dir), "functions": {}, "instances": {},
          "archs": [], "ptx_archs": [], "sass_unavailable": ""}
  if not a.cuobjdump or a.cuobjdump.endswith("NOTFOUND") or not os.path.exists(a.cuobjdump):
    data["sass_unavailable"] = (
        "cuobjdump was not found when the build was configured (neither in the CUDA toolkit nor "
        "from the nvidia-cuda-cuobjdump Python package that scripts/install-deps.sh installs), "
        "so no SASS, PTX or resource usage was embedded")
  else:
    nvdisasm = a.nvdisasm
    if not nvdisasm or nvdisasm.endswith("NOTFOUND") or not os.path.exists(nvdisasm):
      nvdisasm = ""
      data["lines_unavailable"] = (
          "nvdisasm was not found when the build was configured, so no line tables were embedded "
          "and sampled instructions cannot be placed on source lines")
    repo_root = os.path.dirname(os.path.abspath(a.kernels_dir))
    f, i, archs, ptx_archs = collect_binary(a.cuobjdump, nvdisasm, a.cxxfilt, a.objects, repo_root)
    data.update(functions=f, instances=i, archs=archs, ptx_archs=ptx_archs)
  missing = [v for v in VARIANTS if v not in data["variants"]]
  if missing:
    sys.exit(f"gen_code_view: no source span for {missing}")
  tmp = a.out + ".tmp"
  with open(tmp, "w") as f:
    json.dump(data, f, separators=(",", ":"))
  os.replace(tmp, a.out)


if __name__ == "__main__":
  main()
