#pragma once
// Which part of a training step each trace entry of a snapshot happened in: forward, backward
// or the optimizer step. From `record_function` ranges in `external_annotations` where the
// snapshot has them (names with "forward", "backward", "Optimizer.step"), else from the stack
// recorded with each allocation (its frames: `filename`, `name`, `line`):
//   - backward: a frame named `backward`, a C++ frame of the autograd engine or of a
//     `...Backward` node, or no frames at all after forward began (the engine's threads record
//     no Python frames);
//   - optimizer step: a frame in torch/optim/ (zero_grad excepted);
//   - forward: a frame named `forward`, or nn.Module's `_call_impl`.
// Only allocations' stacks are read (a free may carry its allocation's stack); an entry that
// says nothing takes the phase of the one before it.

#include "runs/data_doc.h"
#include "runs/snapshot_trace.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace vramplan {

enum class StepPhase : uint8_t
{
    Unknown,
    Forward,
    Backward,
    Optimizer
};
// The estimate's phase keys ("forward", "backward", "optimizer_step"); "" for Unknown.
std::string_view stepPhaseKey(StepPhase p);

// What a stack says, as bits.
enum FrameFact : uint8_t
{
    InForward = 1,
    InBackward = 2,
    InOptimizer = 4,
    OptimizerInit = 8, // torch/optim's _init_group, or zeros_like under torch/optim
    AccumulateGrad = 16,
    EmptyStack = 32, // frames recorded, none there
    Recorded = 64    // any frames key at all
};

// The facts of each frames list, computed once per list (snapshots share them).
class FrameFacts
{
public:
    explicit FrameFacts(const DataDoc &doc) : doc_(doc) {}
    uint8_t of(const std::optional<DataValue> &frames);

private:
    const DataDoc &doc_;
    std::unordered_map<uint64_t, uint8_t> cache_;
};

struct StepPhases
{
    std::vector<StepPhase> ofEntry;
    std::string source = "none"; // annotations, frames, annotations and frames, none
    int64_t firstForward = -1;   // the first entry in forward, -1: none
    // Runs of equal phase: (first entry, phase), for "the next entry in backward after i".
    std::vector<std::pair<std::size_t, StepPhase>> runs;
    // The first entry after `index` in `phase`, or ofEntry.size() when none.
    std::size_t nextIn(StepPhase phase, std::size_t index) const;
};

// The phases of every entry; fails where the trace or the annotations are malformed.
Parsed<StepPhases> stepPhases(const SnapshotTrace &trace, FrameFacts &facts);

} // namespace vramplan
