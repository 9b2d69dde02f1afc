// `variants` and `devices`: what scripts read from them.
#include <gtest/gtest.h>

#include <sstream>

#include "cli_process.h"
#include "engine/catalog/catalog.h"

namespace rl::testing {
namespace {

std::string first_word(const std::string& line) {
  std::istringstream in(line);
  std::string w;
  in >> w;
  return w;
}

TEST(CliVariants, ListsEveryCatalogIdFirstInOrder) {
  const CliResult r = run_cli({"variants"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto lines = lines_of(r.out);
  ASSERT_EQ(lines.size(), catalog().size()) << r.out;
  for (std::size_t i = 0; i < lines.size(); ++i) EXPECT_EQ(first_word(lines[i]), catalog()[i].id);
}

TEST(CliVariants, ClassicNameFollowsTheId) {
  const CliResult r = run_cli({"variants"});
  for (const auto& line : lines_of(r.out)) {
    std::istringstream in(line);
    std::string id, seed;
    in >> id >> seed;
    const VariantInfo* v = find_variant_by_id(id);
    ASSERT_NE(v, nullptr) << line;
    if (v->seed_name.empty())
      EXPECT_EQ(seed, "-") << line;
    else
      EXPECT_EQ(seed.rfind(v->seed_name, 0), 0u) << line;  // "reduceUnroll{U}" for unroll
  }
}

TEST(CliDevices, PrintsTheGpusOrWhyNoneAndTheHost) {
  const CliResult r = run_cli({"devices"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.out.find("cuda:0") != std::string::npos ||
              r.out.find("no GPU: ") != std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("\ncpu "), std::string::npos) << r.out;
}

// A row naming the columns when asked (and on a terminal); scripts reading a pipe keep ids only.
TEST(CliVariants, HeaderRowNamesTheColumns) {
  const CliResult r = run_cli({"variants", "--header", "yes"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto lines = lines_of(r.out);
  ASSERT_EQ(lines.size(), catalog().size() + 1) << r.out;
  for (const char* column : {"id", "classic", "family", "workspaces", "B=", "U=", "name"})
    EXPECT_NE(lines[0].find(column), std::string::npos) << column << ": " << lines[0];
  EXPECT_EQ(first_word(lines[1]), catalog()[0].id);
  // The columns line up: each id starts where the header's "id" does, and the header's
  // "family" where the rows' family column starts.
  EXPECT_EQ(lines[0].find("family"), lines[1].find("classic")) << lines[0] << "\n" << lines[1];
  EXPECT_EQ(run_cli({"variants", "--header", "maybe"}).exit_code, 2);
}

}  // namespace
}  // namespace rl::testing
