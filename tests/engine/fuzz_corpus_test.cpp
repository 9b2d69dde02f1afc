// The fuzz targets' checked-in corpus files (fuzz/corpus/) through the real readers of the
// normal build: each file is read or refused with rl::Error and a message, never a crash; the
// copies of real files (recorded sessions, a documented spec) are read, and the hostile ones
// (named hostile-*: small malformed files, huge sizes, deep nesting) are refused. scripts/fuzz.sh
// grows these corpora under libFuzzer; fuzz/replay.cmake runs the targets' own checks over them.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <vector>

#include "engine/core/error.h"
#include "engine/io/export.h"

namespace rl {
namespace {

namespace fs = std::filesystem;

fs::path corpus(const std::string& target) {
  return fs::path(__FILE__).parent_path().parent_path().parent_path() / "fuzz/corpus" / target;
}

std::vector<fs::path> files_of(const fs::path& dir) {
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_regular_file()) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// "" when read, else the reader's message (which must not be empty).
std::string refusal(const std::function<void(const std::string&)>& read, const fs::path& file) {
  try {
    read(slurp(file));
  } catch (const Error& e) {
    EXPECT_STRNE(e.what(), "") << file;
    return e.what();
  }
  return "";
}

void check_corpus(const std::string& target, const std::function<void(const std::string&)>& read) {
  const std::vector<fs::path> files = files_of(corpus(target));
  ASSERT_GE(files.size(), 4u) << corpus(target);
  for (const fs::path& f : files) {
    const std::string why = refusal(read, f);
    const bool hostile = f.filename().string().rfind("hostile-", 0) == 0;
    if (hostile)
      EXPECT_NE(why, "") << f << " was read; a hostile-* seed is one the reader refuses";
    else
      EXPECT_EQ(why, "") << f << ": " << why;
  }
}

TEST(FuzzCorpus, SessionSeedsAreReadOrRefusedWithAMessage) {
  check_corpus("session_reader_fuzz", [](const std::string& t) { session_from_json(t); });
}

TEST(FuzzCorpus, SpecSeedsAreReadOrRefusedWithAMessage) {
  // A spec that reads is then validated as the CLI does (hostile-huge-size reads, and is
  // refused here: sizes past 2^40).
  check_corpus("spec_reader_fuzz", [](const std::string& t) {
    const ExperimentSpec s = spec_from_json(t);
    for (const std::string& e : validate(s, nullptr))
      if (e.rfind("size ", 0) == 0) throw Error(e);
  });
}

}  // namespace
}  // namespace rl
