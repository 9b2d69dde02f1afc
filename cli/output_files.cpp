#include "output_files.h"

#include <cstdio>
#include <stdexcept>

#include "cli.h"
#include "engine/core/error.h"

namespace rlcli {

Output plan_output(std::string_view flag, const std::string& path) {
  if (path.empty()) throw UsageError(std::string(flag) + ": empty file name");
  try {
    return Output{std::string(flag), rl::plan_output(path), ""};
  } catch (const rl::Error& e) {
    throw UsageError(std::string(flag) + " " + e.what());
  }
}

void check_distinct(const std::vector<const Output*>& outputs,
                    const std::vector<std::pair<std::string, std::string>>& inputs) {
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    const Output& later = *outputs[i];
    for (std::size_t j = 0; j < i; ++j)
      if (rl::same_output(outputs[j]->target, later.target))
        throw UsageError(later.flag + " " + later.target.name + ": is also the file " +
                         outputs[j]->flag + " writes" +
                         (outputs[j]->role.empty() ? "" : " " + outputs[j]->role + " to") + " (" +
                         outputs[j]->target.name + "); give each output its own name");
    for (const auto& [flag, path] : inputs)
      if (rl::output_is_file(later.target, path))
        throw UsageError(later.flag + " " + later.target.name + ": is the file " + flag +
                         " reads (" + path + "); writing it would lose it; give another name");
  }
}

OutputLocks lock_outputs(const std::vector<const Output*>& outputs, std::string_view writer) {
  OutputLocks locks;
  for (const Output* o : outputs) {
    if (o->target.kind != rl::OutputTarget::Kind::File) continue;
    try {
      locks.push_back(std::make_unique<rl::OutputLock>(o->target, writer));
    } catch (const rl::Error& e) {
      throw UsageError(o->flag + " " + e.what());
    }
  }
  return locks;
}

void remove_stale_temporaries(const OutputLocks& locks) {
  for (const auto& lock : locks)
    for (const std::string& name : lock->remove_stale_temporaries())
      std::fprintf(stderr,
                   "reductionlab-cli: removed %s: a temporary file left by a run that ended "
                   "while writing\n",
                   name.c_str());
}

bool write_outputs(const std::vector<std::pair<const Output*, std::string>>& items) {
  for (const bool written : write_each(items))
    if (!written) return false;
  return true;
}

std::vector<bool> write_each(const std::vector<std::pair<const Output*, std::string>>& items) {
  std::string written, not_written;
  std::vector<bool> done;
  bool ok = true;
  for (const auto& [out, text] : items) {
    const rl::OutputTarget& t = out->target;
    const std::string name = rl::display_name(t);
    try {
      rl::write_output(t, text);
      written += (written.empty() ? "" : ", ") + name;
      done.push_back(true);
    } catch (const rl::OutputError& e) {
      ok = false;
      done.push_back(false);
      const std::string flag = out->role.empty() ? out->flag : out->flag + " (" + out->role + ")";
      std::fprintf(stderr, "reductionlab-cli: %s: %s\n", flag.c_str(), e.what());
      not_written += (not_written.empty() ? "" : ", ") + name + " (" +
                     rl::untouched_note(t, e.untouched()) + ")";
    }
  }
  // What became of every file, unless the one output was stdout (the line above said it all).
  const bool only_stdout =
      items.size() == 1 && items[0].first->target.kind == rl::OutputTarget::Kind::Fd;
  if (!ok && !only_stdout) {
    const std::string what = written.empty() ? "" : "written (new): " + written + "; ";
    std::fprintf(stderr, "reductionlab-cli: files: %snot written: %s\n", what.c_str(),
                 not_written.c_str());
  }
  return done;
}

void check_writable(std::string_view flag, const std::string& path) {
  if (path == "-")
    throw UsageError(std::string(flag) + " -: the table goes to stdout; give a file name");
  plan_output(flag, path);
}

void write_file_atomically(const std::string& path, std::string_view text) {
  const std::string error = rl::write_output_file(path, text);
  if (!error.empty()) throw std::runtime_error(error);
}

std::string samples_path(const std::string& csv_path) {
  std::string base = csv_path;
  if (base.size() > 4 && base.compare(base.size() - 4, 4, ".csv") == 0)
    base.resize(base.size() - 4);
  return base + ".samples.csv";
}

std::string read_file(std::string_view flag, const std::string& path, std::uint64_t max_bytes) {
  try {
    return rl::read_text_file(path, max_bytes);
  } catch (const rl::Error& e) {
    throw UsageError(std::string(flag) + " " + path + ": " + e.what());
  }
}

}  // namespace rlcli
