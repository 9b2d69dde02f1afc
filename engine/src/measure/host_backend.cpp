// The host backend: every block of a launch run on the CPU by the block model, with the GPU's
// partitioning and order of additions. Used where there is no GPU (labelled as host
// emulation; its times are CPU times) and as the reference the runner verifies against.
#include <unistd.h>

#include <chrono>
#include <fstream>

#include "engine/backend/backend.h"
#include "engine/catalog/catalog.h"
#include "engine/core/echo.h"
#include "engine/core/error.h"
#include "engine/model/block_model.h"

namespace rl {

namespace {

using Clock = std::chrono::steady_clock;

double ms_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

std::string cpu_model_name() {
  std::ifstream f("/proc/cpuinfo");
  std::string line;
  while (std::getline(f, line)) {
    if (line.rfind("model name", 0) != 0) continue;
    const auto colon = line.find(':');
    if (colon == std::string::npos) break;
    const auto start = line.find_first_not_of(' ', colon + 1);
    if (start != std::string::npos) return line.substr(start);
  }
  return "host CPU";
}

DeviceInfo host_device_info() {
  DeviceInfo d;
  d.backend = "host";
  d.index = -1;
  d.name = cpu_model_name();
  d.max_threads_per_block = 1024;
  const long pages = sysconf(_SC_PHYS_PAGES), avail = sysconf(_SC_AVPHYS_PAGES);
  const long page = sysconf(_SC_PAGE_SIZE);
  if (pages > 0 && page > 0) d.total_memory = std::size_t(pages) * std::size_t(page);
  if (avail > 0 && page > 0) d.free_memory = std::size_t(avail) * std::size_t(page);
  d.note = "host emulation: times are host CPU times, not GPU times";
  return d;
}

class HostBackend final : public Backend {
 public:
  HostBackend() : device_(host_device_info()) {}

  const DeviceInfo& device() const override { return device_; }
  bool is_gpu() const override { return false; }

  std::string unsupported_reason(const PointSpec& p) const override {
    const VariantInfo* v = find_variant_by_id(p.variant);
    if (v == nullptr) return "unknown variant " + echo(p.variant);
    if (v->family == VariantFamily::User)
      return v->id +
             " is a kernel you wrote: it runs on a GPU only (here it compiles and shows "
             "its SASS; a remote GPU can time it)";
    if (!v->has_block_model) return "no host model for " + v->seed_label(p.unroll);
    return {};
  }

  // The host needs no upload: it reads the caller's input in place, so `input` must stay alive
  // and unchanged until the next prepare() or release() (the runner's input cache does that).
  void prepare(const PointSpec& p, const InputData& input) override {
    const std::string why = unsupported_reason(p);
    if (!why.empty()) throw Error(why + " [" + p.label() + "]");
    if (input.type != p.type || input.size() != p.size)
      throw Error("host backend: the input does not match the point [" + p.label() + "]");
    point_ = p;
    input_ = &input;
    output_.reset();
    // Ladder grids are ceil(N / (B * U)); variants past the classic ladder size their own grid,
    // known once a sample has run (their partial count).
    const VariantInfo* v = find_variant_by_id(p.variant);
    const std::uint64_t tile = std::uint64_t(p.block_size) * std::uint64_t(p.unroll);
    grid_ = v->family == VariantFamily::SeedLadder && tile > 0
                ? static_cast<unsigned>((p.size + tile - 1) / tile)
                : 0;
    // The rows and columns models have no blocks: their partials are the sums, not a grid.
    sizes_grid_ = !v->is_segmented();
  }

  unsigned grid() const override { return grid_; }

  // Times the per-block pass and the finishing pass separately with steady_clock. Variants
  // whose host model is not split into passes (past the classic ladder) report the total only.
  SampleTimes run_sample(bool /*cold_l2: no cache to flush on the host*/) override {
    if (input_ == nullptr) throw Error("host backend: run_sample() before prepare()");
    SampleTimes t;
    const auto t0 = Clock::now();
    std::optional<ReductionOutput> out = model_first_pass(point_, *input_);
    if (out) {
      const auto t1 = Clock::now();
      model_finish(*out);
      const auto t2 = Clock::now();
      t.first_ms = ms_between(t0, t1);
      t.total_ms = ms_between(t0, t2);
    } else {
      out = model_reduce(point_, *input_);
      if (!out) throw Error("no host model for " + point_.variant + " [" + point_.label() + "]");
      t.total_ms = ms_between(t0, Clock::now());
    }
    if (!out->has_partials) t.first_ms.reset();
    if (grid_ == 0 && sizes_grid_ && out->has_partials)
      grid_ = static_cast<unsigned>(out->partial_count());
    output_ = std::move(out);
    return t;
  }

  ReductionOutput read_output() override {
    if (!output_) throw Error("host backend: read_output() before any sample");
    return *output_;
  }

  void release() override {
    input_ = nullptr;
    output_.reset();
    grid_ = 0;
  }

 private:
  DeviceInfo device_;
  PointSpec point_;
  const InputData* input_ = nullptr;
  std::optional<ReductionOutput> output_;
  unsigned grid_ = 0;
  bool sizes_grid_ = true;  // whether the partial count is the grid
};

}  // namespace

std::unique_ptr<Backend> make_host_backend() {
  return std::make_unique<HostBackend>();
}

}  // namespace rl
