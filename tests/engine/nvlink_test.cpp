// The links between GPUs as the driver's NVML names them: the NVLink roof from
// (links, version) as pure functions, discovery through a fake libnvidia-ml (fake_nvml.cpp,
// opened with dlopen as the real one is) for each machine it plays, the text every front end
// prints, and the links in and out of JSON (multi-GPU sessions, `devices --json`).
#include <gtest/gtest.h>

#include <filesystem>

#include <cstdlib>

#include "engine/io/export.h"
#include "engine/multi_fixtures.h"
#include "engine/process/stream.h"
#include "engine/report/link_text.h"
#include "multi/nvlink_discovery.h"
#include "multi/nvml_api.h"

namespace rl {
namespace {

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Both directions of each pair of the fake's GPUs (the PCI bus ids as CUDA spells them).
std::vector<GpuBusId> fake_gpus(int count) {
  const char* bus[] = {"0000:1B:00.0", "0000:43:00.0", "0000:9A:00.0"};
  std::vector<GpuBusId> out;
  for (int i = 0; i < count; ++i) out.push_back({i, bus[i]});
  return out;
}

std::vector<PeerLink> pairs(int count) {
  std::vector<PeerLink> out;
  for (int a = 0; a < count; ++a)
    for (int b = 0; b < count; ++b)
      if (a != b) out.push_back(PeerLink{a, b, true, 0, true, 0});
  return out;
}

// The fake library: where the build put it, else beside this binary (the GPU machine gets the
// test binaries copied into one folder, without the build tree).
std::string fake_nvml() {
  if (std::filesystem::exists(RL_FAKE_NVML_LIBRARY)) return RL_FAKE_NVML_LIBRARY;
  return (std::filesystem::read_symlink("/proc/self/exe").parent_path() /
          std::filesystem::path(RL_FAKE_NVML_LIBRARY).filename())
      .string();
}

// Discovery on the fake machine `machine` (fake_nvml.cpp) with `count` GPUs.
std::vector<PeerLink> on_fake(const char* machine, int count) {
  setenv("RL_FAKE_NVML", machine, 1);
  const nvml::Loaded lib = nvml::load({fake_nvml()});
  EXPECT_TRUE(lib.ok()) << lib.error;
  std::vector<PeerLink> links = pairs(count);
  add_nvlinks(links, fake_gpus(count), lib);
  return links;
}

TEST(NvLink, NvmlVersionsAreAnEnumNotTheVersionNumber) {
  EXPECT_EQ(nvlink_version_name(6), "4.0");  // H100, H200
  EXPECT_EQ(nvlink_version_name(4), "3.0");
  EXPECT_EQ(nvlink_version_name(5), "3.1");
  EXPECT_EQ(nvlink_version_name(7), "5.0");
  EXPECT_EQ(nvlink_version_name(0), "");  // NVML_NVLINK_VERSION_INVALID
  EXPECT_EQ(nvlink_version_name(42), "");
  EXPECT_EQ(nvlink_name("4.0"), "NVLink 4");
  EXPECT_EQ(nvlink_name("3.1"), "NVLink 3.1");
  EXPECT_EQ(nvlink_name(""), "NVLink (version unknown)");
}

TEST(NvLink, TheRoofIsLinksTimesThePerLinkRatePerDirection) {
  EXPECT_EQ(nvlink_gbps_per_link("4.0"), 25);
  EXPECT_EQ(nvlink_roof_gbps(18, "4.0"), 450);  // H200 pair: 900 GB/s both ways together
  EXPECT_EQ(nvlink_roof_gbps(12, "3.0"), 300);  // A100
  EXPECT_EQ(nvlink_roof_gbps(6, "2.0"), 150);   // V100
  EXPECT_EQ(nvlink_roof_gbps(18, "5.0"), 900);  // B200
  EXPECT_EQ(nvlink_roof_gbps(0, "4.0"), 0);
  EXPECT_EQ(nvlink_roof_gbps(4, "2.2"), 0);  // no rate this build can cite: unknown
  EXPECT_EQ(nvlink_roof_gbps(4, "3.1"), 0);  // answered by GPUs of two rates: unknown
  EXPECT_EQ(nvlink_roof_gbps(4, ""), 0);
}

TEST(NvLink, PciBusIdsOfCudaAndNvmlMatch) {
  const auto cuda = parse_pci_bus_id("0000:1B:00.0"), nvml = parse_pci_bus_id("00000000:1b:00.0");
  ASSERT_TRUE(cuda && nvml);
  EXPECT_EQ(*cuda, *nvml);
  EXPECT_EQ(parse_pci_bus_id("1b:00.0")->bus, 0x1bu);
  EXPECT_FALSE(parse_pci_bus_id(""));
  EXPECT_FALSE(parse_pci_bus_id("cuda:0"));
  EXPECT_FALSE(parse_pci_bus_id("0000:1B:00.0 trailing"));
}

TEST(NvLink, NoLibrarySaysWhyAndNamesNoLinkKind) {
  const nvml::Loaded lib = nvml::load({"/nonexistent/libnvidia-ml.so.1"});
  ASSERT_FALSE(lib.ok());
  std::vector<PeerLink> links = pairs(2);
  add_nvlinks(links, fake_gpus(2), lib);
  for (const PeerLink& l : links) {
    EXPECT_EQ(l.nvlinks, 0);
    EXPECT_TRUE(has(l.link_source, "NVML unavailable: /nonexistent/libnvidia-ml.so.1: "))
        << l.link_source;
    EXPECT_TRUE(has(l.link_source, "ships with the NVIDIA driver")) << l.link_source;
    EXPECT_EQ(link_kind_text(l).rfind("link kind unknown: NVML unavailable", 0), 0u);
  }
  std::string why;
  EXPECT_EQ(nvlink_roof(links, &why), 0);
  EXPECT_TRUE(has(why, "unknown: NVML unavailable")) << why;
}

// The loader's reasons: a missing file named once (dlerror's own copy of the name dropped); a
// file that loads but is no NVML (the C library) with every required function it lacks.
TEST(NvLink, LoaderSaysWhyEachFileCannotBeUsed) {
  const std::string gone = "/nonexistent/libnvidia-ml.so.1";
  const nvml::Loaded none = nvml::load({gone});
  EXPECT_EQ(none.error.rfind(gone + ": ", 0), 0u) << none.error;
  EXPECT_EQ(none.error.find(gone, 1), std::string::npos) << none.error;
  const nvml::Loaded libc = nvml::load({"libc.so.6"});
  ASSERT_FALSE(libc.ok());
  EXPECT_EQ(libc.error,
            "libc.so.6: has no nvmlInit_v2, nvmlShutdown, nvmlErrorString, "
            "nvmlDeviceGetHandleByPciBusId_v2, nvmlDeviceGetNvLinkState, "
            "nvmlDeviceGetNvLinkVersion, nvmlDeviceGetNvLinkRemotePciInfo_v2 (the driver's NVML "
            "is older than this build needs) (NVML ships with the NVIDIA driver)");
  EXPECT_EQ(libc.api.Init_v2, nullptr);  // nothing left pointing into the closed file
  EXPECT_EQ(libc.library, "");
}

TEST(NvLink, InitFailureIsSaidForEveryLink) {
  for (const PeerLink& l : on_fake("init_fail", 2)) {
    EXPECT_EQ(l.link_source, "NVML unavailable: nvmlInit_v2 failed: Driver Not Loaded (code 9)");
    EXPECT_EQ(l.nvlinks, 0);
    EXPECT_FALSE(l.nvml_answered());
  }
}

TEST(NvLink, TwoGpusJoinedByEighteenActiveLinks) {
  const std::vector<PeerLink> links = on_fake("direct18", 2);
  ASSERT_EQ(links.size(), 2u);
  for (const PeerLink& l : links) {
    EXPECT_EQ(l.link_source, "NVML");
    EXPECT_EQ(l.nvlinks, 18);
    EXPECT_FALSE(l.nvswitch);
    EXPECT_EQ(l.nvlink_version, "4.0");
    EXPECT_EQ(l.nvlink_gbps, 450);
    EXPECT_EQ(link_kind_text(l), "NVLink 4 x18 (450 GB/s per direction, NVML)");
  }
  std::string why;
  EXPECT_EQ(nvlink_roof(links, &why), 450);
}

TEST(NvLink, ThroughNvSwitchThePairGetsTheLinksBothHaveToTheSwitches) {
  for (const PeerLink& l : on_fake("switch18", 2)) {
    EXPECT_EQ(l.nvlinks, 18);
    EXPECT_TRUE(l.nvswitch);
    EXPECT_EQ(link_kind_text(l), "NVLink 4 x18 through NVSwitch (450 GB/s per direction, NVML)");
  }
}

TEST(NvLink, APairWithoutNvLinkSaysSoAndHasNoRoof) {
  const std::vector<PeerLink> links = on_fake("mixed", 3);
  ASSERT_EQ(links.size(), 6u);
  for (const PeerLink& l : links) {
    EXPECT_EQ(l.link_source, "NVML");
    const bool joined = (l.from == 0 && l.to == 1) || (l.from == 1 && l.to == 0);
    EXPECT_EQ(l.nvlinks, joined ? 18 : 0) << l.from << " -> " << l.to;
    if (!joined) EXPECT_EQ(link_kind_text(l), "no NVLink (NVML)");
  }
  std::string why;
  EXPECT_EQ(nvlink_roof(links, &why), 0);
  EXPECT_EQ(why, "no NVLink joins cuda:0 <-> cuda:2 (NVML)");
}

TEST(NvLink, AFarEndNvmlDoesNotNameIsNotCalledNoNvLink) {
  for (const PeerLink& l : on_fake("unnamed", 2)) {
    EXPECT_EQ(l.nvlinks, 0);
    EXPECT_FALSE(l.nvml_answered());
    EXPECT_TRUE(has(link_kind_text(l), "link unknown")) << link_kind_text(l);
  }
}

TEST(NvLink, AGpuNvmlDoesNotKnowIsNamedWithTheCall) {
  setenv("RL_FAKE_NVML", "direct18", 1);
  const nvml::Loaded lib = nvml::load({fake_nvml()});
  std::vector<PeerLink> links = pairs(2);
  add_nvlinks(links, {{0, "0000:1B:00.0"}, {1, "0000:77:00.0"}}, lib);
  EXPECT_EQ(links[0].link_source,
            "NVML: nvmlDeviceGetHandleByPciBusId_v2 for cuda:1 (PCI 0000:77:00.0): Not Found "
            "(code 6)");
}

TEST(NvLink, OneLinePerPairWithBothDirections) {
  MultiSession s = testing::make_multi_session();
  const std::vector<std::string> lines = link_lines(s.links);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0],
            "cuda:0 <-> cuda:1: NVLink 4 x18 (450 GB/s per direction, NVML), P2P yes, performance "
            "rank 0, native atomics, measured peer copy 100.0 GB/s (0 -> 1), 99.50 GB/s (1 -> 0)");
  s.links[1].access = false;
  s.links[0].link_source.clear();
  EXPECT_TRUE(has(link_lines(s.links)[0], "not recorded")) << link_lines(s.links)[0];
  EXPECT_TRUE(has(link_lines(s.links)[0], "P2P 0 -> 1 yes, 1 -> 0 no")) << link_lines(s.links)[0];
}

TEST(NvLink, LinksRoundTripThroughASessionAndAnOlderFileReadsAsNotAsked) {
  const MultiSession s = testing::make_multi_session();
  const MultiSession back = multi_session_from_json(multi_session_to_json(s));
  ASSERT_EQ(back.links.size(), 2u);
  EXPECT_EQ(back.links[0].nvlinks, 18);
  EXPECT_EQ(back.links[0].nvlink_version, "4.0");
  EXPECT_EQ(back.links[0].nvlink_gbps, 450);
  EXPECT_EQ(back.links[0].link_source, "NVML");
  // A file from before NVML was asked: the same link without the NVLink fields.
  std::string json = multi_session_to_json(s, -1);
  for (const char* field : {",\"nvlinks\":18", ",\"nvswitch\":false", ",\"nvlink_version\":\"4.0\"",
                            ",\"nvlink_gbps\":450.0", ",\"link_source\":\"NVML\""})
    for (std::size_t at; (at = json.find(field)) != std::string::npos;)
      json.erase(at, std::string(field).size());
  const MultiSession old = multi_session_from_json(json);
  EXPECT_EQ(old.links[0].link_source, "");
  EXPECT_EQ(old.links[0].measured_gbps, 100.0);
  EXPECT_TRUE(has(link_kind_text(old.links[0]), "not recorded"));
  std::string bad = multi_session_to_json(s, -1);
  bad.replace(bad.find("\"nvlinks\":18"), 12, "\"nvlinks\":-3");
  EXPECT_THROW(multi_session_from_json(bad), Error);
}

TEST(NvLink, DevicesJsonCarriesTheLinks) {
  Discovery d;
  d.host.name = "Some CPU";
  d.links = testing::make_multi_session().links;
  const std::string line = stream_devices_line(d);
  EXPECT_TRUE(has(line, "\"schema_version\":\"" + stream_version() + "\"")) << line;
  StreamReader reader;
  ASSERT_EQ(reader.feed(line), StreamEvent::Devices);
  ASSERT_EQ(reader.discovery()->links.size(), 2u);
  EXPECT_EQ(reader.discovery()->links[1].nvlink_gbps, 450);
  EXPECT_EQ(reader.discovery()->links[1].measured_gbps, 99.5);
  // A 1.0 CLI sends no links: none, not an error.
  std::string old = line.substr(0, line.find(",\"links\"")) + "}";
  old.replace(old.find(stream_version()), stream_version().size(), "1.0");
  StreamReader older;
  ASSERT_EQ(older.feed(old), StreamEvent::Devices);
  EXPECT_TRUE(older.discovery()->links.empty());
}

}  // namespace
}  // namespace rl
