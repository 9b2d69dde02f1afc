"""Source spans for the Code view: the kernel function of each catalog variant and the
device helpers it calls, cut from kernels/*.cu and *.cuh by parsing function boundaries (the
comment block and template line above a definition, then to its matching brace).

Only which function each variant runs is stated here (the mapping the launchers make in code);
the text itself always comes from the repository file.
"""
import os
import re

# variant id -> (file, kernel function, helpers to leave out). The volatile / __syncwarp twins
# share one kernel template: each shows only the last-warp helper it instantiates.
VARIANTS = {
    "neighbored": ("seed_ladder.cu", "reduce_neighbored", []),
    "neighbored_less": ("seed_ladder.cu", "reduce_neighbored_less", []),
    "interleaved": ("seed_ladder.cu", "reduce_interleaved", []),
    "unroll": ("seed_ladder.cu", "reduce_interleaved", []),
    "unroll_warp_volatile": ("seed_warp.cu", "reduce_unroll_warp", ["last_warp_syncwarp"]),
    "unroll_warp_sync": ("seed_warp.cu", "reduce_unroll_warp", ["last_warp_volatile"]),
    "complete_unroll_warp_volatile":
        ("seed_warp.cu", "reduce_complete_unroll_warp", ["last_warp_syncwarp"]),
    "complete_unroll_warp_sync":
        ("seed_warp.cu", "reduce_complete_unroll_warp", ["last_warp_volatile"]),
    "complete_unroll_volatile": ("seed_warp.cu", "reduce_complete_unroll", ["last_warp_syncwarp"]),
    "complete_unroll_sync": ("seed_warp.cu", "reduce_complete_unroll", ["last_warp_volatile"]),
    "warp_shuffle": ("modern_warp.cu", "warp_shuffle", []),
    "reduce_add_sync": ("modern_warp.cu", "reduce_add_sync", []),
    "cg_reduce": ("modern_warp.cu", "cg_reduce", []),
    "vectorized": ("modern_vectorized.cu", "vectorized_grid_stride", []),
    "single_pass": ("modern_single_pass.cu", "single_pass", []),
    "cluster_single_pass": ("modern_cluster.cu", "cluster_single_pass", []),
    "epoch_pass": ("modern_epoch.cu", "epoch_pass", []),
    "cub_device_reduce": ("cub_reference.cu", "device_sum", ["with_type"]),
    "cub_block_reduce_raking": ("cub_reference.cu", "cub_block_reduce", []),
    "cub_block_reduce_warp_reductions": ("cub_reference.cu", "cub_block_reduce", []),
}
# Rows and columns of a matrix (kernels/segmented_*.cu, cub_segmented.cu): one kernel each.
VARIANTS.update({
    "row_per_thread": ("segmented_rows.cu", "row_per_thread", []),
    "row_per_warp": ("segmented_rows.cu", "row_per_warp", []),
    "row_per_block": ("segmented_rows.cu", "row_per_block", []),
    "row_split": ("segmented_rows.cu", "row_split", []),
    "cub_segmented_rows": ("cub_segmented.cu", "segmented_sum", ["with_type"]),
    "column_strided": ("segmented_columns.cu", "column_strided", []),
    "column_tiled": ("segmented_columns.cu", "column_tiled", []),
})
# The labs (kernels/lab_*.cu): the divergence lab's variants share one kernel template whose
# map (the helper `mapped`) is written out per variant with if constexpr.
VARIANTS.update({v: ("lab_divergence.cu", "branch_lab", []) for v in (
    "branch_divergent", "branch_uniform", "branch_data", "branch_partitioned", "if_else_cheap",
    "select_cheap", "if_else_costly", "select_costly", "loop_invariant_inside",
    "loop_invariant_hoisted", "abs_branch", "abs_bit_trick")})
VARIANTS.update({v: ("lab_predicates.cu", v, []) for v in (
    "count_syncthreads_count", "count_shared_tree", "count_ballot", "any_early_exit",
    "any_full_scan")})
VARIANTS.update({v: ("lab_unroll.cu", v, []) for v in (
    "unroll_pragma", "tree_loop_rolled", "tree_loop_unrolled")})

# Phase marks on the kernel's own lines, first match wins. The engine ties each kind to the
# catalog's phase text (engine/code/code_view.cpp).
PHASE_RULES = [
    ("epoch", r"epoch_ready_next"),
    ("load", r"prepare_workspace|load_pre_reduced|stream_thread_sum|tile_thread_sum|"
             r"LoadDirectStriped|T items\[|sum \+= mine|sum \+= x\[i\]|ws\[threadIdx\.x\] = i|"
             r"range_thread_sum|column_thread_sum"),
    ("map", r"mapped<"),
    ("count", r"__syncthreads_count|__syncthreads_or|__ballot_sync|lab::counted|lab::searched"),
    ("last warp", r"last_warp"),
    ("block sum", r"block_sum_shfl|warp_sum_redux|cg::reduce|BlockReduce|tile_sums|warp_sums|"
                  r"block\.sync|nwarps > 1|meta_group|block_total|warp_total|block_window_hand_on|"
                  r"warp_window_entry|block_range_sum"),
    ("cluster", r"map_shared_rank|cluster\.sync"),
    ("write", r"partials\[blockIdx\.x\]|write_partial|hand_on_counted|hand_on_windows|"
              r"epoch_hand_on|\*result|sums\[[rc]\] = |out\[p\] = "),
    ("tree", r"__syncthreads|ws\[(tid|index)\] \+=|stride|blockDim\.x >=|B >="),
    ("block sum", r"__syncthreads"),  # past the seed, the one barrier is the block sum's
    ("finish", r"DeviceReduce::Sum|DeviceSegmentedReduce::Sum"),
]

FUNC_START = re.compile(r"^(?:__global__|__device__|cudaError_t|template)", re.M)


def strip_comments(text):
  return re.sub(r"//[^\n]*", "", text)


def find_functions(path):
  """{name: (first_line, last_line, text)} of the functions defined in one file (1-based)."""
  with open(path) as f:
    lines = f.read().split("\n")
  text = "\n".join(lines)
  found = {}
  for m in re.finditer(r"(__global__|__device__)[^;{]*?(\w+)\s*\(", text):
    header = text[m.start():text.find("{", m.start()) if "{" in text[m.start():] else len(text)]
    if ";" in header or "__shared__" in header:
      continue
    name = re.sub(r"__launch_bounds__\s*\([^)]*\)", "", header).split("(")[0].split()[-1]
    found.setdefault(name, span(lines, text, m.start()))
  # Host functions the catalog shows (CUB DeviceReduce is a library call, not our kernel).
  for m in re.finditer(r"^cudaError_t (\w+)\(", text, re.M):
    found.setdefault(m.group(1), span(lines, text, m.start()))
  return found


def span(lines, text, start):
  first = text.count("\n", 0, start)  # 0-based line of the keyword
  # Back over the template line(s) and the comment block right above the definition.
  while first > 0 and re.match(r"\s*(template\b|//)", lines[first - 1]):
    first -= 1
  depth, i = 0, text.find("{", start)
  while i < len(text):
    depth += {"{": 1, "}": -1}.get(text[i], 0)
    if depth == 0:
      break
    i += 1
  last = text.count("\n", 0, i)
  return first + 1, last + 1, "\n".join(lines[first:last + 1])


def helpers_of(body, table, omit, seen):
  """Device helpers a body calls, callees after callers, each once."""
  out = []
  for name in re.findall(r"\b(\w+)\s*[<(]", strip_comments(body)):
    if name in table and name not in seen and name not in omit:
      seen.add(name)
      out.append(name)
      out += helpers_of(table[name][1][2], table, omit, seen)
  return out


def variant_sources(kernels_dir):
  per_file = {}
  headers = {}
  for fn in sorted(os.listdir(kernels_dir)):
    if fn.endswith((".cu", ".cuh")):
      per_file[fn] = find_functions(os.path.join(kernels_dir, fn))
      if fn.endswith(".cuh"):
        for name, s in per_file[fn].items():
          headers.setdefault(name, (fn, s))
  out = {}
  for variant, (fn, kernel, omit) in VARIANTS.items():
    table = dict(headers)
    table.update({name: (fn, s) for name, s in per_file[fn].items()})
    first, last, text = per_file[fn][kernel]
    spans = [{"file": "kernels/" + fn, "first_line": first, "text": text, "role": "kernel"}]
    for name in helpers_of(text, table, set(omit), {kernel}):
      hf, (hfirst, _, htext) = table[name]
      spans.append({"file": "kernels/" + hf, "first_line": hfirst, "text": htext,
                    "role": "helper", "name": name})
    marks, in_body = [], False
    rules = [r for r in PHASE_RULES if r[0] != "tree" or fn.startswith(("seed_", "lab_"))]
    for i, line in enumerate(text.split("\n")):
      code = strip_comments(line)
      if not in_body:  # the comment, template line and signature carry no phase
        in_body = code.rstrip().endswith("{")
        continue
      for kind, rule in rules:
        if code.strip() and re.search(rule, code):
          marks.append([i, kind])
          break
    out[variant] = {"kernel": kernel, "spans": spans, "marks": marks}
  return out
