// Experiment behind issue 17 (not part of the build): what the epoch pass's tickets cost where
// one wave holds the grid. Every slot's leader takes a ticket with one returning atomic on the
// epoch word as it starts (modern_epoch.cuh epoch_begin); all of a launch's tickets go to that one
// word, where the L2 performs them one after another, and every slot waits for its own to come
// back before its RED (the RED's address needs the epoch) and before it exits. If the tickets of
// 256-2048 slots queue longer than the tiles take to load, the last slots wait at the end.
// Candidates, each the product's kernel (epoch_bench.cuh exp_product_epoch) with its ticket:
//   int, fx        as the product (a returning atomic per slot)
//   int_nt, fx_nt  no ticket at all: epoch 0, never the last slot (ablation: timed, not checked)
//   int_rt, fx_rt  the ticket as a RED, nothing comes back: epoch 0 (ablation: timed, not checked)
//   int_bt, fx_bt  one ticket per block on grids of warp slots (run 2): thread 0 takes it, warp 0
//                  hands it to the block's other warps through shared memory and a named barrier
//                  (bar.arrive by warp 0, bar.sync by the others: only they wait, and only for
//                  warp 0), every warp still adds its own sum with RED, and the last *block* is
//                  the one that readies the next launch (checked: exact, and deterministic)
// Modes as epoch_bench.cuh: `check` (int, fx only), `ab FILE`, `profile FILE`, for
//   ncu --clock-control none --cache-control all|none --csv --metrics gpu__time_duration.sum -k
//   regex:exp_
// and docs/experiments/ab_table.py (ab) or single_pass_shapes.py (profile) FILE ncu.csv.
//   nvcc -O3 -std=c++20 -arch=sm_90 -Ikernels/include-engine -Ikernels/include -Ikernels \
//        docs/experiments/epoch_ticket_ablate.cu kernels/epoch_total.cpp -o eta
// with the product headers of ebce1d7 (the runs of docs/data/h200-epoch-tickets-2026-12-04; the
// product took the no-ticket design after them, 37b4def).
#include <cuda_runtime.h>

#include <type_traits>

#include "epoch_bench.cuh"

using namespace rl::kernels;
using namespace rl::kernels::modern;
using namespace epoch_bench;

constexpr int kInt = 0, kFx = 1, kIntNt = 2, kFxNt = 3, kIntRt = 4, kFxRt = 5, kIntBt = 6,
              kFxBt = 7, kCands = 8;
const char* const kNames[] = {"int", "fx", "int_nt", "fx_nt", "int_rt", "fx_rt", "int_bt", "fx_bt"};
constexpr bool ablation(int f) {
  return f >= kIntNt && f <= kFxRt;
}

// kTicket: 1 none, 2 a RED on the epoch word (the same traffic at the L2, nothing to wait for).
// The rest is exp_product_epoch's.
template <typename T, int B, int U, int kTicket>
__global__ void __launch_bounds__(B)
    exp_ticket_epoch(const T* __restrict__ x, std::size_t n, char* __restrict__ scratch) {
  using A = typename Accum<T>::type;
  constexpr bool kInt32 = std::is_same_v<T, int32_t>;
  constexpr unsigned kWarps = B / kWarp;
  const unsigned warp_slots = gridDim.x * kWarps;
  const bool per_warp = warp_slots <= 512;
  epoch_prefetch(scratch, !kInt32);
  const unsigned long long began = 0;
  if (kTicket == 2 && (per_warp ? threadIdx.x % kWarp == 0 : threadIdx.x == 0)) {
    const unsigned long long one = 1ull + (threadIdx.x >> 10);  // not a constant: no aggregation
    asm volatile("red.global.relaxed.gpu.add.u64 [%0], %1;" ::"l"(epoch_word(scratch)), "l"(one)
                 : "memory");
  }
  A sum = tile_thread_sum<T, B, U>(x, n);
  int word = kInt32 ? kEpochInt32Word : 0;
  long long add = 0;
  unsigned long long special = 0;
  if constexpr (kInt32) {
    if (!per_warp) {
      sum = block_total(sum, kWarps);
      if (threadIdx.x >= kWarp) return;
    }
    add = per_warp ? warp_total(sum) : sum;
  } else {
    if (!per_warp) {
      block_window_hand_on<kWarps>(sum, scratch, began, gridDim.x);
      return;
    }
    add = warp_window_entry(sum, &word, &special);
  }
  epoch_hand_on(word, add, special, scratch, began, per_warp ? warp_slots : gridDim.x,
                kInt32 ? unsigned(kEpochInt32Word) : 0u, kInt32 ? 1u : unsigned(kEpochTotalWords));
}

// One ticket per block where the grid's slots are warps. Thread 0 takes the block's ticket as it
// starts (as on grids of block slots). After its warp sum warp 0 stores the ticket in shared
// memory and arrives at named barrier 1 without waiting; the other warps wait there (bar.sync:
// it synchronizes with warp 0's bar.arrive, so the store is seen) and read it. Every warp adds
// its own sum with RED into accumulator epoch % 2 as in the product. The block with the last
// ticket (gridDim.x - 1) knows every block has taken its ticket, so no slot of this launch reads
// the epoch word again: its warp 0 readies the next launch. The other warps pass no slot count
// (0), so they never do.
template <typename T, int B, int U>
__global__ void __launch_bounds__(B)
    exp_block_ticket_epoch(const T* __restrict__ x, std::size_t n, char* __restrict__ scratch) {
  using A = typename Accum<T>::type;
  constexpr bool kInt32 = std::is_same_v<T, int32_t>;
  constexpr unsigned kWarps = B / kWarp;
  const unsigned warp_slots = gridDim.x * kWarps;
  const bool per_warp = warp_slots <= 512;
  __shared__ unsigned long long block_ticket;
  epoch_prefetch(scratch, !kInt32);
  unsigned long long began = 0;
  if (threadIdx.x == 0) began = epoch_begin(scratch);
  A sum = tile_thread_sum<T, B, U>(x, n);
  int word = kInt32 ? kEpochInt32Word : 0;
  long long add = 0;
  unsigned long long special = 0;
  unsigned slots = gridDim.x;
  if (per_warp) {
    if constexpr (kInt32) {
      add = warp_total(sum);
    } else {
      add = warp_window_entry(sum, &word, &special);
    }
    // After the warp's own sum: warp 0 hands the ticket on as soon as it has it, the others
    // wait for it only now.
    if (threadIdx.x < kWarp) {
      if (threadIdx.x == 0) block_ticket = began;
      asm volatile("bar.arrive 1, %0;" ::"n"(B) : "memory");
    } else {
      asm volatile("bar.sync 1, %0;" ::"n"(B) : "memory");
      if (threadIdx.x % kWarp == 0)
        began = *static_cast<volatile unsigned long long*>(&block_ticket);
      slots = 0;  // never the last: only warp 0 readies the next launch
    }
  } else if constexpr (kInt32) {
    sum = block_total(sum, kWarps);
    if (threadIdx.x >= kWarp) return;
    add = sum;
  } else {
    block_window_hand_on<kWarps>(sum, scratch, began, gridDim.x);
    return;
  }
  epoch_hand_on(word, add, special, scratch, began, slots, kInt32 ? unsigned(kEpochInt32Word) : 0u,
                kInt32 ? 1u : unsigned(kEpochTotalWords));
}

struct Cand {
  int f, B, U;
  const void* fn;
};
std::vector<Cand> g_cands;

template <int B, int U>
void add_shape() {
  g_cands.push_back({kInt, B, U, (const void*)exp_product_epoch<int32_t, B, U>});
  g_cands.push_back({kFx, B, U, (const void*)exp_product_epoch<float, B, U>});
  g_cands.push_back({kIntNt, B, U, (const void*)exp_ticket_epoch<int32_t, B, U, 1>});
  g_cands.push_back({kFxNt, B, U, (const void*)exp_ticket_epoch<float, B, U, 1>});
  g_cands.push_back({kIntRt, B, U, (const void*)exp_ticket_epoch<int32_t, B, U, 2>});
  g_cands.push_back({kFxRt, B, U, (const void*)exp_ticket_epoch<float, B, U, 2>});
  g_cands.push_back({kIntBt, B, U, (const void*)exp_block_ticket_epoch<int32_t, B, U>});
  g_cands.push_back({kFxBt, B, U, (const void*)exp_block_ticket_epoch<float, B, U>});
}

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "check";
  for_each_shape([](auto b, auto u) { add_shape<decltype(b)::value, decltype(u)::value>(); });
  const Inputs in = make_inputs();
  char* scratch;
  // One place per candidate, 4 KB apart. Round r swaps the two of each pair (int and fx, the
  // _nt pair, the _rt pair) and no more: an ablation leaves its epoch word with tickets the
  // product's protocol would never leave, so the product never shares a place with one.
  constexpr std::size_t kPlace = 4096;
  CK(cudaMalloc(&scratch, kPlace * kCands));
  CK(cudaMemset(scratch, 0, kPlace * kCands));
  Experiment e;
  for (const Cand& c : g_cands) {
    const bool reads_float = c.f % 2 == 1;
    // The ablations read their own type's buffer, named explicitly so that check skips them.
    const int buffer = ablation(c.f) ? (reads_float ? 1 : 2) : 0;
    e.cands.push_back({kNames[c.f], c.B, c.U, reads_float, true, buffer});
  }
  e.launch = [&](size_t k, const void* x, size_t n, char* at) {
    launch_shape(g_cands[k].fn, g_cands[k].B, g_cands[k].U, x, n, at, in.st);
  };
  e.scratch = [&](size_t k, int r) {
    const int f = g_cands[k].f;
    return scratch + kPlace * (f / 2 * 2 + (f + r) % 2);
  };
  e.copy = [](size_t, char* at, cudaStream_t st) { return copy_product_scratch(at, st); };
  if (mode == "check") return check_mode(in, e);
  LaunchLog log(argc > 2 ? argv[2] : "launches.csv");
  return mode == "ab" ? ab_mode(in, e, log, 16) : profile_mode(in, e, log);
}
