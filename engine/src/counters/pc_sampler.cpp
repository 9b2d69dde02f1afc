#include "counters/pc_sampler.h"

#include <algorithm>
#include <map>

#include "counters/cupti_internal.h"

namespace rl {

namespace {

constexpr std::string_view kReasonPrefix = "smsp__pcsamp_warps_issue_stalled_";
constexpr std::size_t kBufferPcs = 8192;  // PCs per read: far more than any kernel here has

// The short name kept for a CUPTI stall reason: the reason without its prefix; "" for the
// "not issued" subsets and the bookkeeping counters (sample count, dropped samples).
std::string short_reason(std::string_view name) {
  if (!name.starts_with(kReasonPrefix) || name.ends_with("_not_issued")) return {};
  return std::string(name.substr(kReasonPrefix.size()));
}

template <typename P>
P sized() {
  P p{};
  p.size = sizeof(P);
  return p;
}

}  // namespace

// CUPTI's parsed-data buffer: CUpti_PCSamplingData over kBufferPcs records, each with room for
// every stall reason. One is given to CUPTI at configuration; reads need one of their own (a read
// into the configured one would clear CUPTI's own record count).
struct PcSamplingBuffer {
  CUpti_PCSamplingData data{};
  std::vector<CUpti_PCSamplingPCData> pcs;
  std::vector<CUpti_PCSamplingStallReason> reasons;
  std::size_t per_pc = 0;
  explicit PcSamplingBuffer(std::size_t reason_count)
      : pcs(kBufferPcs), reasons(kBufferPcs * reason_count), per_pc(reason_count) {
    data.size = sizeof(CUpti_PCSamplingData);
    data.collectNumPcs = kBufferPcs;
    data.pPcData = pcs.data();
    reset();
  }
  void reset() {
    data.totalNumPcs = 0;
    for (std::size_t i = 0; i < pcs.size(); ++i) {
      pcs[i].size = sizeof(CUpti_PCSamplingPCData);
      pcs[i].stallReasonCount = per_pc;
      pcs[i].stallReason = reasons.data() + i * per_pc;
    }
  }
};

PcSampler::PcSampler(int device, int period_log2) : api_(cupti_api()), period_log2_(period_log2) {
  if (!api_.pc_sampling_missing.empty())
    throw CountersUnavailable(api_.path + " has no " + api_.pc_sampling_missing +
                              ": this CUPTI cannot sample program counters");
  const std::string where = "PC sampling on cuda:" + std::to_string(device);
  ctx_ = cupti_detail::current_context(device);
  auto en = sized<CUpti_PCSamplingEnableParams>();
  en.ctx = ctx_;
  cupti_check(api_, api_.PcEnable(&en), "cuptiPCSamplingEnable", where);
  enabled_ = true;
  try {
    configure();
  } catch (...) {
    auto dis = sized<CUpti_PCSamplingDisableParams>();
    dis.ctx = ctx_;
    api_.PcDisable(&dis);
    throw;
  }
}

PcSampler::~PcSampler() {
  if (!enabled_) return;
  auto dis = sized<CUpti_PCSamplingDisableParams>();
  dis.ctx = ctx_;
  api_.PcDisable(&dis);  // nothing to do about a failure while cleaning up
}

void PcSampler::configure() {
  const std::string where = "configuring PC sampling";
  std::size_t count = 0;
  auto num = sized<CUpti_PCSamplingGetNumStallReasonsParams>();
  num.ctx = ctx_;
  num.numStallReasons = &count;
  cupti_check(api_, api_.PcGetNumStallReasons(&num), "cuptiPCSamplingGetNumStallReasons", where);
  std::vector<std::vector<char>> text(count, std::vector<char>(CUPTI_STALL_REASON_STRING_SIZE));
  std::vector<char*> names;
  for (auto& t : text) names.push_back(t.data());
  reason_index_.assign(count, 0);
  auto get = sized<CUpti_PCSamplingGetStallReasonsParams>();
  get.ctx = ctx_;
  get.numStallReasons = count;
  get.stallReasonIndex = reason_index_.data();
  get.stallReasons = names.data();
  cupti_check(api_, api_.PcGetStallReasons(&get), "cuptiPCSamplingGetStallReasons", where);
  for (const auto& t : text) reason_name_.push_back(short_reason(t.data()));

  config_buffer_ = std::make_unique<PcSamplingBuffer>(count);
  read_buffer_ = std::make_unique<PcSamplingBuffer>(count);
  CUpti_PCSamplingConfigurationInfo info[5]{};
  info[0].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_COLLECTION_MODE;
  info[0].attributeData.collectionModeData.collectionMode =
      CUPTI_PC_SAMPLING_COLLECTION_MODE_CONTINUOUS;
  info[1].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SAMPLING_PERIOD;
  info[1].attributeData.samplingPeriodData.samplingPeriod = std::uint32_t(period_log2_);
  info[2].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_ENABLE_START_STOP_CONTROL;
  info[2].attributeData.enableStartStopControlData.enableStartStopControl = 1;
  info[3].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SAMPLING_DATA_BUFFER;
  info[3].attributeData.samplingDataBufferData.samplingDataBuffer = &config_buffer_->data;
  info[4].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_OUTPUT_DATA_FORMAT;
  info[4].attributeData.outputDataFormatData.outputDataFormat =
      CUPTI_PC_SAMPLING_OUTPUT_DATA_FORMAT_PARSED;
  auto cfg = sized<CUpti_PCSamplingConfigurationInfoParams>();
  cfg.ctx = ctx_;
  cfg.numAttributes = 5;
  cfg.pPCSamplingConfigurationInfo = info;
  cupti_check(api_, api_.PcSetConfig(&cfg), "cuptiPCSamplingSetConfigurationAttribute", where);
  for (const auto& i : info)
    cupti_check(api_, i.attributeStatus, "cuptiPCSamplingSetConfigurationAttribute",
                where + ", attribute " + std::to_string(int(i.attributeType)));
}

// Reads what the last range left (GetData until it returns no PC) into `into`.
void PcSampler::drain(std::vector<SampledFunction>& into, const std::string& role,
                      std::uint64_t& dropped, const std::string& context) {
  std::map<std::string, std::map<std::uint64_t, std::map<std::string, std::uint64_t>>> found;
  for (int reads = 0; reads < 1000; ++reads) {
    read_buffer_->reset();
    auto get = sized<CUpti_PCSamplingGetDataParams>();
    get.ctx = ctx_;
    get.pcSamplingData = &read_buffer_->data;
    cupti_check(api_, api_.PcGetData(&get), "cuptiPCSamplingGetData", context);
    const CUpti_PCSamplingData& d = read_buffer_->data;
    dropped += d.droppedSamples;
    non_user_ += d.nonUsrKernelsTotalSamples;
    if (d.totalNumPcs == 0) break;
    for (std::size_t i = 0; i < d.totalNumPcs; ++i) {
      const CUpti_PCSamplingPCData& pc = d.pPcData[i];
      const std::string function = pc.functionName ? pc.functionName : "";
      const std::uint64_t offset = pc.pcOffset;  // a copy: the struct is packed
      for (std::size_t r = 0; r < pc.stallReasonCount; ++r) {
        const std::uint32_t index = pc.stallReason[r].pcSamplingStallReasonIndex;
        const auto at = std::find(reason_index_.begin(), reason_index_.end(), index);
        if (at == reason_index_.end()) continue;
        const std::string& name = reason_name_[std::size_t(at - reason_index_.begin())];
        if (!name.empty() && pc.stallReason[r].samples > 0)
          found[function][offset][name] += pc.stallReason[r].samples;
      }
    }
  }
  for (auto& [function, pcs] : found) {
    auto f = std::find_if(into.begin(), into.end(), [&](const SampledFunction& s) {
      return s.function == function && s.role == role;
    });
    if (f == into.end()) f = into.insert(into.end(), SampledFunction{role, function, {}});
    for (auto& [offset, reasons] : pcs) {
      auto p = std::find_if(f->pcs.begin(), f->pcs.end(),
                            [&](const SampledPc& s) { return s.offset == offset; });
      if (p == f->pcs.end()) p = f->pcs.insert(f->pcs.end(), SampledPc{offset, {}});
      for (auto& [name, n] : reasons) {
        auto r = std::find_if(p->reasons.begin(), p->reasons.end(),
                              [&](const auto& x) { return x.first == name; });
        if (r == p->reasons.end())
          p->reasons.emplace_back(name, n);
        else
          r->second += n;
      }
    }
  }
}

PcSampler::Taken PcSampler::sample(const std::string& role, const std::function<void()>& setup,
                                   const std::function<void()>& launch, std::uint64_t min_samples,
                                   int max_launches, const std::string& context) {
  Taken t;
  std::uint64_t taken = 0;
  while (t.launches < max_launches && taken < min_samples) {
    setup();
    auto start = sized<CUpti_PCSamplingStartParams>();
    start.ctx = ctx_;
    cupti_check(api_, api_.PcStart(&start), "cuptiPCSamplingStart", context);
    launch();
    auto stop = sized<CUpti_PCSamplingStopParams>();
    stop.ctx = ctx_;
    cupti_check(api_, api_.PcStop(&stop), "cuptiPCSamplingStop", context);
    ++t.launches;
    non_user_ = 0;
    drain(t.functions, role, t.dropped, context);
    t.non_user += non_user_;
    taken = 0;
    for (const SampledFunction& f : t.functions) taken += f.samples();
    if (taken == 0 && t.launches >= 3) break;  // CUPTI places nothing here: say so, not retry
  }
  for (SampledFunction& f : t.functions) {
    std::sort(f.pcs.begin(), f.pcs.end(),
              [](const SampledPc& a, const SampledPc& b) { return a.offset < b.offset; });
    for (SampledPc& p : f.pcs)
      std::stable_sort(p.reasons.begin(), p.reasons.end(),
                       [](const auto& a, const auto& b) { return a.second > b.second; });
  }
  return t;
}

}  // namespace rl
