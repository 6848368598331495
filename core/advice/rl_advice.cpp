// "Make it fit" for RL plans (rl_advice.h): the knobs of the RL frameworks, each tried on a
// complete scenario re-estimated with estimate().

#include "advice/rl_advice.h"

#include "advice/rl_advice_knobs.h"
#include "advice/solvers.h"

#include "estimate.h"
#include "formats/estimate_json.h"
#include "formats/scenario_json.h"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <limits>
#include <optional>
#include <sstream>

namespace vramplan {
namespace {

using nlohmann::json;
using namespace rl_advice;

struct Search
{
    double capacity = 0;
    double peak = 0; // the scenario's own
    int64_t estimated = 0;
    const std::atomic<bool> *cancel = nullptr;

    bool cancelled() const { return cancel && cancel->load(std::memory_order_relaxed); }

    // The estimate of a candidate; a colocated engine that cannot start makes it unusable.
    std::optional<Estimate> run(const Scenario &s)
    {
        ++estimated;
        Estimate e = estimate(s);
        if (e.rl.present && !e.rl.engineStarts)
            return std::nullopt;
        return e;
    }
};

Suggestion suggestion(const Scenario &s, Changes changes, const Estimate &e, ChangeKind kind,
                      std::string cost)
{
    Suggestion out;
    out.scenario = s;
    out.changes = std::move(changes);
    out.peakDeviceBytes = e.peak.device;
    out.headroomBytes = e.headroomBytes;
    out.kind = kind;
    out.relativeStepTime = 0; // not priced for RL plans (rl_advice.h)
    out.costBasis = std::move(cost);
    out.withinBand = e.fits && fitsWithinBand(e.peak.device, e.capacityBytes);
    return out;
}

// A knob's best option: its most generous that fits, or else the one with the lowest peak;
// none where no option lowers the peak below `below`.
struct Pick
{
    const Option *option = nullptr;
    std::optional<Estimate> estimate;
};

Pick pick(Search &search, const Knob &knob, double below)
{
    Pick best;
    for (const Option &o : knob.options) {
        if (search.cancelled())
            return {};
        std::optional<Estimate> e = search.run(o.scenario);
        if (!e || !(e->peak.device < below))
            continue;
        if (e->fits)
            return {&o, std::move(e)};
        if (!best.estimate || e->peak.device < best.estimate->peak.device)
            best = {&o, std::move(e)};
    }
    return best;
}

void merge(Changes &into, const Changes &more)
{
    for (const auto &change : more) {
        auto it = std::find_if(into.begin(), into.end(),
                               [&](const auto &c) { return c.first == change.first; });
        if (it == into.end())
            into.push_back(change);
        else
            it->second = change.second;
    }
}

// The knobs of kinds up to `limit` together, cheapest first, each kept where it lowers the peak
// of what is kept so far, until the plan fits; then each kept knob, the costliest first, is
// dropped again where the plan fits without it. Null when fewer than two knobs lower the peak.
std::optional<Suggestion> combined(Search &search, const Scenario &scenario,
                                   const std::vector<Knob> &knobs, ChangeKind limit, bool hardware)
{
    struct Kept
    {
        Option option;
        const Knob *knob; // of `knobs`, for its kind and its cost
    };
    std::vector<Kept> kept;
    Scenario working = scenario;
    double peak = search.peak;
    bool fits = false;
    for (const Knob &knob : knobs) {
        if (fits || knob.kind > limit)
            continue;
        // The knob's options rebuilt on the working scenario (the changes so far kept).
        const std::vector<Knob> here = knobsOf(working, hardware);
        const auto it = std::find_if(here.begin(), here.end(),
                                     [&](const Knob &k) { return k.path == knob.path; });
        if (it == here.end())
            continue;
        Pick p = pick(search, *it, peak);
        if (search.cancelled())
            return std::nullopt;
        if (!p.option)
            continue;
        working = p.option->scenario;
        kept.push_back({*p.option, &knob});
        peak = p.estimate->peak.device;
        fits = p.estimate->fits;
    }
    if (kept.size() < 2)
        return std::nullopt;
    const auto applyAll = [&](size_t skip) {
        Scenario s = scenario;
        for (size_t i = 0; i < kept.size(); ++i)
            if (i != skip)
                kept[i].option.set(s);
        return s;
    };
    if (fits)
        for (size_t i = kept.size(); i-- > 0 && kept.size() > 1;) {
            const std::optional<Estimate> e = search.run(applyAll(i));
            if (e && e->fits)
                kept.erase(kept.begin() + std::ptrdiff_t(i));
        }
    const Scenario result = applyAll(kept.size());
    const std::optional<Estimate> e = search.run(result);
    if (!e)
        return std::nullopt;
    Changes changes;
    std::string cost;
    ChangeKind kind = ChangeKind::SameSemantics;
    for (const Kept &k : kept) {
        merge(changes, k.option.changes);
        cost += (cost.empty() ? "" : " ") + k.knob->cost(result, *e);
        kind = std::max(kind, k.knob->kind);
    }
    return suggestion(result, std::move(changes), *e, kind, std::move(cost));
}

// Fits, with a colocated engine that starts (its KV cache holds a request): what every answer
// here takes for fitting.
bool runs(const Estimate &e)
{
    return e.fits && (!e.rl.present || e.rl.engineStarts);
}

// The largest value in [1, most] with which `set` makes the scenario run (0: none does). Memory
// never falls as the micro-batch or the response grows (every phase's terms grow with them), so
// the search halves the interval.
int64_t largestRunning(const Scenario &scenario, int64_t most,
                       const std::function<void(Scenario &, int64_t)> &set)
{
    int64_t lo = 0, hi = most;
    while (lo < hi) {
        const int64_t mid = (lo + hi + 1) / 2;
        Scenario s = scenario;
        set(s, mid);
        if (runs(estimate(s)))
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

} // namespace

Advice adviseRl(const Scenario &scenario, const AdviceOptions &options)
{
    Advice out;
    Search search;
    search.cancel = options.cancel;
    const Estimate own = estimate(scenario);
    search.capacity = own.capacityBytes;
    // An engine that cannot start has no real peak: any candidate whose engine starts beats it.
    search.peak = own.rl.present && !own.rl.engineStarts
                      ? std::numeric_limits<double>::infinity()
                      : own.peak.device;
    out.fitsNow = own.fits && (!own.rl.present || own.rl.engineStarts);
    // The solvers' answers, with an engine that starts; the sequence is the RL one, prompt +
    // the longest response (in steps of 256 tokens), and the engine's start does not depend on
    // the trainer GPUs.
    out.maxMicroBatch = largestRunning(scenario, int64_t(1) << 16,
                                       [](Scenario &s, int64_t b) { s.training.microBatchSize = b; });
    const int64_t steps = largestRunning(
        scenario, ((int64_t(1) << 24) - scenario.rl.promptTokens) / 256,
        [](Scenario &s, int64_t n) { s.rl.responseTokens = n * 256; });
    out.maxSequence = steps > 0 ? scenario.rl.promptTokens + steps * 256 : 0;
    out.minGpus = own.rl.present && !own.rl.engineStarts ? 0 : minGpuCount(scenario);
    // A plan that fits is left as it is: every knob here trades time or method for memory.
    if (out.fitsNow)
        return out;
    const std::vector<Knob> knobs = knobsOf(scenario, options.hardware);

    // Each knob alone.
    std::vector<Suggestion> fits;
    for (const Knob &knob : knobs) {
        Pick p = pick(search, knob, search.peak);
        if (search.cancelled())
            break;
        if (!p.option)
            continue;
        Suggestion sg = suggestion(p.option->scenario, p.option->changes, *p.estimate, knob.kind,
                                   knob.cost(p.option->scenario, *p.estimate));
        if (p.estimate->fits)
            fits.push_back(std::move(sg));
        else if (!out.hasNearest || sg.headroomBytes > out.nearest.headroomBytes) {
            out.hasNearest = true;
            out.nearest = std::move(sg);
        }
    }
    // When none fits alone: the knobs together, first those that keep the training (same
    // semantics), then the method's too, then the hardware's; each pass only where no
    // suggestion of its kinds fits yet.
    for (ChangeKind limit : {ChangeKind::SameSemantics, ChangeKind::Method, ChangeKind::Hardware}) {
        if (search.cancelled() ||
            std::any_of(fits.begin(), fits.end(), [&](const Suggestion &f) { return f.kind <= limit; }))
            continue;
        std::optional<Suggestion> together = combined(search, scenario, knobs, limit, options.hardware);
        if (!together)
            continue;
        const bool seen = std::any_of(fits.begin(), fits.end(), [&](const Suggestion &f) {
            return f.changes == together->changes;
        });
        if (together->headroomBytes >= 0 && !seen)
            fits.push_back(std::move(*together));
        else if (together->headroomBytes < 0 &&
                 (!out.hasNearest || together->headroomBytes > out.nearest.headroomBytes)) {
            out.hasNearest = true;
            out.nearest = std::move(*together);
        }
    }
    if (search.cancelled()) {
        out = Advice{};
        out.cancelled = true;
        return out;
    }
    // Kind by kind, as the training advisor ranks them; within a kind the fits clear of the
    // likely range first, then the knobs' order (cheapest first).
    std::stable_sort(fits.begin(), fits.end(), [](const Suggestion &a, const Suggestion &b) {
        if (a.kind != b.kind)
            return a.kind < b.kind;
        return !a.withinBand && b.withinBand;
    });
    if (int(fits.size()) > options.maxSuggestions)
        fits.resize(size_t(std::max(0, options.maxSuggestions)));
    out.suggestions = std::move(fits);
    if (!out.suggestions.empty())
        out.hasNearest = false, out.nearest = Suggestion{};
    out.searched = out.estimated = search.estimated;
    return out;
}

json rlAdviceToJson(const Advice &advice)
{
    json out = adviceToJson(advice);
    const auto peakPhase = [](const Scenario &s) {
        const Estimate e = estimate(s);
        return e.rl.present ? json(std::string(rlPhaseKey(e.rl.peak))) : json(nullptr);
    };
    for (size_t i = 0; i < advice.suggestions.size(); ++i)
        out["suggestions"][i]["rl_peak_phase"] = peakPhase(advice.suggestions[i].scenario);
    if (advice.hasNearest)
        out["nearest"]["rl_peak_phase"] = peakPhase(advice.nearest.scenario);
    return out;
}

std::string rlAdviceTable(const Advice &a, const Scenario &s)
{
    std::ostringstream out;
    const auto changesText = [](const Suggestion &sg) {
        std::string text;
        for (const auto &[path, value] : sg.changes)
            text += (text.empty() ? "" : ", ") + path.substr(path.find('.') + 1) + " " +
                    (value.is_string() ? value.get<std::string>() : value.dump());
        return text;
    };
    const auto phaseOf = [](const Suggestion &sg) {
        return std::string(rlPhaseKey(estimate(sg.scenario).rl.peak));
    };
    out << (s.name.empty() ? std::string("scenario") : s.name) << '\n'
        << (a.fitsNow ? "fits as it is" : "does not fit as it is") << "; searched " << a.searched
        << " candidates (" << a.estimated << " estimated), RL knobs\n\n";
    if (a.fitsNow) {
        out << "nothing to change: the RL knobs trade time or method for memory\n";
    } else if (a.suggestions.empty()) {
        out << "nothing fits";
        if (a.hasNearest)
            out << ": the nearest is over by " << formatBytes(-a.nearest.headroomBytes) << " ("
                << changesText(a.nearest) << ", peak in " << phaseOf(a.nearest) << ")";
        out << '\n';
    } else {
        char line[160];
        std::snprintf(line, sizeof line, "%-15s %12s %12s %-11s %s\n", "kind", "peak", "headroom",
                      "peak phase", "changes");
        out << line;
        for (const auto &sg : a.suggestions) {
            std::snprintf(line, sizeof line, "%-15s %12s %12s %-11s ",
                          std::string(changeKindKey(sg.kind)).c_str(),
                          formatBytes(sg.peakDeviceBytes).c_str(),
                          formatBytes(sg.headroomBytes).c_str(), phaseOf(sg).c_str());
            out << line << changesText(sg) << "\n    cost: " << sg.costBasis << '\n';
        }
    }
    out << "\ntime: not priced for RL plans; each cost line says what the change costs "
           "(docs/rl.md)\n";
    return out.str();
}

} // namespace vramplan
