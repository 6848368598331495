// Torch FSDP's buffers beside the sharded states: the gathered layers of FSDP1 and FSDP2, the
// root unit, the unsharded gradients before their reduce-scatter (docs/training_stacks.md
// "FSDP1 against FSDP2"), and the unsharded copies torchtitan's pipeline stages and Lightning
// Fabric keep.

#include "training/capabilities.h"
#include "training/model_states.h"

namespace vramplan {

void addFsdpBuffers(const StageContext &c, const StatesSetup &k, const StateTotals &totals,
                    ItemSink &out)
{
    const double tp = k.tp;
    const auto fw = k.fw;
    const double computeWeightBytes = k.computeWeightBytes;
    const LocalSizes &size = totals.size;
    constexpr auto G = Component::Gradients;
    constexpr auto T = Component::Temporary;
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
            for (const auto &t : *group.weights) {
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

void addUnshardedCopies(const StageContext &c, const StatesSetup &k, const StateTotals &totals,
                        ItemSink &out)
{
    const bool fabricUnsharded = k.fabricUnsharded;
    const bool ppUnsharded = k.ppUnsharded;
    const LocalSizes &size = totals.size;
    constexpr auto P = Component::Parameters;
    constexpr auto G = Component::Gradients;
    constexpr auto T = Component::Temporary;
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
}

} // namespace vramplan
