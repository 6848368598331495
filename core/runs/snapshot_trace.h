#pragma once
// One device of a torch memory snapshot (`torch.cuda.memory._snapshot()`, as
// `_dump_snapshot` pickles it or as JSON): its final state from `segments` and its history from
// `device_traces[device]`, read field by field with errors that name the field
// ("device_traces[0][12].size: must be a whole number >= 0, got -5").
//
// Sizes are requested sizes throughout: the allocator's record_trace writes a block's
// `requested_size` into every alloc and free entry (c10/cuda/CUDACachingAllocator.cpp), so the
// final blocks count by their `requested_size` too (their `size` where a snapshot has none), as
// PyTorch's own viewer (MemoryViz.js) does. Keys newer releases add (`time_us`,
// `allocator_settings`, `external_annotations`, `user_metadata`, `segment_map`/`segment_unmap`)
// are optional; keys nobody reads are ignored.

#include "parsed.h"
#include "runs/data_doc.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace vramplan {

enum class TraceAction : uint8_t
{
    Alloc,
    FreeRequested,
    FreeCompleted,
    SegmentAlloc,
    SegmentFree,
    SegmentMap,
    SegmentUnmap,
    Other // snapshot, oom, annotate, and actions of later releases: no change in memory
};

struct TraceEntry
{
    TraceAction action = TraceAction::Other;
    uint64_t addr = 0;
    int64_t size = 0;
    std::optional<int64_t> timeUs;
    std::optional<DataValue> frames; // the entry's stack, where it was recorded
};

// A block allocated (or waiting to be freed) when the snapshot was taken.
struct LiveBlock
{
    uint64_t address = 0;
    int64_t bytes = 0;
    std::optional<DataValue> frames;
};

class SnapshotTrace
{
public:
    // The device's part of a snapshot; fails naming the field where the snapshot is malformed,
    // or when the snapshot has nothing of the device.
    static Parsed<SnapshotTrace> open(const DataDoc &doc, int device);

    const DataDoc *doc = nullptr;
    int device = 0;
    std::size_t entries = 0;  // in device_traces[device] (0 without a history)
    int64_t endAllocated = 0; // requested bytes of the live blocks
    int64_t endReserved = 0;  // total_size of the device's segments
    std::vector<LiveBlock> liveBlocks;
    std::optional<DataValue> annotations; // external_annotations

    // f(index, entry) for each trace entry, oldest first; the error naming the first bad
    // entry, or "" when all were read.
    template <typename F> std::string forEachEntry(F &&f) const;

private:
    std::optional<DataValue> trace_;
    std::string readEntry(std::size_t index, DataValue entry, TraceEntry &out) const;
    // What a key or an action string means, by the value's identity: a snapshot's keys and
    // actions are a few shared strings, compared by text once, then by identity (the analysis
    // reads every entry several times). At most 64 of each are remembered.
    uint8_t fieldOf(DataValue key) const;
    TraceAction actionOf(DataValue action) const;
    mutable std::vector<std::pair<uint64_t, uint8_t>> fields_;
    mutable std::vector<std::pair<uint64_t, uint8_t>> actions_;
};

template <typename F> std::string SnapshotTrace::forEachEntry(F &&f) const
{
    std::string error;
    if (!trace_)
        return error;
    std::size_t index = 0;
    TraceEntry entry;
    doc->forEachItem(*trace_, [&](DataValue v) {
        error = readEntry(index, v, entry);
        if (!error.empty())
            return false;
        f(index++, entry);
        return true;
    });
    return error;
}

} // namespace vramplan
