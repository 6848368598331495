#include "runs/snapshot_phases.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <limits>
#include <map>

namespace vramplan {

std::string_view stepPhaseKey(StepPhase p)
{
    static constexpr std::string_view keys[] = {"", "forward", "backward", "optimizer_step"};
    return keys[static_cast<int>(p)];
}

uint8_t FrameFacts::of(const std::optional<DataValue> &frames)
{
    if (!frames)
        return 0;
    if (doc_.kind(*frames) != DataKind::List)
        return Recorded;
    const auto cached = cache_.find(frames->bits());
    if (cached != cache_.end())
        return cached->second;
    uint8_t facts = Recorded;
    bool zerosLike = false, any = false;
    doc_.forEachItem(*frames, [&](DataValue frame) {
        any = true;
        const auto nameValue = doc_.find(frame, "name");
        const auto fileValue = doc_.find(frame, "filename");
        const std::string_view name = nameValue ? doc_.string(*nameValue).value_or("") : "";
        const std::string_view file = fileValue ? doc_.string(*fileValue).value_or("") : "";
        const auto has = [](std::string_view text, std::string_view part) {
            return text.find(part) != std::string_view::npos;
        };
        if (name == "backward" || has(name, "Backward") || has(name, "autograd::Engine"))
            facts |= InBackward;
        if (has(name, "AccumulateGrad"))
            facts |= AccumulateGrad | InBackward;
        if ((has(file, "torch/optim/") || has(file, "torch\\optim\\")) && name != "zero_grad") {
            facts |= InOptimizer;
            if (name == "_init_group")
                facts |= OptimizerInit;
        }
        zerosLike = zerosLike || has(name, "zeros_like");
        if (name == "forward" || (has(file, "torch/nn/modules/module.py") &&
                                  (name == "_call_impl" || name == "_wrapped_call_impl")))
            facts |= InForward;
    });
    if (zerosLike && (facts & InOptimizer))
        facts |= OptimizerInit;
    if (!any)
        facts |= EmptyStack;
    cache_.emplace(frames->bits(), facts);
    return facts;
}

std::size_t StepPhases::nextIn(StepPhase phase, std::size_t index) const
{
    const std::size_t from = index + 1;
    auto it = std::upper_bound(runs.begin(), runs.end(), from,
                               [](std::size_t i, const auto &run) { return i < run.first; });
    if (it != runs.begin())
        --it;
    for (; it != runs.end(); ++it)
        if (it->second == phase)
            return std::max(it->first, from);
    return ofEntry.size();
}

namespace {

StepPhase phaseOfFacts(uint8_t facts, StepPhase previous)
{
    if (facts & InOptimizer)
        return StepPhase::Optimizer;
    if (facts & InBackward)
        return StepPhase::Backward;
    if (facts & InForward)
        return StepPhase::Forward;
    if ((facts & EmptyStack) && (previous == StepPhase::Forward || previous == StepPhase::Backward))
        return StepPhase::Backward;
    return StepPhase::Unknown;
}

StepPhase phaseOfAnnotation(std::string_view name)
{
    std::string lower(name.substr(0, 200));
    for (char &c : lower)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    if (lower.find("zero_grad") != std::string::npos)
        return StepPhase::Unknown;
    if (lower.find("optimizer.step") != std::string::npos ||
        lower.find("optimizer_step") != std::string::npos)
        return StepPhase::Optimizer;
    if (lower.find("backward") != std::string::npos)
        return StepPhase::Backward;
    if (lower.find("forward") != std::string::npos)
        return StepPhase::Forward;
    return StepPhase::Unknown;
}

// The record_function ranges of the phases, as sorted starts and ends per phase.
struct PhaseRanges
{
    std::array<std::vector<int64_t>, 4> starts, ends;
    bool any = false;

    // Whether a range of `phase` holds time t.
    bool holds(StepPhase phase, int64_t t) const
    {
        const auto &s = starts[int(phase)], &e = ends[int(phase)];
        const auto begun = std::upper_bound(s.begin(), s.end(), t) - s.begin();
        const auto ended = std::lower_bound(e.begin(), e.end(), t) - e.begin();
        return begun > ended;
    }
};

std::string readRanges(const SnapshotTrace &trace, PhaseRanges &ranges)
{
    const DataDoc &doc = *trace.doc;
    std::string error;
    std::map<std::string, std::vector<int64_t>, std::less<>> open; // name -> start times
    std::map<std::string, StepPhase, std::less<>> phaseOfName;
    std::size_t index = 0;
    doc.forEachItem(*trace.annotations, [&](DataValue a) {
        const std::string where = "external_annotations[" + std::to_string(index++) + "]";
        const auto name = doc.find(a, "name");
        const auto nameText = name ? doc.string(*name) : std::nullopt;
        if (doc.kind(a) != DataKind::Dict || !nameText) {
            error = where + ": expected a dict with a name, got " + doc.describe(a);
            return false;
        }
        const StepPhase phase = phaseOfAnnotation(*nameText);
        const auto device = doc.find(a, "device");
        if (phase == StepPhase::Unknown ||
            (device && doc.integer(*device) && *doc.integer(*device) != trace.device))
            return true;
        const auto stage = doc.find(a, "stage");
        const auto time = doc.find(a, "time_us");
        const auto stageText = stage ? doc.string(*stage) : std::nullopt;
        if (!stageText || (*stageText != "START" && *stageText != "END")) {
            error = where + ".stage: must be START or END";
            return false;
        }
        if (!time || !doc.integer(*time)) {
            error = where + ".time_us: must be a whole number";
            return false;
        }
        const int64_t t = doc.integer(*time).value_or(0);
        auto &starts = open[std::string(*nameText)];
        phaseOfName[std::string(*nameText)] = phase;
        if (*stageText == "START") {
            starts.push_back(t);
        } else if (!starts.empty()) {
            ranges.starts[int(phase)].push_back(starts.back());
            ranges.ends[int(phase)].push_back(t);
            starts.pop_back();
            ranges.any = true;
        }
        return true;
    });
    for (const auto &[name, starts] : open)
        for (int64_t s : starts) { // still open when the snapshot was taken
            ranges.starts[int(phaseOfName[name])].push_back(s);
            ranges.ends[int(phaseOfName[name])].push_back(std::numeric_limits<int64_t>::max());
            ranges.any = true;
        }
    for (int p = 0; p < 4; ++p) {
        std::sort(ranges.starts[p].begin(), ranges.starts[p].end());
        std::sort(ranges.ends[p].begin(), ranges.ends[p].end());
    }
    return error;
}

} // namespace

Parsed<StepPhases> stepPhases(const SnapshotTrace &trace, FrameFacts &facts)
{
    StepPhases phases;
    PhaseRanges ranges;
    if (trace.annotations)
        if (std::string error = readRanges(trace, ranges); !error.empty())
            return Parsed<StepPhases>::fail(error);
    phases.ofEntry.reserve(trace.entries);
    std::size_t byAnnotation = 0, byFrames = 0;
    StepPhase previous = StepPhase::Unknown;
    const std::string error = trace.forEachEntry([&](std::size_t, const TraceEntry &e) {
        StepPhase phase = StepPhase::Unknown;
        if (ranges.any && e.timeUs) {
            for (StepPhase p : {StepPhase::Optimizer, StepPhase::Backward, StepPhase::Forward})
                if (phase == StepPhase::Unknown && ranges.holds(p, *e.timeUs))
                    phase = p;
            byAnnotation += phase != StepPhase::Unknown;
        }
        if (phase == StepPhase::Unknown &&
            (e.action == TraceAction::Alloc || e.action == TraceAction::SegmentAlloc)) {
            phase = phaseOfFacts(facts.of(e.frames), previous);
            byFrames += phase != StepPhase::Unknown;
        }
        if (phase == StepPhase::Unknown)
            phase = previous;
        if (phase == StepPhase::Forward && phases.firstForward < 0)
            phases.firstForward = int64_t(phases.ofEntry.size());
        if (phases.runs.empty() || phases.runs.back().second != phase)
            phases.runs.emplace_back(phases.ofEntry.size(), phase);
        phases.ofEntry.push_back(phase);
        previous = phase;
    });
    if (!error.empty())
        return Parsed<StepPhases>::fail(error);
    phases.source = byAnnotation && byFrames ? "annotations and frames"
                    : byAnnotation           ? "annotations"
                    : byFrames               ? "frames"
                                             : "none";
    return Parsed<StepPhases>::ok(std::move(phases));
}

} // namespace vramplan
