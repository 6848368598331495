// The step-time model (step_time.h). Every term is an order-of-magnitude roofline: it exists to
// rank memory-saving changes by what they cost, and docs/step_time.md reports how far its
// absolute figures are from published throughput.

#include "advice/step_time.h"

#include "catalog.h"
#include "model/model_weights.h"

#include <algorithm>
#include <cmath>

namespace vramplan {
namespace {

// Between nodes: one 400 Gb/s InfiniBand NDR / RoCE port per GPU, as in the DGX H100 and the
// clusters the published runs used (about 45 GB/s of it usable per direction).
constexpr double interNodeGBs = 45;
// NVMe offload: a few local drives, about 6 GB/s each way (DeepSpeed ZeRO-Infinity paper §7).
constexpr double nvmeGBs = 6;
// DeepSpeed's CPU Adam updates about 1e9 parameters a second per GPU's share of a host
// (DeepSpeed ZeRO-Offload paper, Table 4: 1.2-1.6 s for 1B parameters per GPU process).
constexpr double cpuAdamParamsPerSecond = 1.0e9;

// Class values by architecture for GPUs the catalog gives no figures for (and custom GPUs):
// the dense bf16 peak and the links of the class's data-centre part (datasheets: V100 SXM2,
// A100 SXM4, L40, H100 SXM5, B200 HGX, MI250X per die, MI300X; tests/data/gpu_specs.json).
GpuThroughput classThroughput(const std::string &architecture)
{
    // {bf16 TFLOP/s, node link GB/s, host link GB/s, gpus per node, fp8 TFLOP/s, memory GB/s}
    const auto make = [](double tf, double node, double host, double fp8, double mem) {
        GpuThroughput t;
        t.tflops = tf;
        t.nodeLinkGBs = node;
        t.hostLinkGBs = host;
        t.fp8Tflops = fp8;
        t.memoryGBs = mem;
        return t;
    };
    if (architecture == "volta")
        return make(125, 150, 16, 0, 900);
    if (architecture == "turing")
        return make(65, 16, 16, 0, 320);
    if (architecture == "ampere")
        return make(312, 300, 32, 0, 2039);
    if (architecture == "ada")
        return make(181, 32, 32, 362, 864);
    if (architecture == "blackwell")
        return make(2250, 900, 64, 4500, 7700);
    if (architecture == "cdna3")
        return make(1307, 448, 64, 2615, 5300);
    if (architecture == "cdna2")
        return make(191.5, 200, 32, 0, 1638); // one MI250X die (GCD), as the catalog lists it
    return make(989, 450, 64, 1979, 3350); // hopper
}

// Ring all-reduce (or reduce-scatter + all-gather) moves 2 (n - 1) / n of the bytes per GPU.
double ringSeconds(double bytes, double n, double linkGBs)
{
    if (n <= 1 || !(linkGBs > 0))
        return 0;
    return 2 * (n - 1) / n * bytes / (linkGBs * 1e9);
}

// An all-gather or a reduce-scatter alone: half a ring all-reduce.
double halfRingSeconds(double bytes, double n, double linkGBs)
{
    return ringSeconds(bytes, n, linkGBs) / 2;
}

} // namespace

GpuThroughput gpuThroughput(const Scenario &s)
{
    GpuThroughput t = classThroughput(s.gpu.architecture);
    if (const GpuSpec *spec = Catalog::builtin().gpu(s.gpu.preset)) {
        const GpuThroughput c = classThroughput(spec->architecture);
        t.tflops = spec->bf16Tflops > 0 ? spec->bf16Tflops : c.tflops;
        t.nodeLinkGBs = spec->nodeLinkGBs > 0 ? spec->nodeLinkGBs : c.nodeLinkGBs;
        t.hostLinkGBs = spec->hostLinkGBs > 0 ? spec->hostLinkGBs : c.hostLinkGBs;
        t.fp8Tflops = spec->fp8Tflops > 0 ? spec->fp8Tflops : c.fp8Tflops;
        t.memoryGBs = spec->memoryBandwidthGBs > 0 ? spec->memoryBandwidthGBs : c.memoryGBs;
    }
    return t;
}

StepTime stepTime(const Scenario &s, const StepTimeOptions &options)
{
    StepTime st;
    const auto &m = s.model;
    const auto &t = s.training;
    const auto &p = s.parallelism;
    const GpuThroughput gpu = gpuThroughput(s);
    const double gpus = double(std::max<int64_t>(1, p.gpus));
    const double dp = double(std::max<int64_t>(1, p.dataParallel()));
    const double tp = double(p.tensorParallel), pp = double(p.pipelineParallel);
    const double cp = double(p.contextParallel), ep = double(p.expertParallel);
    const double seq = double(t.sequenceLength);
    const double micro = double(t.microBatchSize);
    const double gas = double(t.gradientAccumulationSteps);
    st.tokens = micro * seq * gas * dp;

    // Matmul FLOPs per token: 2 per active weight forward, 4 backward (Kaplan et al. 2020 §2.1;
    // Narayanan et al. 2021 §5.1), less the embedding lookup; frozen weights need no weight
    // gradient (LoRA: 2 + 2). Causal attention adds 2 * 2 * s/2 * a * d per layer forward.
    const ParameterCounts counts = countParameters(m);
    const double matmulParams = double(counts.activePerToken - counts.embedding);
    const double qkWidth = double(m.attentionHeads) *
                           double(m.isMla() ? m.mla.qkHeadDim() : m.headDim);
    const double attentionForward = 2.0 * seq * qkWidth * double(m.layers);
    const bool lora = t.finetune.method != FinetuneMethod::Full;
    const double forward = 2 * matmulParams + attentionForward;
    // Full: forward + twice as much backward. LoRA: the frozen matmuls' input gradients only
    // (the adapters are a rounding error); attention's backward is whole either way.
    double flops = lora ? 2 * matmulParams * 2 + attentionForward * 3 : forward * 3;
    if (t.recompute == Recompute::Full) {
        const double share = t.recomputeLayers >= 0
                                 ? std::min(1.0, double(t.recomputeLayers) / double(m.layers))
                                 : 1.0;
        flops += forward * share; // one more forward of the recomputed layers
    } else if (t.recompute == Recompute::Selective) {
        flops += attentionForward; // the attention core again
    }
    st.flopsPerToken = flops;
    // fp8 recipes run the linear layers' matmuls in fp8 (Transformer Engine, torchao float8);
    // attention stays 16-bit. The datasheet's 2x does not survive the casts and scaling:
    // torchtitan's float8 docs report 1.2-1.5x end to end, so the linear matmuls count 1.5x.
    double peak = gpu.tflops;
    if (t.precision == Precision::Fp8Mixed && gpu.fp8Tflops > 0) {
        const double linearShare = 2 * matmulParams / std::max(1.0, forward);
        const double fp8 = std::min(gpu.fp8Tflops, 1.5 * gpu.tflops);
        peak = 1.0 / (linearShare / fp8 + (1 - linearShare) / gpu.tflops);
    }
    const double achieved = peak * 1e12 * std::clamp(options.mfu, 0.01, 1.0);
    st.computeSeconds = st.tokens * flops / (gpus * achieved);
    // Micro-batches of one step; torchtitan splits each local batch into as many as there are
    // pipeline stages (torchtitan/parallelisms/pipelining: pipeline_parallel_microbatches).
    double microBatches = gas;
    if (s.framework == Framework::Torchtitan && pp > 1 && t.microBatchSize % p.pipelineParallel == 0)
        microBatches = gas * pp;
    // Roofline of small micro-batches: every pass (forward, and backward twice for a full
    // fine-tune, once for LoRA) reads the GPU's weights from memory, whatever the tokens.
    if (gpu.memoryGBs > 0) {
        const double localWeights = double(countParameters(m).total) /
                                    (tp * pp * (m.isMoe() ? std::max(1.0, ep) : 1.0));
        const double bytes = t.finetune.method == FinetuneMethod::Qlora ? 2.5 : 2.0;
        const double reads = lora ? 2.0 : 3.0;
        const double weightSeconds = microBatches * reads * localWeights * bytes / (gpu.memoryGBs * 1e9);
        st.computeSeconds = std::max(st.computeSeconds, weightSeconds);
    }

    // Pipeline bubble: (p - 1) / (m + p - 1) of 1F1B, divided by the interleaving factor
    // (Narayanan et al. 2021 §2.2).
    if (pp > 1) {
        const double v = double(std::max<int64_t>(1, p.virtualPipelineParallel));
        st.bubbleFraction = (pp - 1) / v / (microBatches + (pp - 1) / v);
    }

    // Links: a collective within a node runs over NVLink; one spanning nodes over the network.
    const double perNode = double(gpu.gpusPerNode);
    const auto linkFor = [&](double groupSpan) {
        return groupSpan <= perNode ? gpu.nodeLinkGBs : std::min(gpu.nodeLinkGBs, interNodeGBs);
    };
    const double weightBytes = 2.0; // 16-bit weights and gradients on the wire
    const double params = double(counts.total);
    const double trainable = lora ? params * 0.01 : params; // adapters: about 1% at most
    const double shardParams = params / (tp * pp);
    // Data-parallel traffic, hidden behind backward when it fits there (PyTorch DDP buckets,
    // FSDP/ZeRO prefetch): ZeRO-3/FSDP gathers the weights forward and backward for each
    // micro-batch and reduce-scatters gradients; the others all-reduce the gradients once.
    const double dpLink = linkFor(gpus);
    double dpSeconds = 0;
    if (dp > 1) {
        if (p.zeroStage >= 3)
            dpSeconds = 2 * gas * halfRingSeconds(shardParams * weightBytes, dp, dpLink) +
                        halfRingSeconds(shardParams * (trainable / params) * weightBytes, dp,
                                        dpLink);
        else
            dpSeconds = ringSeconds(shardParams * (trainable / params) * weightBytes, dp, dpLink);
    }
    // Tensor parallelism: 4 all-reduces (or reduce-scatter + all-gather pairs with SP) of the
    // b * s * h activations per layer and micro-batch, on the critical path.
    double tpSeconds = 0;
    const double layersPerStage = double(m.layers) / pp;
    const double tokensPerMicro = micro * seq / cp;
    if (tp > 1)
        tpSeconds = gas * layersPerStage * 4 *
                    ringSeconds(tokensPerMicro * double(m.hiddenSize) * 2, tp, linkFor(tp));
    // Context parallelism: each layer passes K and V around the ring, forward and backward
    // (ring attention), mostly hidden behind the blockwise attention.
    double cpSeconds = 0;
    if (cp > 1)
        cpSeconds = 0.5 * gas * layersPerStage * 3 * (cp - 1) * tokensPerMicro *
                    double(m.kvHeads * m.headDim) * 2 * 2 / (linkFor(cp * tp) * 1e9);
    // Expert parallelism: dispatch and combine all-to-alls, forward and backward, per MoE
    // layer and micro-batch.
    double epSeconds = 0;
    if (m.isMoe() && ep > 1) {
        const double moeLayers = double(counts.moeLayers) / pp;
        epSeconds = gas * moeLayers * 4 * (ep - 1) / ep * tokensPerMicro *
                    double(m.moe.expertsPerToken) * double(m.hiddenSize) * 2 /
                    (linkFor(ep * tp * cp) * 1e9);
    }
    // Pipeline sends: the activations of a micro-batch boundary, forward and backward.
    double ppSeconds = 0;
    if (pp > 1)
        ppSeconds = gas * 2 * tokensPerMicro * double(m.hiddenSize) * 2 /
                    (linkFor(gpus) * 1e9);
    const double hidden = std::min(dpSeconds, 0.8 * st.computeSeconds);
    st.exposedCommSeconds = (dpSeconds - hidden) + tpSeconds + cpSeconds + epSeconds + ppSeconds;

    // Offload: gradients to the host and updated 16-bit weights back each step, the CPU Adam
    // step itself, and with NVMe the states read and written; parameter offload fetches the
    // weights over PCIe for forward and backward of each micro-batch.
    const double shardGroup = p.zeroStage >= 1 ? dp : 1.0;
    const double localTrainable = trainable / (tp * pp) / shardGroup;
    if (t.mode == Mode::Train && p.offloadOptimizer != Offload::None) {
        st.offloadSeconds += 2 * localTrainable * weightBytes / (gpu.hostLinkGBs * 1e9);
        st.offloadSeconds += localTrainable / cpuAdamParamsPerSecond;
        if (p.offloadOptimizer == Offload::Nvme)
            st.offloadSeconds += 2 * localTrainable * 12 / (nvmeGBs * 1e9);
    }
    if (p.offloadParameters != Offload::None && p.zeroStage >= 3) {
        const double local = params / (tp * pp) / dp;
        const double link = p.offloadParameters == Offload::Nvme ? std::min(gpu.hostLinkGBs, nvmeGBs)
                                                                 : gpu.hostLinkGBs;
        st.offloadSeconds += 2 * gas * local * weightBytes / (link * 1e9);
    }

    const double busy = st.computeSeconds + st.exposedCommSeconds;
    st.seconds = busy / std::max(1e-9, 1 - st.bubbleFraction) + st.offloadSeconds;
    if (!std::isfinite(st.seconds))
        st.seconds = 0;
    return st;
}

} // namespace vramplan
