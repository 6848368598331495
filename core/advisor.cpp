// The advisor's search (advisor.h). One working scenario is changed in place, knob by knob, so
// that a candidate costs an estimate and no copies; only the suggestions kept at the end become
// scenarios of their own.

#include "advisor.h"

#include "capabilities.h"
#include "catalog.h"
#include "enum_names.h"
#include "estimate_json.h"
#include "scenario_json.h"
#include "solvers.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace vramplan {
namespace {

struct Layout
{
    int64_t tp = 1, pp = 1, cp = 1, ep = 1;
    bool sp = false;
};

struct RecomputeChoice
{
    Recompute mode;
    int64_t layers; // -1: all
};

struct OffloadChoice
{
    Offload optimizer, parameters;
};

// Everything one candidate chose, by index into the option lists (kept for the frontier).
struct Choice
{
    int layout = 0, offload = 0, optimizer = 0, method = 0, hardware = 0, loss = 0;
    int recompute = 0, zero = 0;
    int64_t microBatch = 1, accumulation = 1;
};

struct Outcome
{
    Choice choice;
    double peak = 0, headroom = 0, seconds = 0, tokens = 0;
};

struct Hardware
{
    int64_t gpuFactor = 1; // times the scenario's GPU count
    const GpuSpec *gpu = nullptr; // nullptr: the scenario's GPU
};

bool divides(int64_t a, int64_t b)
{
    return a > 0 && b % a == 0;
}

// Layouts of the same GPU count the framework can run: TP within a node, dividing the heads;
// PP no deeper than the layers; CP and EP where the framework has them.
std::vector<Layout> layoutsFor(const Scenario &s)
{
    const auto &m = s.model;
    const auto &p = s.parallelism;
    const Framework f = s.framework;
    std::vector<Layout> out;
    out.push_back({p.tensorParallel, p.pipelineParallel, p.contextParallel, p.expertParallel,
                   p.sequenceParallel});
    const auto has = [f](Knob k) { return frameworkHas(f, k); };
    for (int64_t tp : {1, 2, 4, 8}) {
        if (tp > 1 && !has(Knob::TensorParallel))
            continue;
        if (!divides(tp, p.gpus) || !divides(tp, m.attentionHeads) ||
            !(divides(tp, m.kvHeads) || divides(m.kvHeads, tp)))
            continue;
        for (int64_t pp : {1, 2, 4, 8, 16}) {
            if (pp > 1 && !has(Knob::PipelineParallel))
                continue;
            if (!divides(tp * pp, p.gpus) || pp > m.layers)
                continue;
            for (int64_t cp : {1, 2, 4}) {
                if (cp > 1 && !has(Knob::ContextParallel))
                    continue;
                if (!divides(tp * pp * cp, p.gpus) || s.training.sequenceLength % (2 * cp) != 0)
                    continue;
                const int64_t dp = p.gpus / (tp * pp * cp);
                for (int64_t ep : {1, 2, 4, 8, 16, 32, 64}) {
                    if (ep > 1 && (!m.isMoe() || !has(Knob::ExpertParallel) ||
                                   !divides(ep, m.moe.experts) || !divides(ep, dp)))
                        continue;
                    Layout l{tp, pp, cp, ep, tp > 1 && has(Knob::SequenceParallel)};
                    const auto &c = out.front();
                    if (l.tp == c.tp && l.pp == c.pp && l.cp == c.cp && l.ep == c.ep &&
                        l.sp == c.sp)
                        continue;
                    out.push_back(l);
                }
            }
        }
    }
    return out;
}

// Recomputation from least to most saving (memory never rises along the list: tst_laws).
std::vector<RecomputeChoice> recomputesFor(const Scenario &s)
{
    const Framework f = s.framework;
    std::vector<RecomputeChoice> out = {{Recompute::None, -1}};
    if (frameworkHas(f, Knob::RecomputeSelective))
        out.push_back({Recompute::Selective, -1});
    if (frameworkHas(f, Knob::RecomputePartial) && s.model.layers >= 4)
        out.push_back({Recompute::Full, s.model.layers / 2});
    if (frameworkHas(f, Knob::RecomputeFull) || frameworkHas(f, Knob::RecomputePartial))
        out.push_back({Recompute::Full, -1});
    return out;
}

std::vector<OffloadChoice> offloadsFor(const Scenario &s)
{
    const Framework f = s.framework;
    std::vector<OffloadChoice> out = {{Offload::None, Offload::None}};
    if (s.training.mode != Mode::Train)
        return out;
    if (frameworkHas(f, Knob::OffloadOptimizerCpu))
        out.push_back({Offload::Cpu, Offload::None});
    if (frameworkHas(f, Knob::OffloadOptimizerNvme))
        out.push_back({Offload::Nvme, Offload::None});
    if (frameworkHas(f, Knob::OffloadParametersCpu) && frameworkHas(f, Knob::OffloadOptimizerCpu))
        out.push_back({Offload::Cpu, Offload::Cpu});
    if (frameworkHas(f, Knob::OffloadParametersNvme) && frameworkHas(f, Knob::OffloadOptimizerNvme))
        out.push_back({Offload::Nvme, Offload::Nvme});
    return out;
}

bool adamFamily(Optimizer o)
{
    return o == Optimizer::Adam || o == Optimizer::Adamw || o == Optimizer::PagedAdamw;
}

std::vector<Optimizer> optimizersFor(const Scenario &s)
{
    std::vector<Optimizer> out = {s.training.optimizer};
    if (adamFamily(s.training.optimizer) && frameworkHas(s.framework, Knob::EightBitOptimizer))
        out.push_back(Optimizer::Adamw8bit);
    return out;
}

std::vector<FinetuneMethod> methodsFor(const Scenario &s)
{
    std::vector<FinetuneMethod> out = {s.training.finetune.method};
    if (s.training.finetune.method == FinetuneMethod::Full &&
        frameworkHas(s.framework, Knob::Lora))
        out.push_back(FinetuneMethod::Lora);
    if (s.training.finetune.method != FinetuneMethod::Qlora &&
        frameworkHas(s.framework, Knob::Qlora))
        out.push_back(FinetuneMethod::Qlora);
    return out;
}

std::vector<Hardware> hardwareFor(const Scenario &s, bool allow)
{
    std::vector<Hardware> out = {{1, nullptr}};
    if (!allow)
        return out;
    for (int64_t k : {2, 4, 8})
        if (s.parallelism.gpus * k <= (int64_t(1) << 20))
            out.push_back({k, nullptr});
    // The next larger GPUs of the catalog (by usable memory), up to three.
    std::vector<const GpuSpec *> larger;
    for (const auto &g : Catalog::builtin().gpus())
        if (g.memoryMiB / 1024.0 > s.gpu.memoryGiB + 0.5 && g.vendor == "nvidia")
            larger.push_back(&g);
    std::sort(larger.begin(), larger.end(),
              [](const GpuSpec *a, const GpuSpec *b) { return a->memoryMiB < b->memoryMiB; });
    for (size_t i = 0; i < larger.size() && i < 3; ++i)
        out.push_back({1, larger[i]});
    return out;
}

// Micro-batch sizes that keep the global batch (micro x accumulation), smallest first.
std::vector<std::pair<int64_t, int64_t>> splitsFor(const Scenario &s)
{
    const int64_t global = s.training.microBatchSize * s.training.gradientAccumulationSteps;
    std::vector<std::pair<int64_t, int64_t>> out;
    for (int64_t m = 1; m <= global && out.size() < 12; m *= 2)
        if (global % m == 0)
            out.push_back({m, global / m});
    if (std::none_of(out.begin(), out.end(),
                     [&](const auto &x) { return x.first == s.training.microBatchSize; }))
        out.push_back({s.training.microBatchSize, s.training.gradientAccumulationSteps});
    std::sort(out.begin(), out.end());
    return out;
}

struct Options
{
    std::vector<Layout> layouts;
    std::vector<RecomputeChoice> recomputes;
    std::vector<int64_t> zeros; // from lowest to highest stage
    std::vector<OffloadChoice> offloads;
    std::vector<Optimizer> optimizers;
    std::vector<FinetuneMethod> methods;
    std::vector<Hardware> hardware;
    std::vector<std::pair<int64_t, int64_t>> splits;
    std::vector<LossKind> losses;
};

// Sets the candidate's knobs on the working scenario; false when it cannot keep the global
// batch (a layout whose data-parallel size does not divide it).
bool apply(Scenario &w, const Scenario &base, const Options &o, const Choice &c)
{
    const Layout &l = o.layouts[size_t(c.layout)];
    const Hardware &hw = o.hardware[size_t(c.hardware)];
    auto &p = w.parallelism;
    p.gpus = base.parallelism.gpus * hw.gpuFactor;
    p.tensorParallel = l.tp;
    p.pipelineParallel = l.pp;
    p.contextParallel = l.cp;
    p.expertParallel = l.ep;
    p.sequenceParallel = l.sp;
    p.virtualPipelineParallel = l.pp > 1 ? base.parallelism.virtualPipelineParallel : 1;
    if (p.virtualPipelineParallel > 1 && l.pp * p.virtualPipelineParallel > w.model.layers)
        p.virtualPipelineParallel = 1;
    p.zeroStage = o.zeros[size_t(c.zero)];
    p.offloadOptimizer = o.offloads[size_t(c.offload)].optimizer;
    p.offloadParameters = o.offloads[size_t(c.offload)].parameters;
    w.training.recompute = o.recomputes[size_t(c.recompute)].mode;
    w.training.recomputeLayers = o.recomputes[size_t(c.recompute)].layers;
    w.training.optimizer = o.optimizers[size_t(c.optimizer)];
    w.training.loss = o.losses[size_t(c.loss)];
    const FinetuneMethod method = o.methods[size_t(c.method)];
    w.training.finetune.method = method;
    w.training.finetune.baseWeightBits =
        method == FinetuneMethod::Qlora ? 4 : base.training.finetune.baseWeightBits;
    if (method == FinetuneMethod::Lora && base.training.finetune.method != FinetuneMethod::Lora)
        w.training.finetune.baseWeightBits = 16;
    w.training.microBatchSize = c.microBatch;
    w.training.gradientAccumulationSteps = c.accumulation;
    bool keeps = true;
    if (hw.gpuFactor == 1) {
        // The same global batch on the new layout's data-parallel ranks (SPEC: suggestions
        // keep it unless they change the GPU count).
        const int64_t global = c.microBatch * c.accumulation * base.parallelism.dataParallel();
        const int64_t perStep = c.microBatch * std::max<int64_t>(1, p.dataParallel());
        keeps = global % perStep == 0;
        if (keeps)
            w.training.gradientAccumulationSteps = global / perStep;
    }
    if (hw.gpu) {
        w.gpu.preset = hw.gpu->id;
        w.gpu.name = hw.gpu->name;
        w.gpu.architecture = hw.gpu->architecture;
        w.gpu.memoryGiB = hw.gpu->memoryMiB / 1024.0;
    } else {
        w.gpu = base.gpu;
    }
    return keeps;
}

ChangeKind kindOf(const Scenario &base, const Scenario &w)
{
    if (w.parallelism.gpus != base.parallelism.gpus || w.gpu.preset != base.gpu.preset)
        return ChangeKind::Hardware;
    if (w.training.finetune.method != base.training.finetune.method)
        return ChangeKind::Method;
    if (w.training.optimizer != base.training.optimizer)
        return ChangeKind::Numerics;
    return ChangeKind::SameSemantics;
}

std::vector<std::pair<std::string, nlohmann::json>> changesOf(const Scenario &a,
                                                              const Scenario &b)
{
    std::vector<std::pair<std::string, nlohmann::json>> out;
    const auto add = [&](const char *path, auto x, auto y, auto value) {
        if (x != y)
            out.emplace_back(path, value);
    };
    const auto &ta = a.training, &tb = b.training;
    const auto &pa = a.parallelism, &pb = b.parallelism;
    add("training.micro_batch_size", ta.microBatchSize, tb.microBatchSize, tb.microBatchSize);
    add("training.gradient_accumulation_steps", ta.gradientAccumulationSteps,
        tb.gradientAccumulationSteps, tb.gradientAccumulationSteps);
    add("training.activation_recompute", ta.recompute, tb.recompute, toString(tb.recompute));
    if (tb.recompute == Recompute::Full)
        add("training.recompute_layers", ta.recomputeLayers, tb.recomputeLayers,
            tb.recomputeLayers < 0 ? nlohmann::json(b.model.layers)
                                   : nlohmann::json(tb.recomputeLayers));
    add("training.optimizer", ta.optimizer, tb.optimizer, toString(tb.optimizer));
    add("training.loss", ta.loss, tb.loss, toString(tb.loss));
    add("training.finetune.method", ta.finetune.method, tb.finetune.method,
        toString(tb.finetune.method));
    add("parallelism.gpus", pa.gpus, pb.gpus, pb.gpus);
    add("parallelism.tensor_parallel", pa.tensorParallel, pb.tensorParallel, pb.tensorParallel);
    add("parallelism.sequence_parallel", pa.sequenceParallel, pb.sequenceParallel,
        pb.sequenceParallel);
    add("parallelism.pipeline_parallel", pa.pipelineParallel, pb.pipelineParallel,
        pb.pipelineParallel);
    add("parallelism.virtual_pipeline_parallel", pa.virtualPipelineParallel,
        pb.virtualPipelineParallel, pb.virtualPipelineParallel);
    add("parallelism.context_parallel", pa.contextParallel, pb.contextParallel, pb.contextParallel);
    add("parallelism.expert_parallel", pa.expertParallel, pb.expertParallel, pb.expertParallel);
    add("parallelism.zero_stage", pa.zeroStage, pb.zeroStage, pb.zeroStage);
    add("parallelism.offload_optimizer", pa.offloadOptimizer, pb.offloadOptimizer,
        toString(pb.offloadOptimizer));
    add("parallelism.offload_parameters", pa.offloadParameters, pb.offloadParameters,
        toString(pb.offloadParameters));
    add("gpu.preset", a.gpu.preset, b.gpu.preset, b.gpu.preset);
    return out;
}

// How many knobs differ from the scenario's own (for ranking: fewer changes first).
int changeCount(const Scenario &a, const Scenario &b)
{
    const auto &ta = a.training, &tb = b.training;
    const auto &pa = a.parallelism, &pb = b.parallelism;
    return int(ta.microBatchSize != tb.microBatchSize) + int(ta.recompute != tb.recompute) +
           int(ta.recomputeLayers != tb.recomputeLayers && tb.recompute == Recompute::Full) +
           int(ta.optimizer != tb.optimizer) + int(ta.finetune.method != tb.finetune.method) +
           int(ta.loss != tb.loss) +
           int(pa.gpus != pb.gpus) + int(pa.tensorParallel != pb.tensorParallel) +
           int(pa.pipelineParallel != pb.pipelineParallel) +
           int(pa.contextParallel != pb.contextParallel) +
           int(pa.expertParallel != pb.expertParallel) + int(pa.zeroStage != pb.zeroStage) +
           int(pa.offloadOptimizer != pb.offloadOptimizer) +
           int(pa.offloadParameters != pb.offloadParameters) + int(a.gpu.preset != b.gpu.preset);
}

// One sentence naming the terms of the step time that moved most (step_time.h).
std::string costBasis(const StepTime &base, const StepTime &c, const Scenario &from,
                      const Scenario &to)
{
    struct Term
    {
        double delta;
        std::string text;
    };
    std::vector<Term> terms;
    char text[200];
    const double scale = base.seconds > 0 ? base.seconds : 1;
    const double flops = c.flopsPerToken / std::max(1.0, base.flopsPerToken) - 1;
    if (std::fabs(flops) > 0.01) {
        std::snprintf(text, sizeof text, "%s%.0f%% FLOPs per token (%s)",
                      flops > 0 ? "+" : "", flops * 100,
                      to.training.finetune.method != from.training.finetune.method
                          ? "frozen weights need no weight gradients"
                          : "recomputation repeats forward work");
        terms.push_back({std::fabs(c.computeSeconds - base.computeSeconds), text});
    }
    if (std::fabs(c.exposedCommSeconds - base.exposedCommSeconds) > 0.01 * scale) {
        std::snprintf(text, sizeof text, "%+.2f s exposed communication per step",
                      c.exposedCommSeconds - base.exposedCommSeconds);
        terms.push_back({std::fabs(c.exposedCommSeconds - base.exposedCommSeconds), text});
    }
    if (std::fabs(c.offloadSeconds - base.offloadSeconds) > 0.01 * scale) {
        std::snprintf(text, sizeof text, "%+.2f s of host/NVMe traffic and CPU optimizer step",
                      c.offloadSeconds - base.offloadSeconds);
        terms.push_back({std::fabs(c.offloadSeconds - base.offloadSeconds), text});
    }
    if (std::fabs(c.bubbleFraction - base.bubbleFraction) > 0.01) {
        std::snprintf(text, sizeof text, "pipeline bubble %.0f%% of the step",
                      c.bubbleFraction * 100);
        terms.push_back({std::fabs(c.bubbleFraction - base.bubbleFraction) * c.seconds, text});
    }
    if (to.parallelism.gpus != from.parallelism.gpus || to.gpu.preset != from.gpu.preset) {
        std::snprintf(text, sizeof text, "%lld x %s instead of %lld x %s",
                      static_cast<long long>(to.parallelism.gpus), to.gpu.name.c_str(),
                      static_cast<long long>(from.parallelism.gpus), from.gpu.name.c_str());
        terms.push_back({1e30, text});
    }
    std::sort(terms.begin(), terms.end(),
              [](const Term &a, const Term &b) { return a.delta > b.delta; });
    if (terms.empty())
        return "the same work in the same time by the step-time model";
    std::string out = terms[0].text;
    if (terms.size() > 1)
        out += "; " + terms[1].text;
    return out;
}

} // namespace

std::string_view changeKindKey(ChangeKind kind)
{
    switch (kind) {
    case ChangeKind::SameSemantics:
        return "same_semantics";
    case ChangeKind::Numerics:
        return "numerics";
    case ChangeKind::Method:
        return "method";
    case ChangeKind::Hardware:
        return "hardware";
    }
    return "same_semantics";
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
    if (base.training.mode != Mode::Train) {
        o.recomputes = {{base.training.recompute, base.training.recomputeLayers}};
        o.optimizers = {base.training.optimizer};
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
                                    // carries an offload (ZeRO-Offload / -Infinity on one GPU).
                                    // Optimizer offload rides on ZeRO-1 or more (DeepSpeed
                                    // ZeRO-Offload, Megatron's distributed optimizer, FSDP).
                                    const auto &wp = w.parallelism;
                                    const bool zeroIdle =
                                        wp.zeroStage > 0 &&
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
    // method, hardware): fastest first, each keeping clearly less memory (1% of the capacity)
    // than every faster one of its kind; among equally fast ones the fewest changes.
    const double capacity = now.capacityBytes > 0 ? now.capacityBytes : 1.0;
    struct Ranked
    {
        const Outcome *outcome;
        int kind, changes;
        double perToken;
        size_t order; // enumeration order: the last tie-break, so equal candidates rank alike
    };
    std::vector<Ranked> ranked;
    ranked.reserve(fitting.size());
    for (const auto &f : fitting) {
        (void)apply(w, base, o, f.choice);
        ranked.push_back({&f, int(kindOf(base, w)), changeCount(base, w),
                          f.seconds / std::max(1.0, f.tokens), ranked.size()});
    }
    std::sort(ranked.begin(), ranked.end(), [](const Ranked &a, const Ranked &b) {
        if (a.kind != b.kind)
            return a.kind < b.kind;
        if (std::fabs(a.perToken - b.perToken) > 0.005 * std::max(a.perToken, b.perToken))
            return a.perToken < b.perToken;
        if (a.changes != b.changes)
            return a.changes < b.changes;
        if (a.outcome->peak != b.outcome->peak)
            return a.outcome->peak < b.outcome->peak;
        return a.order < b.order;
    });
    // A suggestion of a later kind stays only if no kept one (of its own kind or an earlier)
    // is at least as fast with no more memory: 8-bit states that buy nothing next to an
    // offload are left out.
    std::vector<const Outcome *> frontier;
    std::vector<const Ranked *> kept;
    const int perKind = std::max(1, options.maxSuggestions / 3);
    for (size_t i = 0; i < ranked.size();) {
        const int kind = ranked[i].kind;
        int taken = 0;
        for (; i < ranked.size() && ranked[i].kind == kind; ++i) {
            const Ranked &r = ranked[i];
            if (r.changes == 0 || taken >= perKind)
                continue; // the scenario as it is, or enough of this kind
            const bool dominated =
                std::any_of(kept.begin(), kept.end(), [&](const Ranked *k) {
                    return k->perToken <= r.perToken * 1.005 &&
                           k->outcome->peak <= r.outcome->peak + 0.01 * capacity;
                });
            if (dominated)
                continue;
            frontier.push_back(r.outcome);
            kept.push_back(&r);
            ++taken;
        }
    }
    const auto suggestionFor = [&](const Outcome &f) {
        Suggestion sgg;
        sgg.scenario = base;
        (void)apply(sgg.scenario, base, o, f.choice);
        sgg.changes = changesOf(base, sgg.scenario);
        sgg.peakDeviceBytes = f.peak;
        sgg.headroomBytes = f.headroom;
        sgg.kind = kindOf(base, sgg.scenario);
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
        std::sort(gpus.begin(), gpus.end(),
                  [](const GpuSpec *a, const GpuSpec *b) { return a->memoryMiB < b->memoryMiB; });
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
                               {"cost_basis", s.costBasis}});
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
