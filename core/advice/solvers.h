#pragma once
// Questions answered by searching over estimates: the largest micro-batch that fits, the
// fewest GPUs that fit a parallel layout.

#include "scenario.h"

#include <cstdint>

namespace vramplan {

// Largest micro-batch size whose peak fits the GPU (0 when even 1 does not fit). Memory never
// falls as the micro-batch grows, so a binary search is exact.
int64_t maxMicroBatchSize(const Scenario &scenario);

// Largest sequence length that fits, in steps of `granularity` tokens (0 when none fits).
int64_t maxSequenceLength(const Scenario &scenario, int64_t granularity = 256);

// Fewest GPUs (a multiple of tensor x pipeline x context parallel) with which the scenario fits,
// or 0 when none up to 2^20 does. Returns the data-parallel layout unchanged otherwise.
int64_t minGpuCount(const Scenario &scenario);

} // namespace vramplan
