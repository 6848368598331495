// The advisor's candidates (advisor.h): for each knob the scenario's framework has, the options
// the search tries, and apply(), which sets one choice among them on the working scenario.

#include "advice/advisor_candidates.h"

#include "catalog.h"
#include "training/capabilities.h"

#include <algorithm>

namespace vramplan::advisor_internal {
namespace {

bool divides(int64_t a, int64_t b)
{
    return a > 0 && b % a == 0;
}

bool adamFamily(Optimizer o)
{
    return o == Optimizer::Adam || o == Optimizer::Adamw || o == Optimizer::PagedAdamw;
}

} // namespace

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

// The scenario's optimizer; bitsandbytes' 8-bit AdamW; and where the framework has them, Adam
// with 16-bit states (Megatron's precision-aware optimizer: --exp-avg-dtype bf16
// --exp-avg-sq-dtype bf16; DeepSpeed's bf16_optimizer_states) or torchao's 4-bit AdamW (int4
// states, torchao.optim.AdamW4bit).
std::vector<OptimizerChoice> optimizersFor(const Scenario &s)
{
    const auto &t = s.training;
    std::vector<OptimizerChoice> out = {{t.optimizer, t.optimizerPrecision}};
    if (!adamFamily(t.optimizer) || t.optimizer == Optimizer::PagedAdamw)
        return out;
    if (frameworkHas(s.framework, Knob::EightBitOptimizer))
        out.push_back({Optimizer::Adamw8bit, OptimizerPrecision{}});
    const auto &o = t.optimizerPrecision;
    const bool fp32States = t.precision != Precision::Bf16 &&
                            (o.expAvg == StateDtype::Auto || o.expAvg == StateDtype::Fp32) &&
                            (o.expAvgSq == StateDtype::Auto || o.expAvgSq == StateDtype::Fp32);
    if (fp32States && frameworkHas(s.framework, Knob::PrecisionAwareOptimizer)) {
        OptimizerPrecision bf16 = o;
        bf16.expAvg = bf16.expAvgSq = StateDtype::Bf16;
        out.push_back({t.optimizer, bf16});
    }
    if (o.expAvg != StateDtype::Int4 && frameworkHas(s.framework, Knob::LowBitOptimizerStates)) {
        OptimizerPrecision int4 = o;
        int4.expAvg = int4.expAvgSq = StateDtype::Int4;
        out.push_back({t.optimizer, int4});
    }
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
    // Stable: of cards with the same memory the catalog's first is named.
    std::stable_sort(larger.begin(), larger.end(), [](const GpuSpec *a, const GpuSpec *b) {
        return a->memoryMiB < b->memoryMiB;
    });
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
    w.training.optimizer = o.optimizers[size_t(c.optimizer)].optimizer;
    w.training.optimizerPrecision = o.optimizers[size_t(c.optimizer)].precision;
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

} // namespace vramplan::advisor_internal
