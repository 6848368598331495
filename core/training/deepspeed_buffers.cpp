// DeepSpeed's buffers beside the sharded states: what ZeRO-3 keeps gathered, walked over the
// stage's modules with the defaults of deepspeed/runtime/zero/config.py, its reduce bucket and
// the step's fp32 sub-group gradient; ZeRO-1/2's reduce bucket and fp32 partition.

#include "training/model_states.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace vramplan {
namespace {

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
        if (r > 0 && !t.loraName.empty() && isLoraTarget(c.t.finetune, t.loraName)) {
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
    // The stage's layers in forward order: a MoE model's dense layers come first (the groups
    // from the last; a hybrid model's kinds are walked kind by kind, not interleaved).
    std::vector<std::vector<DsModule>> kinds;
    for (const auto &group : c.layerGroups())
        kinds.push_back(modulesOf(*group.weights));
    std::vector<const std::vector<DsModule> *> layers;
    for (size_t k = kinds.size(); k-- > 0;)
        for (long i = 0; i < std::lround(c.layerGroups()[k].count); ++i)
            layers.push_back(&kinds[k]);
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
    const auto &ms = kinds[0];
    for (size_t start = 0; start < ms.size(); ++start) {
        double sum = 0;
        for (size_t k = 0; k < ms.size() * size_t(L) && sum < dsPrefetchBucket; ++k)
            sum += ms[(start + k) % ms.size()].gather;
        g.prefetch = std::max(g.prefetch, sum);
    }
    return g;
}

} // namespace

void addDeepspeedZero3Buffers(const StageContext &c, const StatesSetup &k,
                              const StateTotals &totals, ItemSink &out)
{
    const double dp = k.dp;
    const bool offloadStates = k.offloadStates;
    const double computeWeightBytes = k.computeWeightBytes;
    const double trainable = totals.trainable;
    constexpr auto T = Component::Temporary;
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
            for (const auto &t : *group.weights)
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
}

void addDeepspeedReduceBucket(const StageContext &c, const StatesSetup &k,
                              const StateTotals &totals, ItemSink &out)
{
    // setup_buckets allocates reduce_bucket_size elements (5e8 by default,
    // deepspeed/runtime/zero/config.py) in the model dtype at the first gradient of a
    // backward, a second one only with overlap_comm (default off below stage 3), and
    // ipg_epilogue releases it at the end of backward (stage_1_and_2.py).
    // The code allocates the whole bucket; it is capped here at the trainable elements
    // (what a bucket can ever hold) so that no ZeRO stage holds more than a lower one for
    // a model smaller than the bucket (tests/core/tst_laws.cpp).
    out.add(Component::Temporary, "ZeRO reduce bucket",
            "min(reduce_bucket_size 5e8, trainable) elements * model bytes",
            "deepspeed/runtime/zero/stage_1_and_2.py setup_buckets",
            std::min(dsReduceBucket, totals.trainable) * k.computeWeightBytes, 1,
            phaseBit(Phase::LayerBackward) | phaseBit(Phase::BackwardEnd));
    if (!k.offloadStates && mixedMaster(c.t.precision))
        // step() flattens the partition's 16-bit gradients and upcasts them to fp32
        // (single_partition_of_fp32_groups[i].grad), before it frees the 16-bit ones.
        out.add(Component::Temporary, "fp32 gradient partition (with its 16-bit flat copy)",
                "trainable / dp elements * (2 + 4)",
                "deepspeed/runtime/zero/stage_1_and_2.py step (single_grad_partition)",
                totals.trainable / k.dp * (2.0 + 4.0), 1, phaseBit(Phase::OptimizerStep));
}

} // namespace vramplan
