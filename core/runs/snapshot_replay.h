#pragma once
// Allocated and reserved memory through a snapshot's trace (SPEC §3 "Measured runs"), replayed
// from the final state back: the state after the last entry is the snapshot's segments; going
// back over an entry undoes it (an `alloc` takes its size off allocated, a `free_completed`
// gives it back; a `segment_alloc` or `segment_map` takes its size off reserved, a
// `segment_free` or `segment_unmap` gives it back). A trace that lost its oldest entries (the
// ring buffer of `max_entries`) therefore still gives the right figures for what it holds. The
// replay runs forward from the state before the first entry, which the backward sum gives, so
// that no entry is held in memory.

#include "parsed.h"
#include "runs/run_source.h"
#include "runs/snapshot_trace.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace vramplan {

struct SnapshotReplay
{
    // Over the states the trace holds (before its first entry, after each); empty without a
    // trace, where only the final state is known.
    std::optional<int64_t> peakAllocated, peakReserved;
    std::size_t peakState = 0; // 0: before the first entry; k: after entry k-1 (first maximum)
    int64_t startAllocated = 0, startReserved = 0; // before the first entry
    bool timeFromTrace = false;     // t_us from the entries' time_us (else the state's index)
    int64_t timeOriginUs = 0;       // time_us of the first entry
    std::vector<RunPoint> timeline; // at most maxPoints: the largest of each bucket of states
};

// Fails where an entry is malformed, or where the replay would go below zero (a trace that does
// not belong to the final segments).
Parsed<SnapshotReplay> replaySnapshot(const SnapshotTrace &trace,
                                      std::size_t maxPoints = maxTimelinePoints);

} // namespace vramplan
