#pragma once
// The end of an estimate (internal to the top level of core/): from the items of a stage, the
// totals of each phase, the peak and its phase, the caching allocator's slack, what lies outside
// the allocator (CUDA context, NCCL), the fit against the GPU's capacity (estimate_peak.cpp).

#include "estimate.h"

namespace vramplan {

// Fills e.phases, e.peak, e.perGpu, the framework items, the fit and its warnings from e.items;
// fragmentedBytes: blocks freed before the loss gradient that stay reserved from then on.
void finishEstimate(Estimate &e, const Scenario &s, double fragmentedBytes);

} // namespace vramplan
