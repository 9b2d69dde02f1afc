#include "run_outputs.h"

#include <cstdio>

#include "cli.h"
#include "engine/io/export.h"

namespace rlcli {

namespace {

bool given(const CLI::Option* o) {
  return o && o->count() > 0;
}

Output plan_file(std::string_view flag, const std::string& path, bool streaming) {
  if (path == "-")
    throw UsageError(std::string(flag) +
                     (streaming ? " -: stdout carries the --stream lines; give a file name"
                                : " -: the table goes to stdout; give a file name"));
  return plan_output(flag, path);
}

}  // namespace

RunOutputs::RunOutputs(const RunArgs& a) {
  if (given(a.o_csv)) {
    csv_ = plan_file("--csv", a.csv, given(a.o_stream));
    // A device, FIFO or stdout takes the summary; the samples need a file of their own.
    if (csv_->target.kind == rl::OutputTarget::Kind::File) {
      samples_ = plan_file("--csv", samples_path(a.csv), given(a.o_stream));
      samples_->role = "its raw samples";
    }
  }
  if (given(a.o_json))
    json_ = plan_file("--json", a.json, given(a.o_stream));
  else if (given(a.o_resume))  // --resume FILE: FILE is finished in place
    json_ = plan_file("--resume", a.resume, given(a.o_stream));
  std::vector<const Output*> all;
  for (const std::optional<Output>* o : {&csv_, &samples_, &json_})
    if (*o) all.push_back(&**o);
  std::vector<std::pair<std::string, std::string>> inputs;
  if (given(a.o_spec) && a.spec_file != "-") inputs.emplace_back("--spec", a.spec_file);
  // With --stream, stdout carries the stream: nothing else may be written there.
  if (given(a.o_stream)) {
    said_ = stderr;
    for (const Output* o : all)
      if (o->target.kind == rl::OutputTarget::Kind::Fd && o->target.fd == 1)
        throw UsageError(o->flag + " " + o->target.name +
                         ": stdout carries the --stream lines; give a file name");
  }
  check_distinct(all, inputs);
}

bool RunOutputs::write(const rl::Session& s) const {
  return write_texts(json_ ? rl::session_to_json(s) : "", csv_ ? rl::summary_csv(s.results) : "",
                     samples_ ? rl::samples_csv(s.results) : "");
}

bool RunOutputs::write_multi(const rl::MultiSession& s) const {
  return write_texts(json_ ? rl::multi_session_to_json(s) : "",
                     csv_ ? rl::multi_summary_csv(s) : "",
                     samples_ ? rl::multi_samples_csv(s) : "");
}

bool RunOutputs::write_texts(const std::string& json, const std::string& csv,
                             const std::string& samples) const {
  std::vector<std::pair<const Output*, std::string>> items;
  if (csv_) items.emplace_back(&*csv_, csv);
  if (samples_) items.emplace_back(&*samples_, samples);
  if (json_) items.emplace_back(&*json_, json);
  if (csv_ && !samples_)
    std::fprintf(stderr,
                 "reductionlab-cli: --csv %s is not a regular file: the raw samples are not "
                 "written (give --csv a file name for FILE.samples.csv)\n",
                 csv_->target.name.c_str());
  if (!write_outputs(items)) return false;
  if (csv_ && samples_)
    std::fprintf(said_, "wrote %s and %s\n", csv_->target.name.c_str(),
                 samples_->target.name.c_str());
  else if (csv_)
    std::fprintf(said_, "wrote %s\n", csv_->target.name.c_str());
  if (json_) std::fprintf(said_, "wrote %s\n", json_->target.name.c_str());
  return true;
}

void RunOutputs::checkpoint(const rl::Session& s) {
  if (!json_ || json_->target.kind != rl::OutputTarget::Kind::File || checkpoint_failed_) return;
  const auto now = std::chrono::steady_clock::now();
  if (last_checkpoint_ && now - *last_checkpoint_ < std::chrono::seconds(1)) return;
  last_checkpoint_ = now;
  rl::Session partial = s;
  partial.cancelled = true;  // not finished: `run --resume` finishes it
  try {
    rl::write_output(json_->target, rl::session_to_json(partial));
  } catch (const rl::OutputError& e) {
    checkpoint_failed_ = true;
    std::fprintf(stderr,
                 "reductionlab-cli: %s: checkpoint: %s (the run goes on; the file is written at "
                 "the end)\n",
                 json_->flag.c_str(), e.what());
  }
}

}  // namespace rlcli
