// Weights, gradients, optimizer states and the temporaries that belong to them (SPEC §2 rows
// "parameters", "gradients", "optimizer states" and the weight-related "temporary" buffers).

#include "capabilities.h"
#include "estimate_context.h"

#include <cmath>
#include <vector>

namespace vramplan {
namespace {

// Weights and optimizer states persist through the whole run, validation and generation
// included; gradients are freed by zero_grad before a validation pass.
constexpr unsigned steadyPhases = allPhases;
constexpr unsigned gradientPhases = phaseBit(Phase::BackwardEnd) | phaseBit(Phase::OptimizerStep);
constexpr unsigned backwardPhases =
    phaseBit(Phase::LossBackward) | phaseBit(Phase::LayerBackward) | phaseBit(Phase::BackwardEnd);
// Validation and generation are forward passes: per-layer gathers happen there too.
constexpr unsigned computePhases = phaseBit(Phase::Forward) | backwardPhases | evaluationPhases;

// bitsandbytes 8-bit optimizers: one fp32 absmax per 2048-element block, per state; tensors
// under 4096 elements keep 32-bit states (bnb.optim.Optimizer8bit, min_8bit_size).
constexpr double blockwise8bitOverhead = 4.0 / 2048;
constexpr int64_t min8bitElements = 4096;
// Distributed Shampoo's default max_preconditioner_dim: matrices are blocked to 1024 x 1024.
constexpr int64_t shampooBlock = 1024;

bool mixedMaster(Precision p)
{
    return p == Precision::Fp16Mixed || p == Precision::Bf16Mixed || p == Precision::Fp8Mixed;
}

// FSDP under mixed precision keeps the sharded parameters in fp32, all-gathers 16-bit copies
// for compute and steps the optimizer on the fp32 shards: no separate master copy. torchtitan's
// FSDP2 (parallelisms: MixedPrecisionPolicy(param_dtype=bf16, reduce_dtype=fp32)) and
// accelerate's FSDP for transformers and plain loops, which upcasts 16-bit loaded weights to
// fp32 before wrapping (accelerate/accelerator.py prepare_model, "upcasted to fp32").
bool fsdpFp32Shards(const StageContext &c)
{
    if (!mixedMaster(c.t.precision))
        return false;
    const auto fw = c.s.framework;
    return fw == Framework::Torchtitan ||
           ((fw == Framework::Transformers || fw == Framework::Pytorch) && c.p.zeroStage >= 3 &&
            c.dp > 1);
}

double weightBytes(const StageContext &c)
{
    if (c.fp32 || c.amp)
        return 4;
    if (fsdpFp32Shards(c))
        return 4;
    return 2;
}

double gradientBytes(const StageContext &c)
{
    if (c.fp32 || c.amp)
        return 4;
    if (mixedMaster(c.t.precision) && (c.s.framework == Framework::Megatron || fsdpFp32Shards(c)))
        return 4; // Megatron's fp32 main_grad buffer; FSDP's fp32 sharded gradients
    return 2;     // DeepSpeed and plain PyTorch keep gradients in the weights' 16-bit dtype
}

// Bytes of one optimizer-state element: fp32, except pure bf16 where plain PyTorch creates the
// states like the parameters (torch.optim.AdamW: zeros_like(param)).
double stateBytes(const StageContext &c)
{
    return c.t.precision == Precision::Bf16 ? 2 : 4;
}

// Optimizer state bytes of one trainable tensor of `rows` x `cols` (`n` elements in all).
double optimizerBytes(Optimizer o, double sb, double n, int64_t rows, int64_t cols, bool inLayer)
{
    const bool matrix = cols > 1;
    switch (o) {
    case Optimizer::Sgd:
        return 0;
    case Optimizer::SgdMomentum:
    case Optimizer::Lion:
        return sb * n;
    case Optimizer::Adam:
    case Optimizer::Adamw:
    case Optimizer::PagedAdamw:
        return 2 * sb * n;
    case Optimizer::Adamw8bit:
    case Optimizer::PagedAdamw8bit:
        return double(rows) * cols < min8bitElements ? 8 * n : (2 + 2 * blockwise8bitOverhead) * n;
    case Optimizer::Muon:
        // Muon keeps one momentum buffer for the hidden matrices; embeddings, head and vectors
        // go to its AdamW fallback (Jordan et al. 2024, reference implementation).
        return matrix && inLayer ? sb * n : 2 * sb * n;
    case Optimizer::Adafactor: {
        // HF Adafactor without first moment: factored second moment, a row and a column vector
        // per matrix; a full second moment for vectors (Shazeer & Stern 2018, §3).
        if (!matrix)
            return 4 * n;
        const double copies = n / (double(rows) * cols);
        return 4 * double(rows + cols) * copies;
    }
    case Optimizer::Shampoo: {
        if (!matrix)
            return 2 * sb * n;
        // Per block: left and right factors and their inverse roots, fp32; plus momentum and
        // the grafting accumulator per element.
        const double copies = n / (double(rows) * cols);
        auto blocks = [](int64_t d) { return (d + shampooBlock - 1) / shampooBlock; };
        const double br = double(std::min(rows, shampooBlock));
        const double bc = double(std::min(cols, shampooBlock));
        const double perBlock = 2 * (br * br + bc * bc) * 4;
        return copies * double(blocks(rows)) * double(blocks(cols)) * perBlock + 2 * sb * n;
    }
    }
    return 0;
}

bool pagedOptimizer(Optimizer o)
{
    return o == Optimizer::PagedAdamw || o == Optimizer::PagedAdamw8bit;
}

// torch.optim's default foreach implementation materialises one state-sized intermediate
// (torch/optim/adamw.py _multi_tensor_adamw: exp_avg_sq_sqrt = _foreach_sqrt(...)); the fused
// Adam of DeepSpeed and Megatron (apex/TE FusedAdam) and bitsandbytes kernels do not.
bool foreachTemporaries(const StageContext &c)
{
    const auto o = c.t.optimizer;
    // HF Trainer's default optimizer is per-tensor (adamw_hf) or fused (adamw_torch_fused).
    if (c.s.framework == Framework::Megatron || c.s.framework == Framework::Deepspeed ||
        c.s.framework == Framework::Transformers)
        return false;
    return o == Optimizer::Adam || o == Optimizer::Adamw || o == Optimizer::Lion ||
           o == Optimizer::SgdMomentum || o == Optimizer::Muon;
}

struct LocalSizes
{
    double all = 0;    // every local weight element
    double linear = 0; // layer linear weights (quantizable under QLoRA)
    double layerMatrices = 0;
    double oneLayer = 0; // one layer's local elements
    double oneLayerLinear = 0;
    double root = 0; // embeddings, final norm and heads held on this stage
    double rootEmbedding = 0; // of `root`, the token embeddings
};

// One layer's weight, gradient and optimizer bytes on this GPU (sharded as the layout says).
LayerStateSums layerStateSums(const StageContext &c, const WeightList &weights)
{
    LayerStateSums sums;
    sums.ready = true;
    const double tp = double(c.tp);
    const double dp = c.shardGroup();
    const double dpExpert = std::max(1.0, dp / double(c.ep));
    const bool z1 = c.p.zeroStage >= 1, z2 = c.p.zeroStage >= 2, z3 = c.p.zeroStage >= 3;
    const double wb = weightBytes(c);
    const double gb = gradientBytes(c);
    const double sb = stateBytes(c);
    const bool master = mixedMaster(c.t.precision) && !fsdpFp32Shards(c);
    const int64_t bits = c.t.finetune.baseWeightBits;
    for (const auto &t : weights) {
        double n = double(t.elements()) / (t.tensorParallel ? tp : 1.0);
        if (t.place == WeightPlace::Expert)
            n /= double(c.ep);
        sums.oneLayer += n;
        if (t.quantizable)
            sums.oneLayerLinear += n;
        const double shard = t.place == WeightPlace::Expert ? dpExpert : dp;
        const double paramDiv = z3 ? shard : 1.0;
        if (c.full) {
            sums.paramsTrainable += n * wb / paramDiv;
            sums.trainable += n;
            const double ob = optimizerBytes(c.t.optimizer, sb, n, t.rows, t.cols, true);
            sums.optimizer += ob;
            sums.optimizerSharded += ob / (z1 ? shard : 1.0);
            sums.grads += n * gb / (z2 ? shard : 1.0);
            if (master)
                sums.master += n * 4 / (z1 ? shard : 1.0);
        } else {
            // The frozen base: QLoRA quantises the linear layers; norms and router stay 16-bit.
            double bytes = 2;
            if (t.quantizable && bits == 4)
                bytes = nf4BytesPerWeight;
            else if (t.quantizable && bits == 8)
                bytes = 1.0 + 4.0 / 4096; // LLM.int8: int8 codes and fp32 row scales
            else if (bits >= 16)
                // AMP keeps the base in fp32, except Unsloth's (base16BitUnderAutocast).
                bytes = std::max(double(bits) / 8.0, base16BitUnderAutocast(c) ? 2.0 : wb);
            (t.quantizable && bits < 16 ? sums.frozenQuant : sums.frozenOther) +=
                n * bytes / paramDiv;
            if (t.quantizable && bits == 4)
                sums.largestQuantised = std::max(sums.largestQuantised, n);
        }
    }
    return sums;
}


// --- DeepSpeed ZeRO-3 parameter fetching ---------------------------------------------------
// Defaults of deepspeed/runtime/zero/config.py (DeepSpeedZeroConfig), in elements.
constexpr double dsReduceBucket = 5e8;          // reduce_bucket_size
constexpr double dsPrefetchBucket = 5e7;        // stage3_prefetch_bucket_size
constexpr double dsMaxLiveParameters = 1e9;     // stage3_max_live_parameters
constexpr double dsMaxReuseDistance = 1e9;      // stage3_max_reuse_distance
constexpr double dsPersistenceThreshold = 1e5;  // stage3_param_persistence_threshold
constexpr double dsSubGroupSize = 1e9;          // sub_group_size

// What DeepSpeed ZeRO-3 keeps gathered, walked over the stage's modules in the order the
// coordinator records them (deepspeed/runtime/zero/partitioned_param_coordinator.py). Each
// weight tensor is taken as one module (DeepSpeed fetches per submodule: each Linear holds one
// weight, its bias and its LoRA adapters).
struct DsGathered
{
    double persistent = 0;     // elements of parameters below the persistence threshold
    double keptHead = 0;       // head elements kept gathered from forward into the loss backward
    double keptLayers = 0;     // layer elements kept from forward into backward
    double backwardLayer = 0;  // more of the last layer, gathered for its backward
    double prefetch = 0;       // elements of one prefetch (whole modules up to the bucket)
};

struct DsModule
{
    double all = 0;    // every element (what the reuse distance counts)
    double gather = 0; // elements that are gathered and released (not persistent)
};

DsGathered deepspeedGathered(const StageContext &c)
{
    DsGathered g;
    const auto isPersistent = [](double n) { return n <= dsPersistenceThreshold; };
    const int64_t r = c.lora ? c.t.finetune.loraRank : 0;
    // One module per weight tensor (this rank's share of the experts together: expert
    // parallelism splits them); its LoRA adapters (A: r x in, B: out x r) travel with it.
    // `gather` is counted in compute-dtype elements: a QLoRA base matrix is gathered in its
    // packed 4-bit storage (bitsandbytes Params4bit), nf4BytesPerWeight / compute bytes of one.
    const double computeBytes = c.fp32 ? 4.0 : 2.0;
    const auto moduleOf = [&](const WeightTensor &t) {
        DsModule m;
        const double n = double(t.rows) * double(t.cols);
        const double copies =
            double(t.copies) / (t.place == WeightPlace::Expert ? double(c.ep) : 1.0);
        const double packed = c.qlora && t.quantizable ? nf4BytesPerWeight / computeBytes : 1.0;
        m.all = n * copies;
        m.gather = isPersistent(n) ? 0.0 : n * copies * packed;
        if (r > 0 && t.isMatrix() && isLoraTarget(c.t.finetune, t.loraName)) {
            for (double a : {double(r) * double(t.cols), double(t.rows) * double(r)}) {
                m.all += a * copies;
                if (!isPersistent(a))
                    m.gather += a * copies;
            }
        }
        return m;
    };
    const auto modulesOf = [&](const WeightList &weights) {
        std::vector<DsModule> ms;
        for (const auto &t : weights)
            ms.push_back(moduleOf(t));
        return ms;
    };
    const auto sumOf = [](const std::vector<DsModule> &ms, double DsModule::*f) {
        double s = 0;
        for (const auto &m : ms)
            s += m.*f;
        return s;
    };

    std::vector<DsModule> embedding, head;
    for (const auto &t : c.globals) {
        const bool onStage = t.place == WeightPlace::Embedding ? c.hasEmbedding : c.hasHead;
        if (onStage)
            (t.place == WeightPlace::Embedding ? embedding : head).push_back(moduleOf(t));
    }
    // The stage's layers in forward order: a MoE model's dense layers come first.
    std::vector<const std::vector<DsModule> *> layers;
    const std::vector<DsModule> dense = modulesOf(c.denseLayer), main = modulesOf(c.layer);
    for (long i = 0; i < std::lround(c.denseLayers); ++i)
        layers.push_back(&dense);
    for (long i = 0; i < std::lround(c.mainLayers); ++i)
        layers.push_back(&main);
    const long L = long(layers.size());

    for (const auto *ms : {&embedding, &head})
        g.persistent += sumOf(*ms, &DsModule::all) - sumOf(*ms, &DsModule::gather);
    for (const auto *ms : layers)
        g.persistent += sumOf(*ms, &DsModule::all) - sumOf(*ms, &DsModule::gather);
    if (L == 0)
        return g;

    // Checkpointed layers (activation checkpointing recomputes a layer's forward, its modules
    // included, just before its backward): all of them, or the first recompute_layers.
    const bool full = c.t.recompute == Recompute::Full;
    const long recomputed =
        !full ? 0 : c.t.recomputeLayers < 0 ? L : std::min<long>(L, c.t.recomputeLayers);
    const auto checkpointed = [&](long l) { return l < recomputed; };

    // __params_to_release: a module is not released after its use when its next use comes
    // before max_reuse_distance elements of other modules have been traversed in the trace.
    // Forward: embedding, layers 0..L-1, head; backward: the head, then each layer from the
    // last, recomputed forward first when checkpointed, then in reverse.
    double headAll = sumOf(head, &DsModule::all);
    {
        // The head: its next use is its own backward, right after the loss.
        double after = 0; // elements after the module, traversed forward then backward
        for (auto it = head.rbegin(); it != head.rend(); ++it) {
            if (2 * after < dsMaxReuseDistance)
                g.keptHead += it->gather;
            after += it->all;
        }
    }
    // Elements traversed between a layer module's forward use and its next use.
    std::vector<double> layerAll(size_t(L), 0.0);
    for (long l = 0; l < L; ++l)
        layerAll[size_t(l)] = sumOf(*layers[size_t(l)], &DsModule::all);
    double laterLayers = 0; // forward elements of the layers after layer l
    double laterTurnaround = 0; // their backward (and recomputation) elements
    for (long l = L - 1; l >= 0; --l) {
        const auto &ms = *layers[size_t(l)];
        double before = 0; // elements before the module in its layer
        double keptFwd = 0, keptBwd = 0;
        for (const auto &m : ms) {
            const double after = layerAll[size_t(l)] - before - m.all;
            // Forward to next use: the rest of the forward, the head both ways, the later
            // layers' backward, then either this layer's recomputation up to the module or the
            // backward of the modules after it in this layer.
            const double distance = after + laterLayers + 2 * headAll + laterTurnaround +
                                    (checkpointed(l) ? before : after);
            const bool fromForward = distance < dsMaxReuseDistance;
            if (fromForward)
                keptFwd += m.gather;
            // In the last layer's backward: kept from forward, or kept from its recomputation
            // (next use: its backward, after the backward of the modules after it), or the
            // module being computed (the largest of those fetched one at a time).
            if (l == L - 1 &&
                (fromForward || (checkpointed(l) && 2 * after < dsMaxReuseDistance)))
                keptBwd += m.gather;
            before += m.all;
        }
        g.keptLayers += keptFwd;
        if (l == L - 1) {
            double largest = 0;
            for (const auto &m : ms)
                largest = std::max(largest, m.gather);
            g.backwardLayer = std::max(0.0, std::max(keptBwd, largest) - keptFwd);
        }
        laterLayers += layerAll[size_t(l)];
        laterTurnaround += layerAll[size_t(l)] * (checkpointed(l) ? 2.0 : 1.0);
    }
    // One prefetch: whole modules from the queue until stage3_prefetch_bucket_size elements
    // are in flight (the last module may overshoot it); the largest over where it starts.
    const auto &ms = main.empty() ? dense : main;
    for (size_t start = 0; start < ms.size(); ++start) {
        double sum = 0;
        for (size_t k = 0; k < ms.size() * size_t(L) && sum < dsPrefetchBucket; ++k)
            sum += ms[(start + k) % ms.size()].gather;
        g.prefetch = std::max(g.prefetch, sum);
    }
    return g;
}

} // namespace

void addModelStates(const StageContext &c, ItemSink &out)
{
    const double tp = double(c.tp);
    const double dp = c.shardGroup();
    const bool z1 = c.p.zeroStage >= 1, z2 = c.p.zeroStage >= 2, z3 = c.p.zeroStage >= 3;
    const bool offloadStates = c.p.offloadOptimizer != Offload::None;
    const bool offloadParams = z3 && c.p.offloadParameters != Offload::None;
    const auto fw = c.s.framework;
    // Lightning's BitsandbytesPrecision converts every nn.Linear, the head included (no
    // ignore_modules in LitGPT's finetune scripts); transformers keeps the head in 16 bits.
    const bool headQuantised = c.qlora && fw == Framework::Litgpt;

    const double wb = weightBytes(c);
    const double gb = gradientBytes(c);
    const double sb = stateBytes(c);
    const bool master = mixedMaster(c.t.precision) && !fsdpFp32Shards(c);
    const bool paged = pagedOptimizer(c.t.optimizer);

    // Gradients exist from backward to the optimizer step (zero_grad(set_to_none=True) frees
    // them); with accumulation they also live through the next micro-batches' forward.
    // DeepSpeed ZeRO-3 allocates its flat buffer of gradient partitions (model dtype x
    // parameters / data-parallel ranks) at initialisation and keeps it through every step
    // (deepspeed/runtime/zero/stage3.py, grad_partitions_flat_buffer), like Megatron's main_grad.
    const bool persistentGrads =
        fw == Framework::Megatron || (fw == Framework::Deepspeed && c.p.zeroStage >= 3);
    const unsigned gradLife = persistentGrads                     ? steadyPhases
                              : c.t.gradientAccumulationSteps > 1 ? trainingPhases
                                                                  : gradientPhases;

    LocalSizes size;
    double optimizerElementsBytes = 0; // optimizer bytes before sharding
    double trainable = 0;

    // --- per-layer tensors --------------------------------------------------------------
    double frozenQuantBytes = 0, frozenOtherBytes = 0;
    double largestQuantised = 0; // elements of the largest 4-bit matrix (dequantised per call)
    double optimizerSharded = 0, gradsSharded = 0, masterSharded = 0, paramsTrainable = 0;
    for (const auto &group : c.layerGroups()) {
        const double L = group.count;
        if (!(L > 0))
            continue;
        LayerStateSums &sums = c.shared->states[int(group.kind)];
        if (!sums.ready)
            sums = layerStateSums(c, group.weights);
        const double oneLayer = sums.oneLayer, oneLayerLinear = sums.oneLayerLinear;
        paramsTrainable += sums.paramsTrainable * L;
        trainable += sums.trainable * L;
        optimizerElementsBytes += sums.optimizer * L;
        optimizerSharded += sums.optimizerSharded * L;
        gradsSharded += sums.grads * L;
        masterSharded += sums.master * L;
        frozenQuantBytes += sums.frozenQuant * L;
        frozenOtherBytes += sums.frozenOther * L;
        largestQuantised = std::max(largestQuantised, sums.largestQuantised);
        // The largest layer decides what one gathered layer costs (a MoE layer in a MoE model).
        if (oneLayer > size.oneLayer) {
            size.oneLayer = oneLayer;
            size.oneLayerLinear = oneLayerLinear;
        }
        size.all += oneLayer * L;
        size.linear += oneLayerLinear * L;
    }

    // --- multi-token prediction modules (last stage) ------------------------------------
    // Each is one more decoder layer of the last layer's kind, plus enorm, hnorm, eh_proj
    // (2h -> h) and its output norm; it shares the embedding and the output head (DeepSeek-V3
    // §2.2; megatron/core/transformer/multi_token_prediction.py). Trained like the layers.
    if (c.hasHead && c.t.mtpLayers > 0 && c.full) {
        const LayerKind kind = c.m.isMoeLayer(c.m.layers - 1) ? LayerKind::Moe : LayerKind::Dense;
        const WeightList &weights = kind == LayerKind::Moe || !c.m.isMoe() ? c.layer : c.denseLayer;
        LayerStateSums &sums = c.shared->states[int(kind)];
        if (!sums.ready)
            sums = layerStateSums(c, weights);
        const double h = double(c.m.hiddenSize);
        const double extra = (2 * h * h / tp + 4 * h); // eh_proj, enorm, hnorm, final norm
        const double n = double(c.t.mtpLayers);
        const double perElement = sums.trainable > 0 ? 1.0 / sums.trainable : 0.0;
        // The extras take the layer's average bytes per element (dense, not sharded by EP).
        const double scale = n * (1.0 + extra * perElement);
        paramsTrainable += sums.paramsTrainable * scale;
        trainable += (sums.trainable + extra) * n;
        optimizerElementsBytes += sums.optimizer * scale;
        optimizerSharded += sums.optimizerSharded * scale;
        gradsSharded += sums.grads * scale;
        masterSharded += sums.master * scale;
        size.all += (sums.oneLayer + extra) * n;
    }

    // --- embeddings, final norm, heads ----------------------------------------------------
    for (const auto &t : c.globals) {
        // The last stage keeps its own copy of the token embedding when it ties the head to it
        // or runs the multi-token prediction modules (which embed the shifted tokens).
        const bool embeddingCopy = c.hasHead && c.pp > 1 && t.name == "embed_tokens.weight" &&
                                   (c.m.tiedEmbeddings || c.t.mtpLayers > 0);
        const bool onStage = t.place == WeightPlace::Embedding ? (c.hasEmbedding || embeddingCopy)
                                                               : c.hasHead;
        if (!onStage)
            continue;
        const double n = double(t.elements()) / (t.tensorParallel ? tp : 1.0);
        size.root += n;
        if (t.place == WeightPlace::Embedding)
            size.rootEmbedding += n;
        if (c.full) {
            paramsTrainable += n * wb / (z3 ? dp : 1.0);
            trainable += n;
            const double ob = optimizerBytes(c.t.optimizer, sb, n, t.rows, t.cols, false);
            optimizerElementsBytes += ob;
            optimizerSharded += ob / (z1 ? dp : 1.0);
            gradsSharded += n * gb / (z2 ? dp : 1.0);
            if (master)
                masterSharded += n * 4 / (z1 ? dp : 1.0);
        } else if (headQuantised && t.name == "lm_head.weight") {
            frozenQuantBytes += n * nf4BytesPerWeight / (z3 ? dp : 1.0);
            largestQuantised = std::max(largestQuantised, n);
        } else {
            const double frozen16 = base16BitUnderAutocast(c) ? 2.0 : wb;
            const double bytes = c.t.finetune.baseWeightBits >= 16
                                     ? std::max(double(c.t.finetune.baseWeightBits) / 8.0, frozen16)
                                     : (c.fp32 || (c.amp && frozen16 > 2) ? 4.0 : 2.0);
            frozenOtherBytes += n * bytes / (z3 ? dp : 1.0);
        }
    }
    size.all += size.root;

    // --- LoRA adapters ----------------------------------------------------------------------
    double adapterParamBytes = 0, adapterGradBytes = 0, adapterStateBytes = 0;
    if (c.lora) {
        // PEFT upcasts adapters to fp32 (autocast_adapter_dtype=True); LitGPT and torchtune
        // keep them in the model's dtype.
        const bool peft =
            fw == Framework::Transformers || fw == Framework::Deepspeed || fw == Framework::Pytorch;
        const double ab = peft ? 4.0 : wb;
        const double asb = peft ? 4.0 : sb;
        double n = 0;
        for (const auto &group : c.layerGroups())
            if (group.count > 0)
                n += double(loraParametersPerLayer(c.m, c.t.finetune, group.kind)) / tp *
                     group.count;
        trainable = n;
        adapterParamBytes = n * ab / (z3 ? dp : 1.0);
        adapterGradBytes = n * ab / (z2 ? dp : 1.0);
        const int64_t r = c.t.finetune.loraRank;
        const double ob =
            optimizerBytes(c.t.optimizer, asb, n, r, std::max<int64_t>(2, c.m.hiddenSize), true);
        optimizerElementsBytes = ob;
        adapterStateBytes = ob / (z1 ? dp : 1.0);
        if (mixedMaster(c.t.precision) && !peft && fw != Framework::Torchtitan)
            adapterStateBytes += n * 4 / (z1 ? dp : 1.0);
    }

    // --- emit ---------------------------------------------------------------------------
    constexpr auto P = Component::Parameters;
    constexpr auto G = Component::Gradients;
    constexpr auto O = Component::OptimizerStates;
    constexpr auto T = Component::Temporary;
    const double paramScale = offloadParams ? 0.0 : 1.0;
    // The weights are on the GPU from the model load on (Phase::Initialisation).
    constexpr unsigned loaded = steadyPhases | initialisationPhase;
    if (c.full) {
        out.add(P, "weights", "trainable elements * bytes per weight / shards", "SPEC §2 recipes",
                paramsTrainable * paramScale, 1, loaded);
    } else {
        out.add(P, "frozen base linear weights (quantised)",
                "elements * (0.5 + 1/64 + 4/16384) bytes (NF4, double quantisation)",
                "Dettmers et al. 2023, QLoRA §3", frozenQuantBytes * paramScale, 1, loaded);
        out.add(P, "frozen base weights", "elements * bytes per weight / shards", "SPEC §2 LoRA",
                frozenOtherBytes * paramScale, 1, loaded);
        out.add(P, "LoRA adapters", "rank * (in + out) per target matrix * bytes",
                "Hu et al. 2021 §4; PEFT LoraLayer", adapterParamBytes, 1, loaded);
    }

    const bool gradsOffloaded =
        offloadParams || (offloadStates && fw == Framework::Deepspeed && z1);
    double grads = (c.full ? gradsSharded : adapterGradBytes) * (gradsOffloaded ? 0.0 : 1.0);
    if (c.optimizerInBackward) {
        double largestTensor = 0; // elements of the largest local weight
        for (const auto &group : c.layerGroups())
            for (const auto &t : group.weights)
                largestTensor = std::max(largestTensor, double(t.rows) * double(t.cols) /
                                                            (t.tensorParallel ? tp : 1.0));
        for (const auto &t : c.globals)
            largestTensor =
                std::max(largestTensor, double(t.elements()) / (t.tensorParallel ? tp : 1.0));
        // Each parameter is stepped, and its gradient freed, as soon as backward produces it
        // (torchtune optimizer_in_bwd): one tensor's gradient at a time.
        grads = std::min(grads, largestTensor * gb);
        out.add(G, "gradient of one tensor (optimizer in backward)", "largest tensor * bytes",
                "torchtune optimizer_in_bwd", grads, 1,
                phaseBit(Phase::LayerBackward) | phaseBit(Phase::BackwardEnd));
        grads = 0;
    }
    out.add(G,
            fw == Framework::Megatron && gb == 4 ? "main_grad buffer (fp32, persistent)"
            : fw == Framework::Deepspeed && c.p.zeroStage >= 3
                ? "gradient partitions (flat buffer, persistent)"
                : "gradients",
            "trainable elements * bytes per gradient / shards (from ZeRO-2)",
            fw == Framework::Megatron ? "Megatron distributed/param_and_grad_buffer.py"
                                      : "torch autograd .grad",
            grads, 1, gradLife);
    // DDP's reducer keeps flat buckets beside .grad unless gradient_as_bucket_view=True
    // (torch/nn/parallel/distributed.py).
    const bool ddp = c.dp > 1 && c.p.zeroStage == 0 &&
                     (fw == Framework::Transformers || fw == Framework::Pytorch ||
                      fw == Framework::Litgpt || fw == Framework::Torchtune);
    if (ddp)
        out.add(G, "DDP gradient buckets", "a second copy of the gradients",
                "torch DistributedDataParallel reducer", grads, 1, steadyPhases);

    if (!offloadStates) {
        const double states = c.full ? optimizerSharded : adapterStateBytes;
        out.add(O, paged ? "optimizer states (paged, unified memory)" : "optimizer states",
                "per trainable element: Adam 2 states, SGD+momentum/Lion/Muon 1, 8-bit ~2 B, "
                "Adafactor rows+cols / shards (from ZeRO-1)",
                "SPEC §2 optimizer states", states, 1, steadyPhases, paged);
        if (c.full && master)
            out.add(O, "fp32 master weights", "trainable elements * 4 / shards (from ZeRO-1)",
                    "Micikevicius et al. 2018 §3.1", masterSharded, 1, steadyPhases);
    }

    // --- temporaries tied to the weights ----------------------------------------------------
    const double computeWeightBytes = c.fp32 ? 4.0 : 2.0;
    const bool fabricUnsharded = fw == Framework::Litgpt && z3 && c.dp > 1;
    // torchtitan with pipeline parallelism keeps its whole stage unsharded and its gradients in
    // unsharded accumulators (below): no layer-by-layer gathering to count beside them.
    const bool ppUnsharded = fw == Framework::Torchtitan && z3 && c.pp > 1 && c.full;
    if (fw == Framework::Deepspeed && ((z3 && c.dp > 1) || offloadParams)) {
        // DeepSpeed ZeRO-3 gathers per submodule and releases what is not needed again soon
        // (partitioned_param_coordinator.py): what stays gathered is decided by the defaults
        // of deepspeed/runtime/zero/config.py, walked over the modules (deepspeedGathered).
        const DsGathered g = deepspeedGathered(c);
        const double cb = computeWeightBytes;
        out.add(T, "ZeRO-3 persistent parameters (at most stage3_param_persistence_threshold)",
                "elements of tensors of at most 1e5 elements * compute bytes (norms, biases, "
                "small adapters), unpartitioned on every rank",
                "deepspeed/runtime/zero/parameter_offload.py mark_persistent_parameters",
                g.persistent * cb, 1, steadyPhases);
        out.add(T, "ZeRO-3 head kept gathered into the loss backward (stage3_max_reuse_distance)",
                "head elements * compute bytes (reused within 1e9 elements)",
                "partitioned_param_coordinator.py __params_to_release", g.keptHead * cb, 1,
                phaseBit(Phase::Forward) | phaseBit(Phase::LossBackward));
        out.add(T,
                "ZeRO-3 layer weights kept gathered from forward into backward "
                "(stage3_max_reuse_distance)",
                "modules whose next use (forward, head, later layers' recompute and backward) "
                "comes within 1e9 elements * compute bytes",
                "partitioned_param_coordinator.py __params_to_release", g.keptLayers * cb, 1,
                phaseBit(Phase::Forward) | phaseBit(Phase::LossBackward) |
                    phaseBit(Phase::LayerBackward));
        out.add(T, "ZeRO-3 layer weights gathered for the layer in backward",
                "modules of the layer kept from its recomputation to their backward (within 1e9 "
                "elements), at least its largest module * compute bytes",
                "partitioned_param_coordinator.py fetch_sub_module, __params_to_release",
                g.backwardLayer * cb, 1,
                phaseBit(Phase::LayerBackward) | phaseBit(Phase::BackwardEnd));
        // The prefetch stops where stage3_max_live_parameters gathered elements would be
        // passed (min(max_live - available, prefetch_bucket_size)).
        const double available = g.persistent + g.keptLayers + g.backwardLayer;
        const double room = dsMaxLiveParameters - available;
        const double prefetch = room >= dsPrefetchBucket ? g.prefetch
                                                         : std::min(g.prefetch, std::max(0.0, room));
        out.add(T, "ZeRO-3 prefetched modules (stage3_prefetch_bucket_size)",
                "next modules until 5e7 elements (the last may overshoot), while under "
                "stage3_max_live_parameters 1e9 * compute bytes",
                "partitioned_param_coordinator.py _fetch_sub_module_impl (prefetch)",
                prefetch * cb, 1, computePhases);
        // contiguous_gradients (default true) allocates the reduce bucket at initialisation and
        // keeps it (stage3.py DeepSpeedZeroOptimizer_Stage3.__init__, ipg bucket.buffer); capped
        // at the trainable elements as for ZeRO-1/2 below.
        out.add(T, "ZeRO-3 reduce bucket (contiguous_gradients, persistent)",
                "min(reduce_bucket_size 5e8, trainable) elements * model bytes",
                "deepspeed/runtime/zero/stage3.py __init__ (IPG bucket.buffer)",
                std::min(dsReduceBucket, trainable) * cb, 1, steadyPhases);
        if (c.full) {
            double largest = 0;
            for (const auto &group : c.layerGroups())
                for (const auto &t : group.weights)
                    largest = std::max(largest, double(t.rows) * double(t.cols));
            out.add(T, "gradient of one parameter (before its copy into the reduce bucket)",
                    "largest layer tensor * compute bytes",
                    "stage3.py __add_grad_to_ipg_bucket", largest * cb, 1,
                    phaseBit(Phase::LayerBackward) | phaseBit(Phase::BackwardEnd));
        }
        if (!offloadStates && mixedMaster(c.t.precision))
            // The step flattens each sub-group's 16-bit gradient partition and upcasts it to
            // fp32 for the optimizer (stage3.py _prepare_fp32_grad_for_sub_group).
            out.add(T, "fp32 gradient of one optimizer sub-group (with its 16-bit flat copy)",
                    "min(sub_group_size 1e9, trainable / dp) elements * (2 + 4)",
                    "stage3.py _prepare_fp32_grad_for_sub_group",
                    std::min(dsSubGroupSize, trainable / dp) * (2.0 + 4.0), 1,
                    phaseBit(Phase::OptimizerStep));
    } else if (((z3 && c.dp > 1) || offloadParams) && !fabricUnsharded && !ppUnsharded) {
        // Torch FSDP unshards one layer at a time, in the compute dtype (QLoRA gathers the packed
        // 4-bit storage; torchao's float8 all-gather the linear weights in 1 byte each). How many
        // gathered layers are alive at once, and what the layer's gradients cost before their
        // reduce-scatter, depend on which FSDP runs (fsdpVersionOf; docs/training_stacks.md
        // "FSDP1 against FSDP2"). DeepSpeed ZeRO-3 has its own fetching model above.
        const int fsdp = fsdpVersionOf(c.s);
        const bool float8Gather = c.p.fsdpFloat8AllGather && fsdpFloat8AllGatherApplies(c.s);
        double fp8Elements = 0, fp8Matrices = 0;
        if (float8Gather) {
            // Float8Linear converts the dense linear weights (the `quantizable` tensors; MoE
            // experts are not nn.Linear and stay 16-bit) of the layer that decides one gathered
            // layer's size (the largest kind, as size.oneLayer).
            double largest = -1;
            for (const auto &group : c.layerGroups()) {
                if (!(group.count > 0))
                    continue;
                double one = 0, elements = 0, matrices = 0;
                for (const auto &t : group.weights) {
                    double n = double(t.elements()) / (t.tensorParallel ? tp : 1.0);
                    if (t.place == WeightPlace::Expert)
                        n /= double(c.ep);
                    one += n;
                    if (t.quantizable && t.place != WeightPlace::Expert) {
                        elements += n;
                        matrices += 1;
                    }
                }
                if (one > largest) {
                    largest = one;
                    fp8Elements = elements;
                    fp8Matrices = matrices;
                }
            }
        }
        const double layerBytes =
            c.qlora ? size.oneLayerLinear * nf4BytesPerWeight + (size.oneLayer - size.oneLayerLinear) * 2
            : float8Gather
                ? fp8Elements * 1.0 + (size.oneLayer - fp8Elements) * computeWeightBytes +
                      fp8Matrices * 4.0
                : size.oneLayer * computeWeightBytes;
        const char *layerFormula =
            float8Gather ? "(float8 linear elements * 1 + other elements * compute bytes + 4 per "
                           "linear weight (its scale))"
                         : "layer elements * compute bytes";
        const unsigned layerBackward = phaseBit(Phase::LayerBackward) | phaseBit(Phase::BackwardEnd);
        if (fsdp == 1) {
            // FSDP1 all-gathers into the flat parameter's padded unsharded buffer, which the
            // layer's parameters view, and frees it at reshard (_flat_param.py
            // FlatParamHandle.unshard / _free_unsharded_flat_param): with forward_prefetch off
            // (the default of torch, accelerate and HF Trainer) one layer in forward.
            out.add(T, "gathered layer weights (FSDP1 flat parameter of the current layer)",
                    layerFormula,
                    "torch FSDP1 _flat_param.py FlatParamHandle.unshard (_full_param_padded)",
                    layerBytes, 1, phaseBit(Phase::Forward) | layerBackward | evaluationPhases,
                    false, true);
            // backward_prefetch BACKWARD_PRE: the default of torch's FullyShardedDataParallel (the
            // next layer is all-gathered in the current one's pre-backward, the last layer in the
            // root's) and of `accelerate config` (commands/config/cluster.py; the fsdp.yaml
            // template). HF Trainer's fsdp_config without an accelerate config says NO_PREFETCH
            // (one layer fewer in backward), which is not modelled.
            out.add(T, "prefetched layer weights (FSDP1 backward_prefetch BACKWARD_PRE)",
                        layerFormula, "torch FSDP1 _runtime_utils.py _prefetch_handle (BACKWARD)",
                        layerBytes, 1, phaseBit(Phase::LossBackward) | layerBackward, false,
                        true);
        } else if (fsdp == 2) {
            // FSDP2 all-gathers into one flat buffer and copies out into per-parameter tensors
            // (_fsdp_collectives.py foreach_all_gather / foreach_all_gather_copy_out). In forward
            // the buffer is freed only after the next layer's copy-out (comm_ctx.all_gather_state,
            // "Overlapping all-gather copy-in and all-gather"; the root's post-forward frees the
            // last one); in backward each layer's pre-backward prefetches the layer before it
            // (FSDPParamGroup._backward_prefetch), the root's the last layer.
            out.add(T, "gathered layer weights (current layer)", layerFormula,
                    float8Gather ? "torch FSDP2 _fsdp_param_group.py wait_for_unshard (copy-out); "
                                   "torchao float8/fsdp_utils.py WeightWithDynamicFloat8CastTensor"
                                 : "torch FSDP2 _fsdp_param_group.py wait_for_unshard (copy-out)",
                    // Copied out of the all-gather buffer on the compute stream
                    // (wait_for_unshard): not the collective stream's pool.
                    layerBytes, 1, computePhases);
            out.add(T, "all-gather buffer of a second layer (FSDP2: forward overlap, backward "
                       "prefetch)",
                    layerFormula,
                    float8Gather ? "torch FSDP2 _fsdp_param_group.py wait_for_unshard "
                                   "(all_gather_state), _backward_prefetch; torchao "
                                   "float8/fsdp_utils.py fsdp_pre_all_gather"
                                 : "torch FSDP2 _fsdp_param_group.py wait_for_unshard "
                                   "(all_gather_state), _backward_prefetch",
                    layerBytes, 1, phaseBit(Phase::Forward) | layerBackward | evaluationPhases,
                    false, true);
        } else {
            out.add(T, "gathered layer weights (current + prefetched)",
                    "2 layers * layer elements * compute bytes", "torch FSDP",
                    layerBytes, 2, computePhases, false, true);
        }
        // The root unit (embeddings, final norm, head) stays gathered from forward into backward
        // (FSDP1 never reshards the root after forward; FSDP2 sets the root's
        // post_forward_mesh_info to None in FSDPState._lazy_init). The all-gather writes into a
        // buffer of the full unsharded size beside the local shard, which stays allocated
        // (FSDP1 FlatParamHandle._full_param_padded). Torch FSDP reshards the root only in its
        // post-backward hook, which waits for the embedding's gradient at the very end of
        // backward, so the root stays gathered through every layer's backward.
        // torchtitan from 0.2 (83e6941, 2025-07-28) shards the embeddings and [norm, output]
        // as units of their own: the embeddings are resharded after their forward and
        // gathered again for their backward at the end; norm and output stay gathered from the
        // end of forward through the loss backward, after which their gradients are
        // reduce-scattered (models/llama3/infra/parallelize.py apply_fsdp).
        const bool splitRoot = fw == Framework::Torchtitan && c.s.frameworkVersion.atLeast(0, 2) &&
                               !c.m.tiedEmbeddings;
        if (splitRoot) {
            out.add(T, "gathered norm and output head (their own FSDP unit)",
                    "(root - embeddings) elements * compute bytes",
                    "torchtitan apply_fsdp fully_shard([norm, output])",
                    (size.root - size.rootEmbedding) * computeWeightBytes, 1,
                    phaseBit(Phase::Forward) | phaseBit(Phase::LossBackward));
            out.add(T, "gathered token embeddings (their own FSDP unit)",
                    "embedding elements * compute bytes",
                    "torchtitan apply_fsdp fully_shard(tok_embeddings)",
                    size.rootEmbedding * computeWeightBytes, 1, phaseBit(Phase::BackwardEnd));
        } else {
            out.add(T, "gathered embeddings and head (root unit)", "root elements * compute bytes",
                    "torch FSDP root unit (flat_param_handle.py _full_param_padded; "
                    "_fsdp_state.py _lazy_init)",
                    size.root * computeWeightBytes, 1,
                    // Megatron's own FSDP (no torch FSDP version) keeps the earlier reading:
                    // gathered from forward into the loss backward only.
                    fsdp != 0 ? computePhases
                              : phaseBit(Phase::Forward) | phaseBit(Phase::LossBackward));
        }
        if (c.full && fsdp != 0 && !splitRoot && c.hasHead && !c.m.tiedEmbeddings)
            // The head's unsharded gradient, produced by the loss backward, waits in the root's
            // gradient until the root's post-backward reduce-scatter at the end of backward
            // (FSDP1: the flat parameter's AccumulateGrad; FSDP2: FSDPParamGroup.post_backward).
            out.add(G, "unsharded head gradient (root unit, until the end of backward)",
                    "vocab * hidden / tp * compute bytes", "torch FSDP root post-backward",
                    double(c.m.vocabSize) * double(c.m.hiddenSize) / tp * computeWeightBytes, 1,
                    phaseBit(Phase::LayerBackward) | phaseBit(Phase::BackwardEnd));
        // torchtitan reduces in fp32 (MixedPrecisionPolicy reduce_dtype=float32); accelerate
        // reduces in the compute dtype (FullyShardedDataParallelPlugin.set_mixed_precision:
        // reduce_dtype=dtype); fully_shard's default MixedPrecisionPolicy (reduce_dtype None)
        // reduces in the gradients' dtype, the compute dtype too.
        const double reduceBytes = fw == Framework::Torchtitan ? 4.0 : computeWeightBytes;
        if (c.full && fsdp == 0) {
            out.add(T, "unsharded gradients of one layer (before reduce-scatter)",
                    "layer elements * reduce bytes", "torch FSDP post-backward",
                    size.oneLayer * reduceBytes, 1, layerBackward);
        } else if (c.full) {
            // Autograd writes the layer's gradients in the compute dtype (the gathered weights'
            // dtype) until the layer's post-backward hook reduce-scatters them.
            out.add(T, "unsharded gradients of one layer (before reduce-scatter)",
                    "layer elements * compute bytes",
                    fsdp == 1 ? "torch FSDP1 _runtime_utils.py _post_backward_hook (flat_param.grad)"
                              : "torch FSDP2 _fsdp_param_group.py post_backward (unsharded_grads)",
                    size.oneLayer * computeWeightBytes, 1, layerBackward);
            if (fsdp == 1)
                // The parameters are views of the flat parameter (torch.split in
                // FlatParamHandle._get_unflat_views), so autograd concatenates their gradients
                // into one flat gradient (SplitWithSizesBackward) while they are still alive; the
                // hook then reshards the layer before any cast to the reduce dtype, and the
                // reduce-scattered gradient is freed under recordStream (_no_dispatch_record_stream):
                // out of torch.cuda.memory_allocated as soon as the hook returns.
                out.add(T, "flat gradient of one layer (FSDP1: its views' gradients concatenated)",
                        "layer elements * compute bytes",
                        "torch FSDP1 _flat_param.py _get_unflat_views (torch.split); "
                        "_runtime_utils.py _post_backward_hook",
                        size.oneLayer * computeWeightBytes, 1, layerBackward);
            else
                // foreach_reduce copies the gradients into a reduce-scatter input of the reduce
                // dtype and returns it; post_backward keeps it in comm_ctx.reduce_scatter_state
                // until the next layer's post-backward frees it (deterministic freeing instead of
                // recordStream): one such buffer is alive through each layer's backward.
                out.add(T,
                        "reduce-scatter input of the previous layer (FSDP2, held until this "
                        "layer's post-backward)",
                        "layer elements * reduce bytes",
                        "torch FSDP2 _fsdp_collectives.py foreach_reduce; _fsdp_param_group.py "
                        "post_backward (reduce_scatter_state)",
                        size.oneLayer * reduceBytes, 1, layerBackward);
        }
    }
    if (c.amp && !z3 && !base16BitUnderAutocast(c)) {
        // autocast casts each fp32 weight to 16 bits, and linear saves the copy for backward
        // (torch/amp/autocast_mode.py). A trainable weight's copy is cached for the whole
        // region; a frozen one (LoRA) is cast again on every call (the cache takes only leaves
        // that require grad), so LitGPT's LoRA scripts, which run the head in chunks of 128
        // tokens (model(input_ids, lm_head_chunk_size=128)), keep one head copy per chunk.
        // bitsandbytes' 4-bit linears dequantise inside their own matmul and keep no copy.
        const bool headPerChunk = !c.full && fw == Framework::Litgpt;
        const double headCopies =
            headPerChunk ? std::ceil(double(c.t.sequenceLength) / 128.0) : 1.0;
        const double castElements =
            (c.qlora ? 0.0 : size.linear) +
            (c.hasHead && !headQuantised ? double(c.m.vocabSize) * c.m.hiddenSize / tp * headCopies
                                         : 0);
        out.add(T, "autocast 16-bit weight copies",
                headPerChunk ? "(linear + head * ceil(s/128)) elements * 2"
                             : "linear weight elements * 2",
                "torch.autocast cached_cast", castElements * 2, 1,
                phaseBit(Phase::Forward) | phaseBit(Phase::LossBackward) |
                    phaseBit(Phase::LayerBackward));
    }
    const Family f = c.m.family;
    if (c.m.isMoe() && c.hfModelCode() && !c.fp32 && !c.amp && // autocast's cast otherwise
        (f == Family::DeepseekV3 || f == Family::DeepseekV2 || f == Family::Glm4Moe))
        // DeepSeek's router runs F.linear(x.float(), weight.float()): each MoE layer keeps an
        // fp32 copy of its router weight for backward (modeling_deepseek_v3.py
        // DeepseekV3TopkRouter; CPU-measured, tests/data/measured detail.weight_copies_bytes).
        out.add(T, "router weights cast to fp32 (kept for backward)", "E*h*4 per MoE layer",
                "transformers DeepseekV3TopkRouter.forward",
                double(c.m.moe.experts) * double(c.m.hiddenSize) * 4, c.mainLayers * c.inFlight,
                phaseBit(Phase::Forward) | phaseBit(Phase::LossBackward) |
                    phaseBit(Phase::LayerBackward));
    if (c.m.isMoe() && c.amp && c.hfModelCode() && f == Family::GptOss) {
        // GptOssExperts multiplies by self.gate_up_proj[e] and self.down_proj[e]: slices are not
        // leaves, so autocast casts them on every call instead of caching, and the matmul keeps
        // the 16-bit copy for backward: every expert a token reached, in every MoE layer
        // (CPU-measured, tests/data/measured detail.weight_copies_bytes).
        const double experts = std::min(double(c.m.moe.experts) / double(c.ep),
                                         c.tokens * double(c.m.moe.expertsPerToken));
        const double ffn = double(c.m.moe.expertFfnHiddenSize > 0 ? c.m.moe.expertFfnHiddenSize
                                                                  : c.m.ffnHiddenSize);
        out.add(T, "expert weight slices cast by autocast (kept for backward)",
                "experts reached * 3*h*f*2 per MoE layer", "transformers GptOssExperts.forward",
                experts * 3 * double(c.m.hiddenSize) * ffn / double(c.tp) * 2,
                c.mainLayers * c.inFlight,
                phaseBit(Phase::Forward) | phaseBit(Phase::LossBackward) |
                    phaseBit(Phase::LayerBackward));
    }
    if (c.qlora)
        // MatMul4Bit dequantises its weight to 16 bits for each call, forward and backward, and
        // frees it after the matmul (bitsandbytes/autograd/_functions.py): one matrix at a time.
        out.add(T, "4-bit weight dequantised for its matmul", "largest 4-bit matrix * 2",
                "bitsandbytes MatMul4Bit; torchao linear_nf4", largestQuantised * 2, 1,
                computePhases);
    if (c.t.precision == Precision::Fp8Mixed && fw != Framework::Torchtitan)
        // Transformer Engine caches an fp8 copy and its transpose of every GEMM weight.
        out.add(T, "fp8 weight copies and transposes", "linear weight elements * 2",
                "Transformer Engine Float8 weight cache", size.linear * 2, 1, steadyPhases);
    if (fw == Framework::Deepspeed && c.p.zeroStage >= 1 && c.p.zeroStage <= 2 && c.dp > 1) {
        // setup_buckets allocates reduce_bucket_size elements (5e8 by default,
        // deepspeed/runtime/zero/config.py) in the model dtype at the first gradient of a
        // backward, a second one only with overlap_comm (default off below stage 3), and
        // ipg_epilogue releases it at the end of backward (stage_1_and_2.py).
        // The code allocates the whole bucket; it is capped here at the trainable elements
        // (what a bucket can ever hold) so that no ZeRO stage holds more than a lower one for
        // a model smaller than the bucket (tests/core/tst_laws.cpp).
        out.add(T, "ZeRO reduce bucket", "min(reduce_bucket_size 5e8, trainable) elements * model bytes",
                "deepspeed/runtime/zero/stage_1_and_2.py setup_buckets",
                std::min(dsReduceBucket, trainable) * computeWeightBytes, 1,
                phaseBit(Phase::LayerBackward) | phaseBit(Phase::BackwardEnd));
        if (!offloadStates && mixedMaster(c.t.precision))
            // step() flattens the partition's 16-bit gradients and upcasts them to fp32
            // (single_partition_of_fp32_groups[i].grad), before it frees the 16-bit ones.
            out.add(T, "fp32 gradient partition (with its 16-bit flat copy)",
                    "trainable / dp elements * (2 + 4)",
                    "deepspeed/runtime/zero/stage_1_and_2.py step (single_grad_partition)",
                    trainable / dp * (2.0 + 4.0), 1, phaseBit(Phase::OptimizerStep));
    }
    if (ppUnsharded) {
        // With pipeline parallelism torchtitan does not reshard after forward (each stage runs
        // many micro-batches), and FSDP2 accumulates unsharded gradients across micro-batches in
        // the reduce dtype, fp32, until the last one syncs (fully_shard(reshard_after_forward=
        // not pp); FSDPParam.to_accumulated_grad_if_needed).
        out.add(T, "unsharded stage weights kept across micro-batches", "stage elements * 2",
                "torchtitan parallelize (PP: reshard_after_forward=False)", size.all * 2, 1,
                computePhases);
        out.add(G, "unsharded fp32 gradient accumulators (PP micro-batches)", "stage elements * 4",
                "torch FSDP2 unsharded_accumulated_grad", size.all * 4, 1, computePhases);
    }
    if (fabricUnsharded) {
        // LitGPT trains through Lightning Fabric's FSDPStrategy (FSDP1, use_orig_params): frozen
        // weights are never resharded after backward, so a LoRA run keeps the whole unsharded
        // 16-bit base resident (SPEC §2); the published full fine-tunes on 4 GPUs peak a full
        // 16-bit model copy above their sharded states too (litgpt config_hub benchmarks).
        // FSDP1 keeps its local shard beside the unsharded copy, so this is the one layout where
        // a higher ZeRO stage holds more than a lower one (docs/accuracy.md, tst_laws).
        const double unsharded = (c.qlora ? size.linear * nf4BytesPerWeight : size.linear * 2) +
                                 (size.all - size.linear) * 2;
        out.add(P, "unsharded 16-bit weights held by FSDP1 (Fabric)", "all local elements * 2",
                "torch FSDP1 frozen-parameter resharding; litgpt benchmarks", unsharded, 1,
                c.lora ? steadyPhases : computePhases);
    }
    if (!offloadStates && !c.optimizerInBackward && foreachTemporaries(c)) {
        const double shard = z1 ? dp : 1.0;
        out.add(T, "foreach optimizer intermediates", "trainable elements * state bytes / shards",
                "torch/optim/adamw.py _multi_tensor_adamw",
                trainable * (c.lora && fw == Framework::Transformers ? 4.0 : sb) / shard, 1,
                phaseBit(Phase::OptimizerStep));
    }
    if (c.t.optimizer == Optimizer::Adafactor && !offloadStates) {
        // HF Adafactor updates one tensor at a time through fp32 copies of the gradient, its
        // square and the update: about three fp32 copies of the largest tensor.
        double largest = 0;
        for (const auto &t : c.globals)
            largest = std::max(largest, double(t.elements()) / (t.tensorParallel ? tp : 1.0));
        for (const auto &group : c.layerGroups())
            for (const auto &t : group.weights)
                largest = std::max(largest,
                                   double(t.rows) * double(t.cols) / (t.tensorParallel ? tp : 1.0));
        out.add(T, "Adafactor step buffers", "3 * largest tensor * 4",
                "transformers/optimization.py Adafactor.step", 3 * largest * 4, 1,
                phaseBit(Phase::OptimizerStep));
    }
    (void)optimizerElementsBytes;
}

} // namespace vramplan
