// The host's reading of the epoch pass's total (kernels/epoch_total.h): which accumulator holds
// the latest launch's total, and how float32's exponent windows become one float.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "kernels/epoch_total.h"

namespace rl {
namespace {

using namespace kernels;

// A copy of the scratch after `launches` launches, accumulator (launches - 1) % 2 holding
// `words`, the other one garbage (it is zeroed by the next launch, never read).
std::vector<unsigned char> scratch_after(unsigned launches, const std::vector<long long>& words) {
  std::vector<unsigned char> s(kEpochScratchBytes, 0xab);
  const unsigned long long word = static_cast<unsigned long long>(launches) << 32;
  std::memcpy(s.data() + kEpochWordOffset, &word, sizeof word);
  unsigned char* total = s.data() + kEpochTotals + kEpochTotalStride * ((launches - 1) & 1u);
  std::memset(total, 0, kEpochTotalWords * 8);
  for (std::size_t k = 0; k < words.size(); ++k) std::memcpy(total + 8 * k, &words[k], 8);
  return s;
}

// int32's words in an accumulator: its total in word kEpochInt32Word, zeros below it.
std::vector<long long> int32_words(long long total) {
  std::vector<long long> w(kEpochInt32Word + 1, 0);
  w[kEpochInt32Word] = total;
  return w;
}

TEST(EpochTotal, TheLatestLaunchsAccumulatorHoldsTheTotal) {
  EXPECT_EQ(epoch_total_int32(scratch_after(1, int32_words(123456789012)).data()), 123456789012);
  EXPECT_EQ(epoch_total_int32(scratch_after(2, int32_words(42)).data()), 42);
  // The epoch wraps at 2^32 launches without changing which accumulator is which.
  EXPECT_EQ(epoch_total_int32(scratch_after(0, int32_words(7)).data()), 7);
}

TEST(EpochTotal, Int32ReadsOnlyItsOwnWord) {
  // Word 0 is float32's window 0, never int32's: whatever it holds is not read.
  std::vector<long long> w = int32_words(5);
  w[0] = 99;
  EXPECT_EQ(epoch_total_int32(scratch_after(3, w).data()), 5);
}

TEST(EpochTotal, Float32WindowsAddUpToTheRoundedExactSum) {
  // Window k holds integers in units of 2^(8k - 149): 3 * 2^(8*19 - 149) = 24 in window 19,
  // -2^2 * 2^(8*18 - 149) = -1/8 in window 18.
  std::vector<long long> w(kEpochTotalWords, 0);
  w[19] = 3;
  w[18] = -4;
  EXPECT_EQ(epoch_total_float32(scratch_after(5, w).data()), 24.0f - 0.125f);
  // One window's sum past 2^24 rounds once, to nearest.
  std::vector<long long> big(kEpochTotalWords, 0);
  big[18] = (1ll << 40) + 1;  // 2^40 + 1 units of 2^-5: 2^35 + 2^-5
  EXPECT_EQ(epoch_total_float32(scratch_after(6, big).data()), std::ldexp(1.0f, 35));
}

// A window may hold more than a double holds exactly (2^19 block entries below 2^43 each): the
// reader carries each window's high bits into the next before it converts. Here 2^56 + 1 units
// of 2^-149 in window 0 and -1 unit of 2^(8*7 - 149) = -2^56 units in window 7 leave 2^-149,
// which a conversion of 2^56 + 1 to double would lose (it rounds to 2^56: a total of 0).
TEST(EpochTotal, Float32WindowsPastADoublesPrecisionAreCarriedFirst) {
  std::vector<long long> w(kEpochTotalWords, 0);
  w[0] = (1ll << 56) + 1;
  w[7] = -1;
  EXPECT_EQ(epoch_total_float32(scratch_after(4, w).data()), std::ldexp(1.0f, -149));
  // Negative windows carry too: -(2^56) - 3 units of 2^-149 and +1 unit of 2^-93 leave -3.
  w[0] = -(1ll << 56) - 3;
  w[7] = 1;
  EXPECT_EQ(epoch_total_float32(scratch_after(4, w).data()), -3 * std::ldexp(1.0f, -149));
}

TEST(EpochTotal, Float32SpecialsFollowIeeeAddition) {
  auto with_special = [](unsigned nan, unsigned pinf, unsigned ninf) {
    std::vector<long long> w(kEpochTotalWords, 0);
    w[19] = 5;
    w[kEpochWindows] =
        static_cast<long long>(nan | (pinf << 16) | (static_cast<unsigned long long>(ninf) << 32));
    return epoch_total_float32(scratch_after(3, w).data());
  };
  EXPECT_EQ(with_special(0, 0, 0), 40.0f);
  EXPECT_EQ(with_special(0, 2, 0), INFINITY);
  EXPECT_EQ(with_special(0, 0, 1), -INFINITY);
  EXPECT_TRUE(std::isnan(with_special(0, 1, 1)));
  EXPECT_TRUE(std::isnan(with_special(1, 0, 0)));
}

}  // namespace
}  // namespace rl
