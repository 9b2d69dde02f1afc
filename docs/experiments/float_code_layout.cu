// Experiment behind issue 17 (runs 1, 4, 5 of docs/data/h200-float-ablate-2026-12-04) (not part
// of the build): does float32's epoch pass lose its last tenth where one wave holds the grid to
// *fetching its code*, not to running it? Sections 5.5-5.10 of docs/benchmarks.md shortened
// float32's combine five ways without a consistent gain, while int32's code and fx_as_int (float
// data, int32's combine) stay 0.05-0.2 us ahead. What they share: a short kernel. ncu's
// --cache-control all (the targets' measurement) and the app's cold-L2 timing leave the kernel's
// code in DRAM, so every SM fetches each instruction line it runs; the float32 kernels are 2.5 KB
// longer (sm_90 SASS: 6.1-8.1 KB against 3.5-5.4 KB), and the per-warp path that small grids take
// sits at the far end of the kernel, 2.7 KB past the branch that chooses it (both paths are
// compiled into every kernel and the grid picks one at run time).
// Candidates, at the same shapes:
//   int        the product's int32 epoch pass (kernels/modern_epoch.cu at this file's commit)
//   fx         the product's float32
//   int_one    int32 with only the slot kind its grid takes compiled in (the host picks it)
//   fx_one     float32 the same way
//   int_split, fx_split (run 4) the product's kernel on grids of warp slots, and a kernel with only
//              block slots compiled in on grids of block slots (at 2^16 they are the product: a
//              check on the instrument itself)
// Modes: `check` (every candidate against the host, float32's bits over 30 runs; VALUES=wide
// for exponents over 40 binades), `ab FILE` (4 fixed shapes x 4 sizes, 15 rounds, candidates
// interleaved; ROUNDS, CANDS=name,...), `profile FILE` (every shape and the read floor's, 3
// launches), each for
//   ncu --clock-control none --cache-control all|none --csv --metrics gpu__time_duration.sum -k
//   regex:exp_
// and docs/experiments/ab_table.py (ab) or single_pass_shapes.py (profile) FILE ncu.csv.
// `slots FILE` (run 5): the product's int and fx kernels alone, each with its scratch (epoch word
// and accumulators) at 8 places STRIDE bytes apart (default 4096), the places interleaved in each
// of ROUNDS rounds, at 2^16 (256/2) and 2^20 (512/2): does where the atomics land move the time?
// The inputs, the read floor, the launch list and the modes check, ab and profile are
// epoch_bench.cuh's.
//   nvcc -O3 -std=c++20 -arch=sm_90 -Ikernels/include-engine -Ikernels/include -Ikernels \
//        docs/experiments/float_code_layout.cu kernels/epoch_total.cpp -o fcl
#include <cuda_runtime.h>

#include <type_traits>

#include "epoch_bench.cuh"
#include "modern_epoch.cuh"
#include "modern_finish.cuh"
#include "modern_tiles.cuh"

using namespace rl::kernels;
using namespace rl::kernels::modern;
using namespace epoch_bench;

constexpr int kInt = 0, kFx = 1, kIntOne = 2, kFxOne = 3, kIntSplit = 4, kFxSplit = 5, kCands = 6;
const char* const kNames[] = {"int", "fx", "int_one", "fx_one", "int_split", "fx_split"};
__host__ __device__ constexpr bool reads_float(int f) {
  return f == kFx || f == kFxOne || f == kFxSplit;
}

struct Cand {
  int f, B, U;
  const void* both;   // kSlots 0
  const void* warp;   // kSlots 1
  const void* block;  // kSlots 2
};
std::vector<Cand> g_cands;

template <int B, int U>
void add_shape() {
  g_cands.push_back(
      {kInt, B, U, (const void*)exp_product_epoch<int32_t, B, U, 0>, nullptr, nullptr});
  g_cands.push_back({kFx, B, U, (const void*)exp_product_epoch<float, B, U, 0>, nullptr, nullptr});
  g_cands.push_back({kIntOne, B, U, nullptr, (const void*)exp_product_epoch<int32_t, B, U, 1>,
                     (const void*)exp_product_epoch<int32_t, B, U, 2>});
  g_cands.push_back({kFxOne, B, U, nullptr, (const void*)exp_product_epoch<float, B, U, 1>,
                     (const void*)exp_product_epoch<float, B, U, 2>});
  g_cands.push_back({kIntSplit, B, U, nullptr, (const void*)exp_product_epoch<int32_t, B, U, 0>,
                     (const void*)exp_product_epoch<int32_t, B, U, 2>});
  g_cands.push_back({kFxSplit, B, U, nullptr, (const void*)exp_product_epoch<float, B, U, 0>,
                     (const void*)exp_product_epoch<float, B, U, 2>});
}

unsigned grid_of(const Cand& c, size_t n) {
  return grid_of(c.B, c.U, n);
}

void launch(const Cand& c, const void* x, size_t n, void* scratch, cudaStream_t st) {
  const unsigned g = grid_of(c, n);
  const void* fn = c.both ? c.both : (g * unsigned(c.B / kWarp) <= 512 ? c.warp : c.block);
  launch_shape(fn, c.B, c.U, x, n, scratch, st);
}

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "check";
  for_each_shape([](auto b, auto u) { add_shape<decltype(b)::value, decltype(u)::value>(); });
  const Inputs in = make_inputs();
  const size_t stride =
      std::getenv("STRIDE") ? std::strtoull(std::getenv("STRIDE"), nullptr, 0) : 4096;
  const size_t scratch_bytes = std::max<size_t>(kEpochScratchBytes * kCands, 16 * stride + 4096);
  char* scratch;
  CK(cudaMalloc(&scratch, scratch_bytes));
  CK(cudaMemset(scratch, 0, scratch_bytes));
  Experiment e;
  for (const Cand& c : g_cands) e.cands.push_back({kNames[c.f], c.B, c.U, reads_float(c.f), true});
  e.launch = [&](size_t k, const void* x, size_t n, char* at) {
    launch(g_cands[k], x, n, at, in.st);
  };
  e.scratch = [&](size_t k, int) { return scratch + kEpochScratchBytes * g_cands[k].f; };
  e.copy = [](size_t, char* at, cudaStream_t st) { return copy_product_scratch(at, st); };
  if (mode == "check") return check_mode(in, e);
  LaunchLog log(argc > 2 ? argv[2] : "launches.csv");
  if (mode == "ab") return ab_mode(in, e, log, 15);
  if (mode != "slots") return profile_mode(in, e, log);
  const int rounds = env_int("ROUNDS", 25);
  const size_t ns[] = {size_t(1) << 16, size_t(1) << 20};
  const int shapes[][2] = {{256, 2}, {512, 2}};
  for (int s = 0; s < 2; ++s)
    for (int r = 0; r < rounds; ++r)
      for (size_t k = 0; k < g_cands.size(); ++k) {
        const Cand& c = g_cands[k];
        if ((c.f != kInt && c.f != kFx) || c.B != shapes[s][0] || c.U != shapes[s][1]) continue;
        for (int slot = 0; slot < 8; ++slot)  // int's places after fx's: no two share one
          e.run(in, k, ns[s], scratch + stride * (slot + 8 * c.f), log,
                std::string(kNames[c.f]) + "@" + std::to_string(slot));
      }
  CK(cudaStreamSynchronize(in.st));
  std::printf("slots: %d launches\n", log.idx);
  return 0;
}
