// A vision-language model's tower in a training step: the patches of the micro-batch's images
// (training.vision) through its blocks and merger, on the first pipeline stage. A frozen tower
// (the default: train_tower false) runs without autograd, so it keeps nothing for backward, only
// one block's tensors at a time in forward; a trained one keeps each block's like a layer.
// Attention inside the tower runs per image with SDPA or FlashAttention (no s^2 scores).

#include "training/stage_context.h"

#include <algorithm>

namespace vramplan {

void addVisionTower(const StageContext &c, ItemSink &out)
{
    const VisionConfig &v = c.m.vision;
    const VisionInputs &in = c.t.vision;
    if (!c.vision || !in.present() || !v.present())
        return;
    const ImagePatches image = imagePatches(c.m, in);
    const double patches = image.patches * double(in.imagesPerSample) * c.microBatch;
    if (!(patches > 0))
        return;
    const double hv = double(v.hiddenSize), i = double(v.intermediateSize);
    const double cb = c.act, heads = double(v.heads);
    // One block per patch: the two norms' inputs and outputs with their statistics, q, k and v,
    // the attention output and its logsumexp, o_proj's input (Qwen3-VL and Qwen3.5 concatenate
    // the images' outputs into a new tensor: measured, tests/measure/vision_blocks.py), and the
    // MLP's intermediates (Qwen2.5-VL's gated MLP: gate, up, SiLU and product; the others: fc1
    // and GELU outputs). The Qwen2.5-VL and Gemma 4 blocks are read from their code, not
    // measured.
    const bool qwen3Tower = v.tower == VisionTower::Qwen3Vl;
    const double mlp = v.tower == VisionTower::Qwen25Vl ? 4 * i : 2 * i;
    const double perPatch = cb * (hv * (qwen3Tower ? 9 : 8) + mlp) + heads * 4 + 16;
    // The merger per image token: its norm's input and output (and Qwen3's LayerNorm statistics
    // per patch) and its first linear's output and activation over the merged width.
    const double mergeArea = double(v.spatialMerge * v.spatialMerge);
    const double merged = hv * mergeArea;
    const double perToken = cb * merged * 4 + (qwen3Tower ? mergeArea * 8 : 0.0);
    const double tokens = image.tokens * double(in.imagesPerSample) * c.microBatch;
    constexpr unsigned saved =
        phaseBit(Phase::Forward) | phaseBit(Phase::LossBackward) | phaseBit(Phase::LayerBackward);
    if (c.full && in.trainTower) {
        out.add(Component::Activations, "vision tower blocks' saved tensors (trained tower)",
                "patches * ((9 Qwen3-VL, 8 others)*hv + MLP intermediates)*c per block",
                "transformers vision towers (Qwen2_5_VisionTransformer, Qwen3VLVisionModel, "
                "Gemma4VisionModel)",
                patches * perPatch * c.inFlight, double(v.depth), saved);
        out.add(Component::Activations, "vision merger's saved tensors (trained tower)",
                "image tokens * (4 * hv*merge^2 * c + merge^2 * 8)", "transformers PatchMerger",
                tokens * perToken,
                c.inFlight, saved);
    } else {
        out.add(Component::Temporary, "vision tower: one block's tensors (frozen, no autograd)",
                "patches * (8*hv + MLP intermediates)*c",
                "autograd records nothing for frozen weights and image inputs", patches * perPatch,
                1, phaseBit(Phase::Forward));
    }
}

} // namespace vramplan
