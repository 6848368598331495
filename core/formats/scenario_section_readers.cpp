// Reading a scenario file's `training`, `parallelism`, `gpu` and `calibration` sections, and
// the constraints between sections (checkLayout, and checkScenario for the window).

#include "formats/scenario_json.h"

#include "catalog.h"
#include "formats/json_reader.h"
#include "formats/scenario_readers.h"

#include <cmath>

namespace vramplan {
namespace scenario_json_internal {

using nlohmann::json;

// A section given as null counts as absent, like a null field inside a section.
bool present(const json &document, const char *key)
{
    return document.contains(key) && !document[key].is_null();
}

bool readTraining(const json &document, TrainingConfig &t, std::string &error)
{
    if (!present(document, "training"))
        return true;
    JsonReader r(document["training"], "training", error);
    r.enumeration("mode", t.mode);
    r.integer("micro_batch_size", t.microBatchSize, 1, maxBatch);
    r.integer("sequence_length", t.sequenceLength, 1, maxSequence);
    r.integer("gradient_accumulation_steps", t.gradientAccumulationSteps, 1, maxBatch);
    r.enumeration("precision", t.precision);
    r.enumeration("optimizer", t.optimizer);
    r.enumeration("activation_recompute", t.recompute);
    r.integer("recompute_layers", t.recomputeLayers, 0, maxLayers);
    r.integer("mtp_layers", t.mtpLayers, 0, 16);
    r.enumeration("loss", t.loss);
    r.boolean("compile", t.compile);
    r.boolean("compile_loss", t.compileLoss);
    r.boolean("grouped_gemm", t.groupedGemm);
    r.enumeration("kernels", t.kernels);
    r.enumeration("linear_kernels", t.linearKernels);
    r.enumeration("loop", t.loop);
    r.enumeration("optimizer_implementation", t.optimizerImplementation);
    r.enumeration("attention", t.attention);
    r.number("dropout", t.dropout, 0.0, 0.99);
    if (const json *ft = r.object("finetune")) {
        JsonReader fr(*ft, "training.finetune", error);
        fr.enumeration("method", t.finetune.method);
        fr.integer("lora_rank", t.finetune.loraRank, 1, 1 << 16);
        fr.stringList("lora_targets", t.finetune.loraTargets);
        // QLoRA stores its base in 4 bits unless the file says otherwise.
        if (t.finetune.method == FinetuneMethod::Qlora)
            t.finetune.baseWeightBits = 4;
        fr.integer("base_weight_bits", t.finetune.baseWeightBits, 4, 32);
        fr.number("lora_dropout", t.finetune.loraDropout, 0.0, 0.99);
        fr.enumeration("lora_adapter_dtype", t.finetune.loraAdapterDtype);
        fr.finish();
        const int64_t bits = t.finetune.baseWeightBits;
        if (error.empty() && bits != 4 && bits != 8 && bits != 16 && bits != 32)
            return fr.fail("training.finetune.base_weight_bits",
                           "must be 4, 8, 16 or 32, got " + std::to_string(bits));
    }
    if (const json *op = r.object("optimizer_precision")) {
        JsonReader pr(*op, "training.optimizer_precision", error);
        auto &o = t.optimizerPrecision;
        pr.enumeration("master_weights", o.masterWeights);
        pr.enumeration("gradients", o.gradients);
        pr.enumeration("exp_avg", o.expAvg);
        pr.enumeration("exp_avg_sq", o.expAvgSq);
        pr.finish();
    }
    if (const json *vi = r.object("vision")) {
        JsonReader vr(*vi, "training.vision", error);
        auto &v = t.vision;
        vr.integer("images_per_sample", v.imagesPerSample, 0, 1 << 16);
        vr.integer("image_tokens", v.imageTokens, 0, maxSequence);
        vr.boolean("train_tower", v.trainTower);
        if (vr.has("image_size")) {
            const json &size = (*vi)["image_size"];
            vr.accept("image_size");
            if (!size.is_array() || size.size() != 2 || !size[0].is_number_integer() ||
                !size[1].is_number_integer() || size[0].get<int64_t>() < 1 ||
                size[1].get<int64_t>() < 1 || size[0].get<int64_t>() > (1 << 16) ||
                size[1].get<int64_t>() > (1 << 16))
                return vr.fail("training.vision.image_size",
                               "must be [height, width] in pixels (1 to 65536 each), got " +
                                   describeJson(size));
            v.imageHeight = size[0].get<int64_t>();
            v.imageWidth = size[1].get<int64_t>();
        }
        vr.finish();
        if (error.empty() && v.imagesPerSample > 0 && v.imageHeight == 0 && v.imageTokens == 0)
            return vr.fail("training.vision",
                           "images_per_sample needs image_size [h, w] or image_tokens");
    }
    r.finish();
    return r.ok();
}

bool readParallelism(const json &document, ParallelConfig &p, std::string &error)
{
    if (!present(document, "parallelism"))
        return true;
    JsonReader r(document["parallelism"], "parallelism", error);
    r.integer("gpus", p.gpus, 1, maxGpus);
    r.integer("tensor_parallel", p.tensorParallel, 1, maxParallel);
    r.integer("pipeline_parallel", p.pipelineParallel, 1, maxParallel);
    r.integer("virtual_pipeline_parallel", p.virtualPipelineParallel, 1, maxParallel);
    r.boolean("sequence_parallel", p.sequenceParallel);
    r.integer("context_parallel", p.contextParallel, 1, maxParallel);
    r.integer("expert_parallel", p.expertParallel, 1, maxParallel);
    r.integer("zero_stage", p.zeroStage, 0, 3);
    r.integer("fsdp_version", p.fsdpVersion, 1, 2);
    r.boolean("fsdp_float8_all_gather", p.fsdpFloat8AllGather);
    r.enumeration("offload_optimizer", p.offloadOptimizer);
    r.enumeration("offload_parameters", p.offloadParameters);
    r.finish();
    return r.ok();
}

bool readGpu(const json &document, GpuConfig &g, std::string &error)
{
    if (!present(document, "gpu"))
        return true;
    JsonReader r(document["gpu"], "gpu", error);
    std::string preset;
    if (r.string("preset", preset, 128)) {
        const auto *spec = Catalog::builtin().gpu(preset);
        if (!spec)
            return r.fail("gpu.preset", "unknown GPU '" + preset +
                                            "' (known: " + Catalog::builtin().gpuIds() + ")");
        g.preset = preset;
        g.name = spec->name;
        g.architecture = spec->architecture;
        g.memoryGiB = spec->memoryMiB / 1024.0;
    }
    double gib = 0;
    // A capacity that differs from the preset's makes it a custom card of that size.
    if (r.number("memory_gib", gib, 0.0, 1.0e6, true) &&
        (g.preset.empty() || std::abs(gib - g.memoryGiB) > 1.0))
        g.memoryGiB = gib;
    r.string("name", g.name, 256);
    r.string("architecture", g.architecture, 64);
    r.finish();
    return r.ok();
}

// What the user measured and the terms fitted to it (calibration.h); absent in most files.
bool readCalibration(const json &document, Calibration &c, std::string &error)
{
    if (!present(document, "calibration"))
        return true;
    JsonReader r(document["calibration"], "calibration", error);
    c.present = true;
    if (!r.enumeration("metric", c.metric) && r.ok())
        return r.fail("calibration.metric", "is missing (allocated, reserved or device)");
    if (!r.number("measured_bytes", c.measuredBytes, 0.0, 1.0e15, true) && r.ok())
        return r.fail("calibration.measured_bytes", "is missing");
    r.number("activation_scale", c.activationScale, 0.05, 20.0);
    r.number("overhead_bytes", c.overheadBytes, -1.0e15, 1.0e15);
    r.finish();
    return r.ok();
}

// Constraints between sections: the layout must fit the GPU count and the model's shapes.
bool checkLayout(const Scenario &s, std::string &error)
{
    const auto &p = s.parallelism;
    const auto &m = s.model;
    auto fail = [&](const std::string &field, const std::string &problem) {
        error = field + ": " + problem;
        return false;
    };
    const int64_t modelParallel = p.tensorParallel * p.pipelineParallel * p.contextParallel;
    if (modelParallel > p.gpus || p.gpus % modelParallel != 0)
        return fail("parallelism.gpus",
                    std::to_string(p.gpus) +
                        " is not a multiple of tensor_parallel x pipeline_parallel x "
                        "context_parallel = " +
                        std::to_string(modelParallel));
    if (m.attentionHeads % p.tensorParallel != 0)
        return fail("parallelism.tensor_parallel",
                    std::to_string(p.tensorParallel) + " does not divide the " +
                        std::to_string(m.attentionHeads) + " attention heads");
    if (m.kvHeads % p.tensorParallel != 0 && p.tensorParallel % m.kvHeads != 0)
        return fail("parallelism.tensor_parallel",
                    std::to_string(p.tensorParallel) + " and the " + std::to_string(m.kvHeads) +
                        " key/value heads do not divide one another");
    if (p.pipelineParallel > m.layers)
        return fail("parallelism.pipeline_parallel", std::to_string(p.pipelineParallel) +
                                                         " stages for " + std::to_string(m.layers) +
                                                         " layers");
    if (p.virtualPipelineParallel > 1 &&
        (p.pipelineParallel == 1 || p.pipelineParallel * p.virtualPipelineParallel > m.layers))
        return fail("parallelism.virtual_pipeline_parallel",
                    "needs pipeline_parallel > 1 and at most one layer per virtual stage (" +
                        std::to_string(m.layers) + " layers)");
    if (p.expertParallel > 1) {
        if (!m.isMoe())
            return fail("parallelism.expert_parallel", "needs a mixture-of-experts model");
        if (m.moe.experts % p.expertParallel != 0)
            return fail("parallelism.expert_parallel",
                        std::to_string(p.expertParallel) + " does not divide the " +
                            std::to_string(m.moe.experts) + " experts");
        if (p.dataParallel() % p.expertParallel != 0)
            return fail("parallelism.expert_parallel",
                        std::to_string(p.expertParallel) +
                            " does not divide the data-parallel size " +
                            std::to_string(p.dataParallel()));
    }
    if (s.training.recomputeLayers > m.layers)
        return fail("training.recompute_layers", "must not exceed the " + std::to_string(m.layers) +
                                                     " layers, got " +
                                                     std::to_string(s.training.recomputeLayers));
    if (s.training.finetune.method != FinetuneMethod::Full &&
        s.training.finetune.loraTargets.empty())
        return fail("training.finetune.lora_targets", "must name at least one layer for LoRA");
    // Kimi Linear's modeling_kimi.py runs KDA through flash-linear-attention only; transformers'
    // own torch_chunk_kda keeps pairwise decays per key channel that the GDN torch terms miss.
    if (s.training.linearKernels == LinearKernels::Torch && m.linear.perChannelGate &&
        m.layerMixers.find('l') != std::string::npos)
        return fail("training.linear_kernels",
                    "torch is not modelled for Kimi Delta Attention: Kimi Linear's "
                    "modeling_kimi.py has no torch path (it calls flash-linear-attention's "
                    "chunk_kda), and transformers' torch_chunk_kda keeps chunk x chunk decays per "
                    "key channel; use fla");
    return true;
}

} // namespace scenario_json_internal

using namespace scenario_json_internal;

std::string checkScenario(const Scenario &s)
{
    std::string error;
    const auto &m = s.model;
    if (m.attentionHeads % m.kvHeads != 0)
        return "model.kv_heads: " + std::to_string(m.kvHeads) +
               " does not divide attention_heads " + std::to_string(m.attentionHeads);
    if (m.isMoe() && m.moe.expertsPerToken > m.moe.experts)
        return "model.moe.experts_per_token: must not exceed experts (" +
               std::to_string(m.moe.experts) + ")";
    if (std::string problem = modelConsistency(m); !problem.empty())
        return problem;
    // A release the parser refused (the window's field marks it with a negative major).
    if (s.frameworkVersion.given && s.frameworkVersion.major < 0)
        return "framework_version: expected a release such as \"4.57\" or \"" +
               std::string(toString(s.framework)) + " 4.57\"";
    if (s.serving.present && s.serving.engineVersion.given && s.serving.engineVersion.major < 0)
        return "serving.engine_version: expected a release such as \"0.21\" or \"" +
               std::string(toString(s.serving.engine)) + " 0.21\"";
    if (s.rl.present() && s.rl.frameworkVersion.given && s.rl.frameworkVersion.major < 0)
        return "rl.framework_version: expected a release such as \"0.5\" or \"" +
               std::string(toString(s.rl.framework)) + " 0.5\"";
    checkLayout(s, error);
    return error;
}

} // namespace vramplan
