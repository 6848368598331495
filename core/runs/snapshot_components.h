#pragma once
// The components of a snapshot's allocated peak, by the rules of issue 23 (docs/measured-runs.md),
// applied to each allocation alive at the peak, first rule that holds:
//   1. optimizer_states: made under torch/optim's `_init_group`, or `zeros_like` under torch/optim;
//   2. gradients: made by AccumulateGrad;
//   3. gradients: made in backward and alive into the optimizer step;
//   4. parameters: alive from before the first forward to the end of the trace;
//   5. activations: made in forward and alive into backward;
//   6. temporary: made in a known phase and freed within the trace (the rest);
//   else unknown (made before the trace began, or where no phase is known).
// An allocation is an `alloc` entry up to its `free_completed`, a `free_completed` with no
// `alloc` (made before the trace), or a block alive at the end with no `alloc` (the same).
// A component whose rules need what the snapshot lacks (phases, stacks) is null; framework is
// always null (nothing in a snapshot tells a framework's buffers apart).

#include "parsed.h"
#include "runs/run_source.h"
#include "runs/snapshot_phases.h"
#include "runs/snapshot_trace.h"

#include <array>
#include <cstddef>
#include <optional>
#include <vector>

namespace vramplan {

struct SnapshotComponents
{
    std::array<std::optional<int64_t>, runComponentCount> bytes;
    int64_t unknownBytes = 0;     // the peak less what the rules placed
    std::vector<RuleShare> rules; // every rule that placed bytes, and unknown
};

// The components of the allocations alive at state `peakState` (see SnapshotReplay), whose
// allocated bytes are `peakAllocated`.
Parsed<SnapshotComponents> componentsAtPeak(const SnapshotTrace &trace, const StepPhases &phases,
                                            FrameFacts &facts, std::size_t peakState,
                                            int64_t peakAllocated);

} // namespace vramplan
