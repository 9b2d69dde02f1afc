// Timing experiment for ColumnTiled's fold (not part of the product).
#include "exp_columns.cu"
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>
using namespace rl::kernels;
using namespace rl::kernels::segmented;
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); std::exit(1); } } while (0)

static void* g_x; static void* g_partials; static void* g_scratch; static void* g_flush;
static void* g_sums2; static unsigned* g_tick2; static unsigned long long* g_trace;
static const size_t kN = size_t(1) << 28, kScratch = size_t(256) << 20, kFlush = size_t(256) << 20;

// mode 0: the product's launch; mode 1: the Fold instance on a shape with no fold (fold = 1).
template <typename T>
static void launch(int mode, size_t rows, size_t cols, cudaStream_t st) {
  LaunchArgs a; a.kernel = KernelId::ColumnTiled; a.type = std::is_same_v<T, float> ? DType::Float32 : DType::Int32;
  a.block_size = 256; a.unroll = 8; a.n = rows * cols; a.input = g_x; a.partials = g_partials;
  a.scratch = g_scratch; a.stream = st; a.rows = rows; a.cols = cols;
  LaunchPlan p; CK(plan_columns(a, &p));
  if (p.scratch_bytes > kScratch) { std::fprintf(stderr, "scratch\n"); std::exit(1); }
  if (mode == 0) { CK(launch_columns(a, p)); return; }
  if (mode == 2) { CK(cudaMemsetAsync(g_partials, 0, cols * sizeof(typename Accum<T>::type), st)); CK(launch_columns(a, p)); return; }
  using A = typename Accum<T>::type;
  const ColumnsShape s = columns_shape(a);
  if (s.view.fold != 1 || s.slabs.lanes != 4) { std::fprintf(stderr, "mode 1 needs a width of 4k\n"); std::exit(1); }
  unsigned shift = 0; while ((size_t(1) << shift) < size_t(s.slabs.tile.width) * 4) ++shift;
  ViewFold<T, A> fold{static_cast<const T*>(g_x), rows, cols, rows, 1, shift, g_tick2, static_cast<A*>(g_sums2)};
  auto* sb = static_cast<unsigned char*>(g_scratch);
  SlabScratch<A> scratch{nullptr, nullptr, nullptr, s.slab_group, s.groups};
  if (s.slabs.slabs > 1) {
    scratch.slab_sums = reinterpret_cast<A*>(sb);
    scratch.group_sums = scratch.slab_sums + s.slabs.slabs * cols;
    scratch.tickets = reinterpret_cast<unsigned*>(scratch.group_sums + (s.groups > 1 ? s.groups * cols : 0));
  }
  column_tiled<T, 8, 4, true><<<s.grid, 256, 256 * 4 * sizeof(A), st>>>(
      static_cast<const T*>(g_x), rows, cols, s.slabs.tile.width, s.slabs.tile.column_blocks,
      s.slabs.slab_rows, scratch, static_cast<A*>(g_partials), fold);
  CK(cudaGetLastError());
}

int main(int argc, char** argv) {
  int samples = 15;
  CK(cudaMalloc(&g_x, kN * 4)); CK(cudaMalloc(&g_partials, size_t(64) << 20));
  CK(cudaMalloc(&g_scratch, kScratch)); CK(cudaMemset(g_scratch, 0, kScratch));
  CK(cudaMalloc(&g_sums2, size_t(64) << 20)); CK(cudaMalloc(&g_tick2, 1 << 20)); CK(cudaMemset(g_tick2, 0, 1 << 20));
  CK(cudaMalloc(&g_flush, kFlush));
  CK(cudaMalloc(&g_trace, size_t(3) << 20 * 1)); 
  CK(cudaMemset(g_x, 1, kN * 4));
  cudaStream_t st; CK(cudaStreamCreate(&st));
  cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
  std::printf("x=%p scratch=%p\n", g_x, g_scratch);
  // args: T:rows:cols:mode[:trace-file]
  for (int i = 1; i < argc; ++i) {
    char t; size_t rows, cols; int mode; char tf[256] = "";
    if (std::sscanf(argv[i], "%c:%zu:%zu:%d:%255s", &t, &rows, &cols, &mode, tf) < 4) { std::fprintf(stderr, "bad %s\n", argv[i]); return 1; }
    auto go = [&] { if (t == 'i') launch<int32_t>(mode, rows, cols, st); else launch<float>(mode, rows, cols, st); };
    unsigned long long* nul = nullptr;
    CK(cudaMemcpyToSymbol(g_exp_trace, &nul, sizeof(nul)));
    for (int w = 0; w < 3; ++w) go();
    std::vector<float> ms;
    for (int k = 0; k < samples; ++k) {
      CK(cudaMemsetAsync(g_flush, k, kFlush, st));
      CK(cudaEventRecord(e0, st)); go(); CK(cudaEventRecord(e1, st)); CK(cudaEventSynchronize(e1));
      float m; CK(cudaEventElapsedTime(&m, e0, e1)); ms.push_back(m * 1000.f);
    }
    std::sort(ms.begin(), ms.end());
    std::printf("%-28s median %8.1f us  min %8.1f  max %8.1f\n", argv[i], ms[ms.size() / 2], ms.front(), ms.back());
    std::fflush(stdout);
    if (mode == 2 || getenv("EXP_DUMP")) {
      const size_t bytes = cols * (t == 'i' ? 8 : 4);
      std::vector<unsigned char> h(bytes);
      go(); CK(cudaStreamSynchronize(st));
      CK(cudaMemcpy(h.data(), g_partials, bytes, cudaMemcpyDeviceToHost));
      // every column of a matrix of 0x01010101 ints sums to rows x 16843009
      if (t == 'i') { size_t bad = 0; for (size_t c = 0; c < cols; ++c) if (reinterpret_cast<long long*>(h.data())[c] != (long long)rows * 16843009LL) ++bad;
        std::printf("  check: %zu of %zu columns wrong\n", bad, cols); }
    }
    if (tf[0]) {
      CK(cudaMemcpyToSymbol(g_exp_trace, &g_trace, sizeof(g_trace)));
      CK(cudaMemsetAsync(g_trace, 0, size_t(3) << 20, st));
      CK(cudaMemsetAsync(g_flush, 7, kFlush, st));
      go(); CK(cudaStreamSynchronize(st));
      std::vector<unsigned long long> h(size_t(3) << 17);
      CK(cudaMemcpy(h.data(), g_trace, h.size() * 8, cudaMemcpyDeviceToHost));
      FILE* f = std::fopen(tf, "w");
      unsigned long long t0 = ~0ull; for (size_t b = 0; b < h.size() / 3; ++b) if (h[3*b]) t0 = std::min(t0, h[3*b]);
      for (size_t b = 0; b < h.size() / 3; ++b) if (h[3*b]) std::fprintf(f, "%zu %llu %llu %llu\n", b, h[3*b]-t0, h[3*b+1]-t0, h[3*b+2]);
      std::fclose(f);
      CK(cudaMemcpyToSymbol(g_exp_trace, &nul, sizeof(nul)));
    }
  }
  return 0;
}
