// Writing a Scenario back to a scenario file (scenarioToJson): every field spelled out, the
// newer fields only where they matter.

#include "formats/scenario_json.h"

#include "formats/enum_names.h"
#include "formats/scenario_readers.h"
#include "formats/serving_json.h"

namespace vramplan {
namespace {

using nlohmann::json;

// The Hugging Face model types of 2024-2026, whose defaults for the newer fields differ from
// the struct's (applyFamilyDefaults).
bool newerFamily(Family f)
{
    return f >= Family::Qwen3;
}

} // namespace

json scenarioToJson(const Scenario &s)
{
    const auto &m = s.model;
    json model = {{"family", toString(m.family)},
                  {"layers", m.layers},
                  {"hidden_size", m.hiddenSize},
                  {"attention_heads", m.attentionHeads},
                  {"kv_heads", m.kvHeads},
                  {"head_dim", m.headDim},
                  {"ffn_hidden_size", m.ffnHiddenSize},
                  {"ffn_type", toString(m.ffnType)},
                  {"hidden_act", toString(m.activation)},
                  {"vocab_size", m.vocabSize},
                  {"norm", toString(m.norm)},
                  {"tied_embeddings", m.tiedEmbeddings},
                  {"bias", m.bias},
                  {"qkv_bias", m.qkvBias},
                  {"lm_head_bias", m.lmHeadBias},
                  {"max_positions", m.maxPositions},
                  {"positions", toString(m.positions)},
                  {"parallel_block", m.parallelBlock},
                  {"norms_per_layer", m.normsPerLayer},
                  {"token_types", m.tokenTypes},
                  {"pooler", m.pooler},
                  {"head", toString(m.head)},
                  {"classifier_labels", m.classifierLabels}};
    if (!m.preset.empty())
        model["preset"] = m.preset;
    if (!m.name.empty())
        model["name"] = m.name;
    if (m.isMoe()) {
        const MoeConfig d;
        model["moe"] = {{"experts", m.moe.experts},
                        {"experts_per_token", m.moe.expertsPerToken},
                        {"expert_ffn_hidden_size", m.moe.expertFfnHiddenSize},
                        {"shared_experts", m.moe.sharedExperts}};
        // Fields of the 2024-2026 layouts are written only where they differ from the default
        // (older families' files stay as they were), and always for the newer families, whose
        // defaults are not the struct's.
        json &moe = model["moe"];
        const bool all = newerFamily(m.family);
        if (all || m.moe.sharedExpertFfnHiddenSize != d.sharedExpertFfnHiddenSize)
            moe["shared_expert_ffn_hidden_size"] = m.moe.sharedExpertFfnHiddenSize;
        if (all || m.moe.denseLayers != d.denseLayers)
            moe["dense_layers"] = m.moe.denseLayers;
        if (all || m.moe.layerStep != d.layerStep)
            moe["layer_step"] = m.moe.layerStep;
        if (all || m.moe.routerBias != d.routerBias)
            moe["router_bias"] = m.moe.routerBias;
        if (all || m.moe.expertBias != d.expertBias)
            moe["expert_bias"] = m.moe.expertBias;
        if (all || m.moe.scoreCorrectionBias != d.scoreCorrectionBias)
            moe["score_correction_bias"] = m.moe.scoreCorrectionBias;
        if (all || m.moe.normalizeTopK != d.normalizeTopK)
            moe["normalize_top_k"] = m.moe.normalizeTopK;
        if (all || m.moe.router != d.router)
            moe["router"] = toString(m.moe.router);
        if (all || m.moe.imbalance != d.imbalance)
            moe["imbalance"] = m.moe.imbalance;
        if (all || m.moe.capacityFactor != d.capacityFactor)
            moe["capacity_factor"] = m.moe.capacityFactor;
        if (m.moe.sharedExpertGate)
            moe["shared_expert_gate"] = true;
        if (m.moe.latentSize > 0)
            moe["latent_size"] = m.moe.latentSize;
        if (m.moe.denseBesideExperts)
            moe["dense_beside_experts"] = true;
    }
    if (m.isMla())
        model["mla"] = {{"q_lora_rank", m.mla.qLoraRank},
                        {"kv_lora_rank", m.mla.kvLoraRank},
                        {"qk_rope_head_dim", m.mla.qkRopeHeadDim},
                        {"qk_nope_head_dim", m.mla.qkNopeHeadDim},
                        {"v_head_dim", m.mla.vHeadDim}};
    const bool newer = newerFamily(m.family);
    if (newer || m.oBias)
        model["o_bias"] = m.oBias;
    if (newer || m.qkNorm != QkNorm::None)
        model["qk_norm"] = toString(m.qkNorm);
    if (m.slidingWindow > 0) {
        model["sliding_window"] = m.slidingWindow;
        model["sliding_layers"] = m.slidingLayers;
    }
    if (m.attentionSoftcap > 0)
        model["attention_softcap"] = m.attentionSoftcap;
    if (m.finalSoftcap > 0)
        model["final_softcap"] = m.finalSoftcap;
    if (newer || m.attentionSinks)
        model["attention_sinks"] = m.attentionSinks;
    if (m.mtpLayers > 0)
        model["mtp_layers"] = m.mtpLayers;
    scenario_json_internal::writeLayerKinds(m, model);
    const auto &t = s.training;
    const auto &ft = t.finetune;
    const auto &p = s.parallelism;
    json out = {{"format", "vramplan-scenario"},
                {"version", scenarioFormatVersion},
                {"name", s.name},
                {"model", model},
                {"training",
                 {{"mode", toString(t.mode)},
                  {"micro_batch_size", t.microBatchSize},
                  {"sequence_length", t.sequenceLength},
                  {"gradient_accumulation_steps", t.gradientAccumulationSteps},
                  {"precision", toString(t.precision)},
                  {"optimizer", toString(t.optimizer)},
                  {"activation_recompute", toString(t.recompute)},
                  {"attention", toString(t.attention)},
                  {"dropout", t.dropout},
                  {"finetune",
                   {{"method", toString(ft.method)},
                    {"lora_rank", ft.loraRank},
                    {"lora_targets", ft.loraTargets},
                    {"base_weight_bits", ft.baseWeightBits},
                    {"lora_dropout", ft.loraDropout}}}}},
                {"parallelism",
                 {{"gpus", p.gpus},
                  {"tensor_parallel", p.tensorParallel},
                  {"pipeline_parallel", p.pipelineParallel},
                  {"virtual_pipeline_parallel", p.virtualPipelineParallel},
                  {"sequence_parallel", p.sequenceParallel},
                  {"context_parallel", p.contextParallel},
                  {"expert_parallel", p.expertParallel},
                  {"zero_stage", p.zeroStage},
                  {"offload_optimizer", toString(p.offloadOptimizer)},
                  {"offload_parameters", toString(p.offloadParameters)}}},
                {"framework", toString(s.framework)},
                {"gpu", {{"memory_gib", s.gpu.memoryGiB}, {"name", s.gpu.name}}}};
    if (t.recomputeLayers >= 0)
        out["training"]["recompute_layers"] = t.recomputeLayers;
    if (t.mtpLayers > 0)
        out["training"]["mtp_layers"] = t.mtpLayers;
    if (t.loss != LossKind::Standard)
        out["training"]["loss"] = toString(t.loss);
    if (t.compile)
        out["training"]["compile"] = true;
    if (!t.compileLoss)
        out["training"]["compile_loss"] = false;
    if (t.groupedGemm)
        out["training"]["grouped_gemm"] = true;
    if (t.kernels != Kernels::None)
        out["training"]["kernels"] = toString(t.kernels);
    if (t.finetune.loraAdapterDtype != LoraAdapterDtype::Auto)
        out["training"]["finetune"]["lora_adapter_dtype"] = toString(t.finetune.loraAdapterDtype);
    if (t.loop != TrainingLoop::Custom)
        out["training"]["loop"] = toString(t.loop);
    if (t.optimizerImplementation != OptimizerImplementation::Auto)
        out["training"]["optimizer_implementation"] = toString(t.optimizerImplementation);
    if (const OptimizerPrecision &o = t.optimizerPrecision; o.present()) {
        json precision = json::object();
        if (o.masterWeights != MasterDtype::Auto)
            precision["master_weights"] = toString(o.masterWeights);
        if (o.gradients != GradientDtype::Auto)
            precision["gradients"] = toString(o.gradients);
        if (o.expAvg != StateDtype::Auto)
            precision["exp_avg"] = toString(o.expAvg);
        if (o.expAvgSq != StateDtype::Auto)
            precision["exp_avg_sq"] = toString(o.expAvgSq);
        out["training"]["optimizer_precision"] = precision;
    }
    if (t.vision.present() || t.vision.trainTower) {
        json vision = {{"images_per_sample", t.vision.imagesPerSample},
                       {"train_tower", t.vision.trainTower}};
        if (t.vision.imageHeight > 0)
            vision["image_size"] = {t.vision.imageHeight, t.vision.imageWidth};
        else
            vision["image_tokens"] = t.vision.imageTokens;
        out["training"]["vision"] = vision;
    }
    // Said wherever layers other than attention could read it.
    if (t.linearKernels != LinearKernels::Fla || m.layerMixers.find_first_of("lmcp") != std::string::npos)
        out["training"]["linear_kernels"] = toString(t.linearKernels);
    if (p.fsdpVersion > 0)
        out["parallelism"]["fsdp_version"] = p.fsdpVersion;
    if (p.fsdpFloat8AllGather)
        out["parallelism"]["fsdp_float8_all_gather"] = true;
    if (s.frameworkVersion.given)
        out["framework_version"] = frameworkVersionText(s.frameworkVersion);
    if (!s.gpu.preset.empty())
        out["gpu"]["preset"] = s.gpu.preset;
    if (!s.gpu.architecture.empty())
        out["gpu"]["architecture"] = s.gpu.architecture;
    if (const auto &c = s.calibration; c.present)
        out["calibration"] = {{"metric", toString(c.metric)},
                              {"measured_bytes", c.measuredBytes},
                              {"activation_scale", c.activationScale},
                              {"overhead_bytes", c.overheadBytes}};
    if (s.serving.present)
        out["serving"] = servingToJson(s.serving);
    if (s.rl.present())
        out["rl"] = scenario_json_internal::rlToJson(s.rl);
    return out;
}

} // namespace vramplan
