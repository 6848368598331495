#include "runs/snapshot_replay.h"

#include <algorithm>

namespace vramplan {

namespace {

// What an entry does to allocated and reserved memory, going forward.
void effect(const TraceEntry &e, int64_t &allocated, int64_t &reserved)
{
    allocated = reserved = 0;
    switch (e.action) {
    case TraceAction::Alloc:
        allocated = e.size;
        break;
    case TraceAction::FreeCompleted:
        allocated = -e.size;
        break;
    case TraceAction::SegmentAlloc:
    case TraceAction::SegmentMap:
        reserved = e.size;
        break;
    case TraceAction::SegmentFree:
    case TraceAction::SegmentUnmap:
        reserved = -e.size;
        break;
    default: // free_requested: the block stays allocated until free_completed
        break;
    }
}

} // namespace

Parsed<SnapshotReplay> replaySnapshot(const SnapshotTrace &trace, std::size_t maxPoints)
{
    using Result = Parsed<SnapshotReplay>;
    SnapshotReplay r;
    const std::size_t n = trace.entries;
    if (n == 0) {
        r.startAllocated = trace.endAllocated;
        r.startReserved = trace.endReserved;
        r.timeline.push_back({0, trace.endAllocated, trace.endReserved, std::nullopt});
        return Result::ok(std::move(r));
    }
    // Pass 1: the whole trace's change, hence the state before its first entry. (Its partial
    // sums are differences of real states; past 2^63 the file is not a real trace.)
    int64_t allocatedChange = 0, reservedChange = 0;
    bool allTimed = true, overflow = false;
    std::string error = trace.forEachEntry([&](std::size_t i, const TraceEntry &e) {
        int64_t a = 0, b = 0;
        effect(e, a, b);
        overflow = __builtin_add_overflow(allocatedChange, a, &allocatedChange) || overflow;
        overflow = __builtin_add_overflow(reservedChange, b, &reservedChange) || overflow;
        allTimed = allTimed && e.timeUs.has_value();
        if (i == 0 && e.timeUs)
            r.timeOriginUs = *e.timeUs;
    });
    if (!error.empty())
        return Result::fail(error);
    const std::string where = "device_traces[" + std::to_string(trace.device) + "]";
    if (overflow ||
        __builtin_sub_overflow(trace.endAllocated, allocatedChange, &r.startAllocated) ||
        __builtin_sub_overflow(trace.endReserved, reservedChange, &r.startReserved))
        return Result::fail(where + ": the sizes in the trace add up past 2^63 bytes");
    if (r.startAllocated < 0 || r.startReserved < 0)
        return Result::fail(where + ": replayed back from the final segments, " +
                            (r.startAllocated < 0 ? "allocated" : "reserved") +
                            " memory would be below zero before the first entry: the trace "
                            "does not match the segments");
    r.timeFromTrace = allTimed;

    // Pass 2: forward through the states, the maxima, and the timeline in buckets.
    const std::size_t states = n + 1;
    const std::size_t bucket = std::max<std::size_t>(1, (states + maxPoints - 1) / maxPoints);
    int64_t allocated = r.startAllocated, reserved = r.startReserved;
    int64_t peakA = allocated, peakR = reserved;
    RunPoint current{0, allocated, reserved, std::nullopt};
    std::size_t inBucket = 1;
    std::string below;
    const auto timeOf = [&](std::size_t state, const TraceEntry &e) {
        return allTimed ? *e.timeUs - r.timeOriginUs : int64_t(state);
    };
    error = trace.forEachEntry([&](std::size_t i, const TraceEntry &e) {
        int64_t a = 0, b = 0;
        effect(e, a, b);
        const bool past = __builtin_add_overflow(allocated, a, &allocated) |
                          __builtin_add_overflow(reserved, b, &reserved);
        if ((past || allocated < 0 || reserved < 0) && below.empty())
            below = "device_traces[" + std::to_string(trace.device) + "][" + std::to_string(i) +
                    "]: replayed from the final segments, " +
                    (allocated < 0 ? "allocated" : "reserved") +
                    " memory would be below zero (or past 2^63) here: the trace does not match "
                    "the segments";
        const std::size_t state = i + 1;
        if (allocated > peakA) {
            peakA = allocated;
            r.peakState = state;
        }
        peakR = std::max(peakR, reserved);
        if (inBucket == bucket) { // the bucket is full: keep its largest moment
            r.timeline.push_back(current);
            current = RunPoint{timeOf(state, e), allocated, reserved, std::nullopt};
            inBucket = 0;
        } else if (allocated > *current.allocated) {
            current.tUs = timeOf(state, e);
            current.allocated = allocated;
        }
        current.reserved = std::max(*current.reserved, reserved);
        ++inBucket;
    });
    if (!error.empty() || !below.empty())
        return Result::fail(error.empty() ? below : error);
    r.timeline.push_back(current);
    r.peakAllocated = peakA;
    r.peakReserved = peakR;
    return Result::ok(std::move(r));
}

} // namespace vramplan
