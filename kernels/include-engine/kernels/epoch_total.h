// Where the epoch pass (kernels/modern_epoch.cu, modern_epoch.cuh) keeps its total, and how the
// host reads it: its scratch holds the epoch word (the latest launch's number + 1, in the high 32
// bits, written by the launch) and two accumulators used in turn, so the total of the latest
// launch is in accumulator (epoch - 1) % 2. Plain C++: the engine and the
// device code share these offsets.
#pragma once

#include <cstddef>
#include <cstdint>

namespace rl::kernels {

inline constexpr std::size_t kEpochWordOffset = 0;          // (latest launch + 1) << 32
inline constexpr std::size_t kEpochTotals = 128;            // accumulator 0, then accumulator 1
inline constexpr int kEpochWindows = 32;                    // float32: 32 exponent windows
inline constexpr int kEpochTotalWords = kEpochWindows + 1;  // + NaN / +inf / -inf counts
inline constexpr std::size_t kEpochTotalStride = 384;       // 33 words in three lines
inline constexpr std::size_t kEpochScratchBytes = kEpochTotals + 2 * kEpochTotalStride;
// int32's accumulator is this one word of each accumulator (byte 128 of it: scratch offsets 256
// and 640), where float32's window 16 lies. In word 0 (offsets 128 and 512) int32 took 0.4-1.6
// us longer at 2^22 with 1024-2048 block slots in one wave, and float32 did too when its windows
// were moved there (ncu on the H200).
inline constexpr int kEpochInt32Word = 16;

// The latest launch's total from a copy of the scratch's first kEpochScratchBytes bytes.
// float32: the windows added as doubles in a fixed order and rounded once; NaN when a NaN or
// both infinities were summed, the infinity when one was.
long long epoch_total_int32(const unsigned char* scratch);
float epoch_total_float32(const unsigned char* scratch);

}  // namespace rl::kernels
