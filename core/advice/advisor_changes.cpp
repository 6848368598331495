// What a suggestion changes against the scenario (advisor.h): the kind of change, the changed
// knobs as dotted paths and their count (fewer first in the ranking), and the cost sentence.

#include "advice/advisor_changes.h"

#include "formats/enum_names.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace vramplan {
namespace advisor_internal {

bool precisionDiffers(const OptimizerPrecision &a, const OptimizerPrecision &b)
{
    return a.masterWeights != b.masterWeights || a.gradients != b.gradients ||
           a.expAvg != b.expAvg || a.expAvgSq != b.expAvgSq;
}

ChangeKind kindOf(const Scenario &base, const Scenario &w)
{
    if (w.parallelism.gpus != base.parallelism.gpus || w.gpu.preset != base.gpu.preset)
        return ChangeKind::Hardware;
    if (w.training.finetune.method != base.training.finetune.method)
        return ChangeKind::Method;
    if (w.training.optimizer != base.training.optimizer ||
        precisionDiffers(w.training.optimizerPrecision, base.training.optimizerPrecision))
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
    const auto &oa = ta.optimizerPrecision, &ob = tb.optimizerPrecision;
    add("training.optimizer_precision.master_weights", oa.masterWeights, ob.masterWeights,
        toString(ob.masterWeights));
    add("training.optimizer_precision.gradients", oa.gradients, ob.gradients,
        toString(ob.gradients));
    add("training.optimizer_precision.exp_avg", oa.expAvg, ob.expAvg, toString(ob.expAvg));
    add("training.optimizer_precision.exp_avg_sq", oa.expAvgSq, ob.expAvgSq,
        toString(ob.expAvgSq));
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
           int(ta.optimizer != tb.optimizer) +
           int(precisionDiffers(ta.optimizerPrecision, tb.optimizerPrecision)) +
           int(ta.finetune.method != tb.finetune.method) +
           int(ta.loss != tb.loss) +
           int(pa.gpus != pb.gpus) + int(pa.tensorParallel != pb.tensorParallel) +
           int(pa.pipelineParallel != pb.pipelineParallel) +
           int(pa.contextParallel != pb.contextParallel) +
           int(pa.expertParallel != pb.expertParallel) + int(pa.zeroStage != pb.zeroStage) +
           int(pa.offloadOptimizer != pb.offloadOptimizer) +
           int(pa.offloadParameters != pb.offloadParameters) + int(a.gpu.preset != b.gpu.preset);
}

int knobsTurned(const Scenario &a, const Scenario &b)
{
    const auto &ta = a.training, &tb = b.training;
    const bool layersWithMode = ta.recompute != tb.recompute &&
                                ta.recomputeLayers != tb.recomputeLayers &&
                                tb.recompute == Recompute::Full;
    return changeCount(a, b) - int(layersWithMode);
}

bool keepsLayout(const Scenario &a, const Scenario &b)
{
    const auto &pa = a.parallelism, &pb = b.parallelism;
    return pa.tensorParallel == pb.tensorParallel && pa.pipelineParallel == pb.pipelineParallel &&
           pa.contextParallel == pb.contextParallel && pa.expertParallel == pb.expertParallel;
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

} // namespace advisor_internal

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

} // namespace vramplan
