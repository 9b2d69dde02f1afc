#include "run_outputs.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "cli.h"
#include "engine/io/export.h"
#include "engine/io/input_file.h"

namespace rlcli {

namespace {

bool given(const CLI::Option* o) {
  return o && o->count() > 0;
}

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

constexpr const char* kCheckpointTail = ".checkpoint.json";

Output plan_file(std::string_view flag, const std::string& path, bool streaming) {
  if (path == "-")
    throw UsageError(std::string(flag) +
                     (streaming ? " -: stdout carries the --stream lines; give a file name"
                                : " -: the table goes to stdout; give a file name"));
  return plan_output(flag, path);
}

bool is_file(const std::optional<Output>& o) {
  return o && o->target.kind == rl::OutputTarget::Kind::File;
}

// The points a session file holds, or "" when it cannot be read as one.
std::string points_in(const std::string& path) {
  try {
    const rl::Session s = rl::session_from_json(rl::read_text_file(path, rl::kMaxSessionFileBytes));
    return std::to_string(s.results.size()) + " finished point" +
           (s.results.size() == 1 ? "" : "s");
  } catch (const std::exception&) {
    return "";
  }
}

}  // namespace

std::string checkpoint_path(const std::string& json_path) {
  const std::string base =
      ends_with(json_path, ".json") ? json_path.substr(0, json_path.size() - 5) : json_path;
  return base + kCheckpointTail;
}

std::string resumed_output_path(const std::string& resume_path) {
  if (!ends_with(resume_path, kCheckpointTail) || resume_path.size() == 16) return resume_path;
  return resume_path.substr(0, resume_path.size() - 16) + ".json";
}

RunOutputs::RunOutputs(const RunArgs& a, const rl::Session* resumed) {
  const bool streaming = given(a.o_stream);
  if (given(a.o_csv)) {
    csv_ = plan_file("--csv", a.csv, streaming);
    // A device, FIFO or stdout takes the summary; the samples need a file of their own.
    if (is_file(csv_)) {
      samples_ = plan_file("--csv", samples_path(a.csv), streaming);
      samples_->role = "its raw samples";
    }
  }
  if (given(a.o_json))
    json_ = plan_file("--json", a.json, streaming);
  else if (given(a.o_resume))  // --resume FILE: FILE (or the file FILE was kept for) is written
    json_ = plan_file("--resume", resumed_output_path(a.resume), streaming);
  if (is_file(json_)) {
    checkpoint_ = plan_file(json_->flag, checkpoint_path(json_->target.name), streaming);
    checkpoint_->role = "its checkpoint";
  }
  std::vector<const Output*> all;
  for (const std::optional<Output>* o : {&csv_, &samples_, &json_, &checkpoint_})
    if (*o) all.push_back(&**o);
  std::vector<std::pair<std::string, std::string>> inputs;
  if (given(a.o_spec) && a.spec_file != "-") inputs.emplace_back("--spec", a.spec_file);
  // With --stream, stdout carries the stream: nothing else may be written there.
  if (streaming)
    for (const Output* o : all)
      if (o->target.kind == rl::OutputTarget::Kind::Fd && o->target.fd == 1)
        throw UsageError(o->flag + " " + o->target.name +
                         ": stdout carries the --stream lines; give a file name");
  check_distinct(all, inputs);
  lock_all();
  const bool resuming_checkpoint =
      checkpoint_ && given(a.o_resume) && rl::output_is_file(checkpoint_->target, a.resume);
  if (resuming_checkpoint && resumed) checkpoint_points_ = resumed->results.size();
  // Looked at once the lock is held: a run that ended since the plan has removed its own.
  struct stat st {};
  if (checkpoint_ && !resuming_checkpoint && lstat(checkpoint_->target.path.c_str(), &st) == 0)
    refuse_stale_checkpoint();
  if (given(a.o_resume) && ends_with(a.resume, kCheckpointTail) && !resuming_checkpoint)
    resumed_checkpoint_ = a.resume;
  remove_stale_temporaries(locks_);
}

void RunOutputs::lock_all() {
  std::vector<const Output*> files;
  for (const std::optional<Output>* o : {&csv_, &samples_, &json_, &checkpoint_})
    if (is_file(*o)) files.push_back(&**o);
  locks_ = lock_outputs(files, "reductionlab-cli run");
}

void RunOutputs::refuse_stale_checkpoint() const {
  const std::string& name = checkpoint_->target.name;
  const std::string held = points_in(checkpoint_->target.path);
  throw UsageError(json_->flag + " " + json_->target.name + ": " + name +
                   " holds the checkpoint of a run that did not finish" +
                   (held.empty() ? "" : " (" + held + ")") + "; `reductionlab-cli run --resume " +
                   name + "` finishes it, or remove it to start afresh");
}

bool RunOutputs::write(const rl::Session& s) const {
  return write_texts(json_ ? rl::session_to_json(s) : "", csv_ ? rl::summary_csv(s) : "",
                     samples_ ? rl::samples_csv(s.results) : "", s.results.size());
}

bool RunOutputs::write_multi(const rl::MultiSession& s) const {
  return write_texts(json_ ? rl::multi_session_to_json(s) : "",
                     csv_ ? rl::multi_summary_csv(s) : "", samples_ ? rl::multi_samples_csv(s) : "",
                     std::nullopt);
}

bool RunOutputs::write_texts(const std::string& json, const std::string& csv,
                             const std::string& samples, std::optional<std::size_t> points) const {
  // The JSON first: it holds every point and sample, so on a disk with room for one file only,
  // that one is the whole session.
  std::vector<std::pair<const Output*, std::string>> items;
  if (json_) items.emplace_back(&*json_, json);
  if (csv_) items.emplace_back(&*csv_, csv);
  if (samples_) items.emplace_back(&*samples_, samples);
  if (csv_ && !samples_)
    std::fprintf(stderr,
                 "reductionlab-cli: --csv %s is not a regular file: the raw samples are not "
                 "written (give --csv a file name for FILE.samples.csv)\n",
                 csv_->target.name.c_str());
  const std::vector<bool> written = write_each(items);
  bool ok = true;
  for (const bool w : written) ok = ok && w;
  // "wrote" lines go to stderr with the other notes: stdout holds the table (or the stream, or
  // a file written to /dev/stdout), which a script may read whole.
  const bool json_written = json_ && written[0];
  if (json_written) std::fprintf(stderr, "wrote %s\n", json_->target.name.c_str());
  std::size_t i = json_ ? 1 : 0;
  if (csv_) {
    const bool csv_written = written[i++];
    const bool samples_written = samples_ && written[i++];
    if (csv_written && samples_written)
      std::fprintf(stderr, "wrote %s and %s\n", csv_->target.name.c_str(),
                   samples_->target.name.c_str());
    else if (csv_written)
      std::fprintf(stderr, "wrote %s\n", csv_->target.name.c_str());
  }
  if (checkpoint_ && points) settle_checkpoint(json_written, json, *points);
  return ok;
}

void RunOutputs::settle_checkpoint(bool json_written, const std::string& json,
                                   std::size_t points) const {
  const rl::OutputTarget& t = checkpoint_->target;
  if (json_written) {
    // Its points are in the file written now.
    for (const std::string& path : {t.path, resumed_checkpoint_})
      if (!path.empty() && ::unlink(path.c_str()) != 0 && errno != ENOENT)
        std::fprintf(stderr, "reductionlab-cli: cannot remove the checkpoint %s: %s\n",
                     path.c_str(), std::strerror(errno));
    return;
  }
  const std::string finish =
      "`reductionlab-cli run --resume " + t.name + "` writes " + json_->target.name + " from it";
  try {
    // In place: on a full disk the old checkpoint's own blocks are most of the room there is.
    rl::write_output_in_place(t, json);
    std::fprintf(stderr, "reductionlab-cli: the session (%zu points) is in %s instead; %s\n",
                 points, t.name.c_str(), finish.c_str());
  } catch (const rl::OutputError& e) {
    std::fprintf(stderr, "reductionlab-cli: %s (its checkpoint): %s\n", checkpoint_->flag.c_str(),
                 e.what());
    if (checkpoint_points_ > 0)
      std::fprintf(stderr,
                   "reductionlab-cli: %s holds %zu of the %zu finished points (its last "
                   "checkpoint); %s\n",
                   t.name.c_str(), checkpoint_points_, points, finish.c_str());
    else
      std::fprintf(stderr,
                   "reductionlab-cli: no checkpoint could be written either: the %zu finished "
                   "points are in no file\n",
                   points);
  }
}

void RunOutputs::checkpoint(const rl::Session& s) {
  if (!checkpoint_) return;
  using Clock = std::chrono::steady_clock;
  const Clock::time_point start = Clock::now();
  if (next_checkpoint_ && start < *next_checkpoint_) return;
  rl::Session partial = s;
  partial.cancelled = true;  // not finished: `run --resume` finishes it
  try {
    rl::write_output(checkpoint_->target, rl::session_to_json(partial));
    checkpoint_points_ = s.results.size();
  } catch (const rl::OutputError& e) {
    if (!checkpoint_failure_said_)
      std::fprintf(stderr,
                   "reductionlab-cli: %s (its checkpoint): %s (the run goes on, trying again; "
                   "the file is written at the end)\n",
                   checkpoint_->flag.c_str(), e.what());
    checkpoint_failure_said_ = true;
  }
  // The next one after nine times this one's cost: checkpoints take at most a tenth of the run.
  const Clock::time_point end = Clock::now();
  next_checkpoint_ = end + 9 * (end - start);
}

}  // namespace rlcli
