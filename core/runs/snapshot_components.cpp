#include "runs/snapshot_components.h"

#include <algorithm>
#include <unordered_map>

namespace vramplan {

namespace {

enum Rule
{
    OptimizerInitRule,
    AccumulateGradRule,
    GradientLifetimeRule,
    ParameterLifetimeRule,
    ActivationLifetimeRule,
    TemporaryRule,
    NoRule,
    ruleCount
};

struct RuleText
{
    RunComponent component;
    const char *text;
};
constexpr RuleText rules[ruleCount] = {
    {RunComponent::OptimizerStates, "made under torch/optim _init_group (or zeros_like there)"},
    {RunComponent::Gradients, "made by AccumulateGrad"},
    {RunComponent::Gradients, "made in backward and alive into the optimizer step"},
    {RunComponent::Parameters, "alive from before the first forward to the end"},
    {RunComponent::Activations, "made in forward and alive into backward"},
    {RunComponent::Temporary, "made and freed within the trace (no other rule)"},
    {RunComponent::Unknown, "no rule applies (made before the trace began, or in no known phase)"}};

struct Allocation
{
    int64_t birth = -1; // its alloc entry; -1: made before the trace
    int64_t size = 0;
    uint8_t facts = 0;
    StepPhase phase = StepPhase::Unknown;
    bool atPeak = false;
};

class Classifier
{
public:
    Classifier(const StepPhases &phases, std::size_t entries) : phases_(phases), n_(entries) {}

    // `death`: the free_completed entry, or -1 for alive at the end of the trace.
    Rule rule(const Allocation &a, int64_t death) const
    {
        const bool alive = death < 0;
        if (a.facts & OptimizerInit)
            return OptimizerInitRule;
        if (a.facts & AccumulateGrad)
            return AccumulateGradRule;
        if (a.birth >= 0 && a.phase == StepPhase::Backward &&
            reaches(StepPhase::Optimizer, a.birth, death))
            return GradientLifetimeRule;
        if (phases_.firstForward >= 0 && a.birth < phases_.firstForward && alive)
            return ParameterLifetimeRule;
        if (a.birth >= 0 && a.phase == StepPhase::Forward &&
            reaches(StepPhase::Backward, a.birth, death))
            return ActivationLifetimeRule;
        if (a.birth >= 0 && a.phase != StepPhase::Unknown && !alive)
            return TemporaryRule;
        return NoRule;
    }

private:
    // Whether an allocation made at entry `birth` is alive when `phase` next begins: before or
    // at the entry that frees it (that entry already happens in the phase).
    bool reaches(StepPhase phase, int64_t birth, int64_t death) const
    {
        const std::size_t next = phases_.nextIn(phase, std::size_t(birth));
        return death < 0 ? next < n_ : next <= std::size_t(death);
    }

    const StepPhases &phases_;
    std::size_t n_;
};

} // namespace

Parsed<SnapshotComponents> componentsAtPeak(const SnapshotTrace &trace, const StepPhases &phases,
                                            FrameFacts &facts, std::size_t peakState,
                                            int64_t peakAllocated)
{
    const Classifier classifier(phases, trace.entries);
    int64_t bytes[ruleCount] = {}, count[ruleCount] = {};
    bool framesRecorded = false;
    const auto place = [&](Rule r, int64_t size) { // saturating: a malformed file may overflow
        if (__builtin_add_overflow(bytes[r], size, &bytes[r]))
            bytes[r] = INT64_MAX;
        ++count[r];
    };
    const auto noteFacts = [&](uint8_t f) {
        framesRecorded = framesRecorded || ((f & Recorded) && !(f & EmptyStack));
    };
    std::unordered_map<uint64_t, Allocation> open;
    const auto markPeak = [&] {
        for (auto &entry : open)
            entry.second.atPeak = true;
    };
    // Forward through the trace: which allocations are alive at the peak, and how they end.
    const std::string error = trace.forEachEntry([&](std::size_t i, const TraceEntry &e) {
        if (i == peakState)
            markPeak();
        if (e.action == TraceAction::Alloc) {
            const uint8_t f = facts.of(e.frames);
            noteFacts(f);
            open[e.addr] = Allocation{int64_t(i), e.size, f, phases.ofEntry[i], false};
        } else if (e.action == TraceAction::FreeCompleted) {
            const auto it = open.find(e.addr);
            if (it != open.end()) {
                if (it->second.atPeak)
                    place(classifier.rule(it->second, int64_t(i)), it->second.size);
                open.erase(it);
            } else if (i >= peakState) { // made before the trace, alive until here
                place(NoRule, e.size);
            }
        }
    });
    if (!error.empty())
        return Parsed<SnapshotComponents>::fail(error);
    if (peakState >= trace.entries)
        markPeak();
    for (const auto &entry : open)
        if (entry.second.atPeak)
            place(classifier.rule(entry.second, -1), entry.second.size);
    // Blocks alive at the end that no alloc entry made: made before the trace, alive throughout.
    for (const LiveBlock &block : trace.liveBlocks) {
        if (open.count(block.address))
            continue;
        Allocation a;
        a.size = block.bytes;
        a.facts = facts.of(block.frames);
        noteFacts(a.facts);
        place(classifier.rule(a, -1), a.size);
    }

    SnapshotComponents out;
    const bool phased = phases.source != "none";
    const bool forward = phases.firstForward >= 0;
    bool evaluable[runComponentCount] = {};
    evaluable[int(RunComponent::Parameters)] = forward;
    evaluable[int(RunComponent::Gradients)] = framesRecorded || phased;
    evaluable[int(RunComponent::OptimizerStates)] = framesRecorded;
    evaluable[int(RunComponent::Activations)] = forward;
    evaluable[int(RunComponent::Temporary)] = phased;
    int64_t placed = 0;
    for (int r = 0; r < NoRule; ++r) {
        const int c = int(rules[r].component);
        if (bytes[r] > 0 || evaluable[c])
            out.bytes[c] = std::min(INT64_MAX - bytes[r], out.bytes[c].value_or(0)) + bytes[r];
        placed = std::min(INT64_MAX - bytes[r], placed) + bytes[r];
        if (bytes[r] > 0)
            out.rules.push_back({rules[r].component, rules[r].text, bytes[r], count[r]});
    }
    out.unknownBytes = std::max<int64_t>(0, peakAllocated - placed);
    if (out.unknownBytes > 0 || count[NoRule] > 0)
        out.rules.push_back(
            {RunComponent::Unknown, rules[NoRule].text, out.unknownBytes, count[NoRule]});
    return Parsed<SnapshotComponents>::ok(std::move(out));
}

} // namespace vramplan
