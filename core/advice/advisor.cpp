// The advisor's search (advisor.h). One working scenario is changed in place, knob by knob, so
// that a candidate costs an estimate and no copies; only the suggestions kept at the end become
// scenarios of their own.

#include "advice/advisor.h"

#include "advice/advisor_candidates.h"
#include "advice/advisor_changes.h"
#include "advice/calibration.h"
#include "advice/solvers.h"
#include "catalog.h"
#include "formats/scenario_json.h"
#include "training/capabilities.h"

#include <algorithm>
#include <cmath>

namespace vramplan {
using namespace advisor_internal;

namespace {

struct Outcome
{
    Choice choice;
    double peak = 0, headroom = 0, seconds = 0, tokens = 0;
};

} // namespace

bool fitsWithinBand(double peakDeviceBytes, double capacityBytes)
{
    // The likely range of the device total is [low, high] x the estimate (calibration.h: the
    // 10th and 90th percentiles of measured / estimated over tests/data/measured): a fit whose
    // high end passes the capacity lies inside it.
    return peakDeviceBytes <= capacityBytes &&
           peakDeviceBytes * validationErrorBand.high > capacityBytes;
}

Advice advise(const Scenario &scenario, const AdviceOptions &options)
{
    Advice advice;
    const Scenario &base = scenario;
    const Estimate now = estimate(base);
    advice.fitsNow = now.fits;
    advice.maxMicroBatch = maxMicroBatchSize(base);
    advice.maxSequence = maxSequenceLength(base);
    advice.minGpus = minGpuCount(base);
    const StepTime baseTime = stepTime(base, options.time);
    const double basePerToken = baseTime.seconds / std::max(1.0, baseTime.tokens);

    Options o;
    o.layouts = layoutsFor(base);
    o.recomputes = recomputesFor(base);
    o.offloads = offloadsFor(base);
    o.optimizers = optimizersFor(base);
    o.methods = methodsFor(base);
    o.hardware = hardwareFor(base, options.hardware);
    o.splits = splitsFor(base);
    // The same loss computed without the full logits: exact, so the same semantics.
    o.losses = {base.training.loss};
    if (base.training.loss != LossKind::FusedLinear &&
        frameworkHas(base.framework, Knob::FusedLinearLoss))
        o.losses.push_back(LossKind::FusedLinear);
    if (base.training.loss == LossKind::Standard && frameworkHas(base.framework, Knob::ChunkedLoss))
        o.losses.push_back(LossKind::Chunked);
    // Megatron's native fused cross-entropy holds one more fp32 block of the logits than its
    // unfused loss or Transformer Engine's fused kernel (--cross-entropy-fusion-impl te).
    if (base.training.loss == LossKind::Fused)
        o.losses.push_back(LossKind::Standard);
    if (base.training.mode != Mode::Train) {
        o.recomputes = {{base.training.recompute, base.training.recomputeLayers}};
        o.optimizers = {{base.training.optimizer, base.training.optimizerPrecision}};
        o.methods = {base.training.finetune.method};
        o.splits = {{base.training.microBatchSize, base.training.gradientAccumulationSteps}};
        o.losses = {base.training.loss};
    }
    // ZeRO stages from lowest to highest (memory never rises along the list, but for LitGPT's
    // Fabric FSDP1, where ZeRO-3 keeps an unsharded copy: no pruning by stage there).
    const bool zeroLaw = base.framework != Framework::Litgpt;
    for (int64_t z = 0; z <= 3; ++z) {
        const bool has = z == 0 || frameworkHas(base.framework, z == 1   ? Knob::Zero1
                                                                : z == 2 ? Knob::Zero2
                                                                         : Knob::Zero3);
        if (has || z == base.parallelism.zeroStage)
            o.zeros.push_back(z);
    }

    // Relaxed is enough: the flag carries no data, and a late look costs one more skeleton.
    const auto cancelled = [&] {
        advice.cancelled = options.cancel && options.cancel->load(std::memory_order_relaxed);
        return advice.cancelled;
    };
    std::vector<Outcome> fitting;
    Outcome nearest;
    nearest.headroom = -INFINITY;
    Scenario w = base;
    const int nr = int(o.recomputes.size()), nz = int(o.zeros.size());
    const int64_t perSkeleton = int64_t(nr) * nz * int64_t(o.splits.size());
    Choice c;
    for (c.hardware = 0; c.hardware < int(o.hardware.size()); ++c.hardware)
        for (c.layout = 0; c.layout < int(o.layouts.size()); ++c.layout)
            for (c.offload = 0; c.offload < int(o.offloads.size()); ++c.offload)
                for (c.optimizer = 0; c.optimizer < int(o.optimizers.size()); ++c.optimizer)
                    for (c.method = 0; c.method < int(o.methods.size()); ++c.method)
                      for (c.loss = 0; c.loss < int(o.losses.size()); ++c.loss) {
                        if (cancelled())
                            return advice;
                        // Within the skeleton, (recompute, zero) pairs from most saving down;
                        // a pair that fails at the smallest micro-batch fails for every pair
                        // below it and every larger micro-batch (tst_laws).
                        std::vector<std::pair<int, int>> failed;
                        for (c.recompute = nr - 1; c.recompute >= 0; --c.recompute)
                            for (c.zero = nz - 1; c.zero >= 0; --c.zero) {
                                // Recomputation orders as none <= {selective, N of L} <= full:
                                // selective and partial are not comparable.
                                const int r = c.recompute;
                                const bool dominated = std::any_of(
                                    failed.begin(), failed.end(), [&](const auto &f) {
                                        const bool saves = f.first == r || r == 0 ||
                                                           f.first == nr - 1;
                                        return saves && (zeroLaw ? f.second >= c.zero
                                                                 : f.second == c.zero);
                                    });
                                if (dominated) {
                                    advice.searched += int64_t(o.splits.size());
                                    continue;
                                }
                                for (size_t k = 0; k < o.splits.size(); ++k) {
                                    c.microBatch = o.splits[k].first;
                                    c.accumulation = o.splits[k].second;
                                    const bool keepsBatch = apply(w, base, o, c);
                                    // ZeRO without data-parallel ranks does nothing, unless it
                                    // carries an offload (ZeRO-Offload / -Infinity on one GPU):
                                    // not proposed as a change, but kept where the scenario has
                                    // it already (Megatron's distributed optimizer on TP 8 of 8
                                    // GPUs), or nothing keeping it could be offered.
                                    // Optimizer offload rides on ZeRO-1 or more (DeepSpeed
                                    // ZeRO-Offload, Megatron's distributed optimizer, FSDP).
                                    const auto &wp = w.parallelism;
                                    const bool zeroIdle =
                                        wp.zeroStage > 0 &&
                                        wp.zeroStage != base.parallelism.zeroStage &&
                                        wp.dataParallel() * wp.contextParallel <= 1 &&
                                        wp.offloadOptimizer == Offload::None &&
                                        wp.offloadParameters == Offload::None;
                                    const bool offloadWithoutZero =
                                        wp.offloadOptimizer != Offload::None &&
                                        base.parallelism.offloadOptimizer == Offload::None &&
                                        wp.zeroStage == 0;
                                    if (!keepsBatch || zeroIdle || offloadWithoutZero ||
                                        !checkScenario(w).empty()) {
                                        advice.searched += 1;
                                        continue;
                                    }
                                    Knob missing[knobCount];
                                    if (missingCapabilities(w, missing) > 0) {
                                        advice.searched += 1;
                                        continue;
                                    }
                                    const Estimate e = estimate(w);
                                    ++advice.estimated;
                                    ++advice.searched;
                                    if (!e.fits) {
                                        if (e.headroomBytes > nearest.headroom) {
                                            nearest.choice = c;
                                            nearest.headroom = e.headroomBytes;
                                            nearest.peak = e.peak.device;
                                        }
                                        if (k == 0)
                                            failed.push_back({c.recompute, c.zero});
                                        // Larger micro-batches cannot fit either.
                                        advice.searched += int64_t(o.splits.size() - k - 1);
                                        break;
                                    }
                                    const StepTime st = stepTime(w, options.time);
                                    fitting.push_back(
                                        {c, e.peak.device, e.headroomBytes, st.seconds, st.tokens});
                                }
                            }
                        (void)perSkeleton;
                    }

    // The frontier of memory against time, kind by kind (same semantics first, then numerics,
    // method, hardware). Within a kind the fits clear of the estimate's likely range come
    // before those inside it (a fit with 0.45 GiB to spare where the range is 14 GiB wide may
    // well not fit: issue 21 #9); then fastest first, each keeping clearly less memory (1% of
    // the capacity) than every faster one of its kind; among equally fast ones the fewest
    // changes.
    const double capacity = now.capacityBytes > 0 ? now.capacityBytes : 1.0;
    struct Ranked
    {
        const Outcome *outcome;
        int kind, changes, knobs;
        bool inBand, keepsLayout;
        double perToken;
        size_t order; // enumeration order: the last tie-break, so equal candidates rank alike
    };
    std::vector<Ranked> ranked;
    ranked.reserve(fitting.size());
    for (const auto &f : fitting) {
        (void)apply(w, base, o, f.choice);
        ranked.push_back({&f, int(kindOf(base, w)), changeCount(base, w), knobsTurned(base, w),
                          fitsWithinBand(f.peak, f.peak + f.headroom),
                          advisor_internal::keepsLayout(base, w),
                          f.seconds / std::max(1.0, f.tokens), ranked.size()});
    }
    std::sort(ranked.begin(), ranked.end(), [](const Ranked &a, const Ranked &b) {
        if (a.kind != b.kind)
            return a.kind < b.kind;
        if (a.inBand != b.inBand)
            return b.inBand;
        if (std::fabs(a.perToken - b.perToken) > 0.005 * std::max(a.perToken, b.perToken))
            return a.perToken < b.perToken;
        if (a.changes != b.changes)
            return a.changes < b.changes;
        if (a.outcome->peak != b.outcome->peak)
            return a.outcome->peak < b.outcome->peak;
        return a.order < b.order;
    });
    // One is dominated by another at least as fast with no more memory (and no closer to the
    // band's edge): 8-bit states that buy nothing next to an offload are left out.
    const auto dominates = [&](const Ranked &k, const Ranked &r) {
        return k.perToken <= r.perToken * 1.005 &&
               k.outcome->peak <= r.outcome->peak + 0.01 * capacity && (!k.inBand || r.inBand);
    };
    // The kept ones by index (a few dozen at most): what each candidate is checked against.
    std::vector<char> picked(ranked.size(), 0);
    std::vector<size_t> keptIndices;
    const auto anyPicked = [&](const auto &pred) {
        return std::any_of(keptIndices.begin(), keptIndices.end(),
                           [&](size_t j) { return pred(ranked[j]); });
    };
    const auto pick = [&](size_t i) {
        picked[i] = 1;
        keptIndices.push_back(i);
    };
    // First what several-knob changes must never crowd out (issue 21 #9, issue 22): each
    // change of one knob that fits, unless another one-knob change (of its kind or an earlier)
    // dominates it; then the best fit that keeps the model-parallel layout, of the earliest
    // kind that has one.
    for (size_t i = 0; i < ranked.size(); ++i) {
        const Ranked &r = ranked[i];
        if (r.knobs == 1 && !anyPicked([&](const Ranked &k) {
                return k.kind <= r.kind && dominates(k, r);
            }))
            pick(i);
    }
    // The first in ranked order is of the earliest kind that has one, and the best of it.
    const auto sameLayout = std::find_if(ranked.begin(), ranked.end(), [](const Ranked &r) {
        return r.changes > 0 && r.keepsLayout;
    });
    if (sameLayout != ranked.end() && !picked[size_t(sameLayout - ranked.begin())])
        pick(size_t(sameLayout - ranked.begin()));
    // Then the frontier, up to a third of the suggestions per kind. A suggestion of a later
    // kind stays only if no kept one (of its own kind or an earlier) dominates it.
    int total = int(std::count(picked.begin(), picked.end(), 1));
    const int perKind = std::max(1, options.maxSuggestions / 3);
    for (size_t i = 0; i < ranked.size() && total < options.maxSuggestions;) {
        const int kind = ranked[i].kind;
        int taken = 0;
        for (size_t j = i; j < ranked.size() && ranked[j].kind == kind; ++j)
            taken += picked[j];
        for (; i < ranked.size() && ranked[i].kind == kind; ++i) {
            const Ranked &r = ranked[i];
            if (picked[i] || r.changes == 0 || taken >= perKind ||
                total >= options.maxSuggestions)
                continue; // kept already, the scenario as it is, or enough of this kind
            if (anyPicked([&](const Ranked &k) { return k.kind <= r.kind && dominates(k, r); }))
                continue;
            pick(i);
            ++taken;
            ++total;
        }
    }
    std::vector<const Outcome *> frontier;
    for (size_t i = 0; i < ranked.size(); ++i)
        if (picked[i])
            frontier.push_back(ranked[i].outcome);
    const auto suggestionFor = [&](const Outcome &f) {
        Suggestion sgg;
        sgg.scenario = base;
        (void)apply(sgg.scenario, base, o, f.choice);
        sgg.changes = changesOf(base, sgg.scenario);
        sgg.peakDeviceBytes = f.peak;
        sgg.headroomBytes = f.headroom;
        sgg.kind = kindOf(base, sgg.scenario);
        sgg.withinBand = fitsWithinBand(f.peak, f.peak + f.headroom);
        const StepTime st = stepTime(sgg.scenario, options.time);
        const double perToken = st.seconds / std::max(1.0, st.tokens);
        sgg.relativeStepTime = basePerToken > 0 ? perToken / basePerToken : 1.0;
        sgg.costBasis = costBasis(baseTime, st, base, sgg.scenario);
        return sgg;
    };
    for (const Outcome *f : frontier) {
        if (int(advice.suggestions.size()) >= options.maxSuggestions)
            break;
        advice.suggestions.push_back(suggestionFor(*f));
    }
    if (fitting.empty() && nearest.headroom > -INFINITY) {
        advice.hasNearest = true;
        advice.nearest = suggestionFor(nearest);
        // The smallest catalog GPU on which that nearest layout fits.
        std::vector<const GpuSpec *> gpus;
        for (const auto &g : Catalog::builtin().gpus())
            gpus.push_back(&g);
        // Stable: of cards with the same memory the catalog's first (the original, not its
        // export variant) is named.
        std::stable_sort(gpus.begin(), gpus.end(), [](const GpuSpec *a, const GpuSpec *b) {
            return a->memoryMiB < b->memoryMiB;
        });
        Scenario t = advice.nearest.scenario;
        for (const GpuSpec *g : gpus) {
            t.gpu.preset = g->id;
            t.gpu.name = g->name;
            t.gpu.architecture = g->architecture;
            t.gpu.memoryGiB = g->memoryMiB / 1024.0;
            if (estimate(t).fits) {
                advice.smallestGpu = g->id;
                break;
            }
        }
    }
    return advice;
}

nlohmann::json adviceToJson(const Advice &a)
{
    using nlohmann::json;
    const auto changes = [](const Suggestion &s) {
        json out = json::object();
        for (const auto &[path, value] : s.changes)
            out[path] = value;
        return out;
    };
    json suggestions = json::array();
    for (const auto &s : a.suggestions)
        suggestions.push_back({{"changes", changes(s)},
                               {"scenario", scenarioToJson(s.scenario)},
                               {"fits", s.headroomBytes >= 0},
                               {"peak_device_bytes", std::llround(s.peakDeviceBytes)},
                               {"headroom_bytes", std::llround(s.headroomBytes)},
                               {"kind", changeKindKey(s.kind)},
                               {"relative_step_time", std::round(s.relativeStepTime * 1000) / 1000},
                               {"cost_basis", s.costBasis},
                               {"within_band", s.withinBand}});
    json out = {{"format", "vramplan-advice"},
                {"version", 1},
                {"fits_now", a.fitsNow},
                {"searched", a.searched},
                {"estimated", a.estimated},
                {"suggestions", suggestions},
                {"max_micro_batch", a.maxMicroBatch},
                {"max_sequence", a.maxSequence},
                {"min_gpus", a.minGpus}};
    if (a.hasNearest) {
        out["nearest"] = {{"changes", changes(a.nearest)},
                          {"over_by_bytes", std::llround(-a.nearest.headroomBytes)},
                          {"scenario", scenarioToJson(a.nearest.scenario)}};
        if (!a.smallestGpu.empty())
            out["nearest"]["smallest_gpu_that_fits"] = a.smallestGpu;
    }
    return out;
}

} // namespace vramplan
