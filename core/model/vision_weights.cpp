// The vision tower and projector a vision-language checkpoint loads beside its language model,
// as the transformers classes named below build them (rotary tables and other buffers are not
// parameters).

#include "model/weight_builders.h"

#include <algorithm>
#include <cmath>

namespace vramplan {
namespace {

constexpr auto V = WeightPlace::Vision;

// A vision linear with its bias (every linear of the Qwen towers has one).
void addVisionLinear(WeightList &out, std::string_view name, int64_t in, int64_t outF, bool bias,
                     int64_t copies)
{
    out.push_back({name, {}, V, outF, in, copies, false, false});
    if (bias)
        out.push_back({"(bias)", {}, V, outF, 1, copies, false, false});
}

// Qwen2_5_VisionTransformerPretrainedModel: a Conv3d patch embedding without bias; blocks of two
// RMSNorms, qkv and proj with biases, a gated MLP with biases; Qwen2_5_VLPatchMerger (ln_q, two
// linears over merge^2 patches).
void addQwen25Tower(WeightList &out, const VisionConfig &v)
{
    const int64_t hv = v.hiddenSize, d = v.depth, i = v.intermediateSize;
    const int64_t merged = hv * v.spatialMerge * v.spatialMerge;
    out.push_back({"visual.patch_embed.proj.weight", {}, V, hv,
                   v.inChannels * v.temporalPatchSize * v.patchSize * v.patchSize, 1, false,
                   false});
    out.push_back({"visual.blocks.norm1/norm2.weight", {}, V, 2 * hv, 1, d, false, false});
    addVisionLinear(out, "visual.blocks.attn.qkv.weight", hv, 3 * hv, true, d);
    addVisionLinear(out, "visual.blocks.attn.proj.weight", hv, hv, true, d);
    addVisionLinear(out, "visual.blocks.mlp.gate_proj.weight", hv, i, true, d);
    addVisionLinear(out, "visual.blocks.mlp.up_proj.weight", hv, i, true, d);
    addVisionLinear(out, "visual.blocks.mlp.down_proj.weight", i, hv, true, d);
    out.push_back({"visual.merger.ln_q.weight", {}, V, hv, 1, 1, false, false});
    addVisionLinear(out, "visual.merger.mlp.0.weight", merged, merged, true, 1);
    addVisionLinear(out, "visual.merger.mlp.2.weight", merged, v.outHiddenSize, true, 1);
}

// Qwen3VLVisionModel (and Qwen3_5VisionModel): a Conv3d patch embedding with bias, a learned
// position table, blocks of two LayerNorms, qkv and proj, linear_fc1/fc2 with biases; the
// merger (LayerNorm over the hidden width, two linears) and the deepstack mergers (LayerNorm
// over the merged width).
void addQwen3Tower(WeightList &out, const VisionConfig &v)
{
    const int64_t hv = v.hiddenSize, d = v.depth, i = v.intermediateSize;
    const int64_t merged = hv * v.spatialMerge * v.spatialMerge;
    addVisionLinear(out, "visual.patch_embed.proj.weight",
                    v.inChannels * v.temporalPatchSize * v.patchSize * v.patchSize, hv, true, 1);
    out.push_back({"visual.pos_embed.weight", {}, V, v.positionEmbeddings, hv, 1, false, false});
    out.push_back({"visual.blocks.norm1/norm2 (weight, bias)", {}, V, 4 * hv, 1, d, false, false});
    addVisionLinear(out, "visual.blocks.attn.qkv.weight", hv, 3 * hv, true, d);
    addVisionLinear(out, "visual.blocks.attn.proj.weight", hv, hv, true, d);
    addVisionLinear(out, "visual.blocks.mlp.linear_fc1.weight", hv, i, true, d);
    addVisionLinear(out, "visual.blocks.mlp.linear_fc2.weight", i, hv, true, d);
    const int64_t mergers = 1 + v.deepstackMergers;
    out.push_back({"visual.merger.norm (weight, bias)", {}, V, 2 * hv, 1, 1, false, false});
    if (v.deepstackMergers > 0)
        out.push_back({"visual.deepstack_merger_list.norm (weight, bias)", {}, V, 2 * merged, 1,
                       v.deepstackMergers, false, false});
    addVisionLinear(out, "visual.merger.linear_fc1.weight", merged, merged, true, mergers);
    addVisionLinear(out, "visual.merger.linear_fc2.weight", merged, v.outHiddenSize, true,
                    mergers);
}

// Gemma4VisionModel: a patch projection without bias, a two-axis position table; blocks of
// q, k, v, o without bias, q/k norms over the head width (v_norm has no weight), a gated MLP and
// four RMSNorms; Gemma4MultimodalEmbedder's projection to the language model (no bias).
void addGemma4Tower(WeightList &out, const VisionConfig &v)
{
    const int64_t hv = v.hiddenSize, d = v.depth, i = v.intermediateSize;
    const int64_t headDim = v.headDim > 0 ? v.headDim : hv / v.heads;
    out.push_back({"vision_tower.patch_embedder.input_proj.weight", {}, V, hv,
                   v.inChannels * v.patchSize * v.patchSize, 1, false, false});
    out.push_back({"vision_tower.position_embedding_table", {}, V, 2 * v.positionEmbeddings, hv,
                   1, false, false});
    for (const auto *name : {"vision_tower.layers.q_proj.weight", "vision_tower.layers.k_proj.weight",
                             "vision_tower.layers.v_proj.weight"})
        addVisionLinear(out, name, hv, v.heads * headDim, false, d);
    addVisionLinear(out, "vision_tower.layers.o_proj.weight", v.heads * headDim, hv, false, d);
    out.push_back({"vision_tower.layers.q_norm/k_norm.weight", {}, V, 2 * headDim, 1, d, false,
                   false});
    addVisionLinear(out, "vision_tower.layers.mlp.gate_proj.weight", hv, i, false, d);
    addVisionLinear(out, "vision_tower.layers.mlp.up_proj.weight", hv, i, false, d);
    addVisionLinear(out, "vision_tower.layers.mlp.down_proj.weight", i, hv, false, d);
    out.push_back({"vision_tower.layers norms (4)", {}, V, 4 * hv, 1, d, false, false});
    addVisionLinear(out, "embed_vision.embedding_projection.weight", hv, v.outHiddenSize, false,
                    1);
}

} // namespace

WeightList visionWeights(const ModelConfig &m)
{
    WeightList out;
    const VisionConfig &v = m.vision;
    if (!v.present())
        return out;
    switch (v.tower) {
    case VisionTower::Qwen25Vl:
        addQwen25Tower(out, v);
        break;
    case VisionTower::Qwen3Vl:
        addQwen3Tower(out, v);
        break;
    case VisionTower::Gemma4:
        addGemma4Tower(out, v);
        break;
    case VisionTower::None:
        break;
    }
    return out;
}

ImagePatches imagePatches(const ModelConfig &m, const VisionInputs &in)
{
    ImagePatches out;
    const VisionConfig &v = m.vision;
    if (!v.present() || !in.present())
        return out;
    if (v.tower == VisionTower::Gemma4) {
        // Gemma4VisionModel pools 3 x 3 patches into one soft token, 280 an image by default.
        constexpr double pool = 9, maxTokens = 280;
        if (in.imageHeight > 0) {
            const double patches = double((in.imageHeight + v.patchSize - 1) / v.patchSize) *
                                   double((in.imageWidth + v.patchSize - 1) / v.patchSize);
            out.tokens = std::min(maxTokens, std::ceil(patches / pool));
        } else {
            out.tokens = double(in.imageTokens);
        }
        out.patches = out.tokens * pool;
        return out;
    }
    const double merge = double(v.spatialMerge * v.spatialMerge);
    if (in.imageHeight > 0) {
        const auto side = [&](int64_t pixels) {
            const double factor = double(v.patchSize * v.spatialMerge);
            return std::max(1.0, std::round(double(pixels) / factor));
        };
        out.tokens = side(in.imageHeight) * side(in.imageWidth);
    } else {
        out.tokens = double(in.imageTokens);
    }
    out.patches = out.tokens * merge;
    return out;
}

} // namespace vramplan
