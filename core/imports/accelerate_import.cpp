// Accelerate's config YAML (`accelerate config`, `accelerate launch --config_file`): the GPU
// count, the engine (DeepSpeed and its inline ZeRO settings, FSDP, DDP) and mixed precision.
// Keys as huggingface/accelerate writes them (src/accelerate/commands/config/config_args.py,
// src/accelerate/utils/dataclasses.py: DeepSpeedPlugin, FullyShardedDataParallelPlugin). Read
// after the trainer's arguments: the engine decides what its precision means.

#include "imports/import_draft.h"

#include "json_value_text.h"

namespace vramplan::imports {

void importAccelerate(ConfigDoc &doc, Draft &draft)
{
    if (const auto n = doc.takeInt("num_processes", 1, 65536)) {
        draft.fileGpus = *n;
        draft.fileGpusOrigin = doc.origin("num_processes");
        if (draft.options.gpus > 0 && draft.options.gpus != *n)
            draft.warn(doc.origin("num_processes") + " " + std::to_string(*n) +
                       " differs from --gpus " + std::to_string(draft.options.gpus) +
                       "; --gpus is planned");
    }
    doc.use("num_machines");
    const std::string type = doc.takeString("distributed_type").value_or("NO");
    const std::string mixed = doc.takeString("mixed_precision").value_or("no");
    if (mixed != "no" && mixed != "bf16" && mixed != "fp16" && mixed != "fp8")
        doc.fail("mixed_precision", "must be no, bf16, fp16 or fp8, got '" + mixed + "'");
    const std::string origin = doc.origin("mixed_precision");
    if (type == "DEEPSPEED") {
        draft.set("framework", "deepspeed", doc.origin("distributed_type"));
        if (const auto stage = doc.takeInt("deepspeed_config.zero_stage", 0, 3))
            draft.set("parallelism.zero_stage", *stage,
                      doc.origin("deepspeed_config.zero_stage"));
        for (const auto &[key, path] :
             {std::pair{"deepspeed_config.offload_optimizer_device", "offload_optimizer"},
              std::pair{"deepspeed_config.offload_param_device", "offload_parameters"}})
            if (const auto device = doc.takeString(key)) {
                if (*device != "none" && *device != "cpu" && *device != "nvme")
                    doc.fail(key, "must be none, cpu or nvme, got '" + *device + "'");
                draft.set(std::string("parallelism.") + path, *device, doc.origin(key));
            }
        if (const auto accum = doc.takeInt("deepspeed_config.gradient_accumulation_steps", 1,
                                           1 << 20))
            draft.set("training.gradient_accumulation_steps", *accum,
                      doc.origin("deepspeed_config.gradient_accumulation_steps"));
        noteDeepSpeedReference(doc, "deepspeed_config.deepspeed_config_file", draft);
        // DeepSpeedPlugin sets bf16.enabled / fp16.enabled from mixed_precision.
        if (mixed == "bf16" || mixed == "fp16")
            draft.set("training.precision", mixed == "bf16" ? "bf16_mixed" : "fp16_mixed",
                      origin + " (the DeepSpeed engine's " + mixed + " with fp32 master weights)");
    } else if (type == "FSDP") {
        importFsdp(doc, "fsdp", "fsdp_config", draft);
        if (!draft.has("parallelism.zero_stage"))
            draft.set("parallelism.zero_stage", 3, doc.origin("distributed_type"));
        // FSDP's own activation checkpointing of every wrapped layer, whatever the trainer's
        // gradient_checkpointing (FullyShardedDataParallelPlugin.activation_checkpointing).
        if (doc.takeBool("fsdp_config.fsdp_activation_checkpointing").value_or(false))
            draft.set("training.activation_recompute", "full",
                      doc.origin("fsdp_config.fsdp_activation_checkpointing"));
        // FullyShardedDataParallelPlugin's MixedPrecision: fp32 shards, 16-bit compute.
        if (mixed == "bf16" || mixed == "fp16")
            draft.set("training.precision", mixed == "bf16" ? "bf16_mixed" : "fp16_mixed",
                      origin + " (FSDP MixedPrecision: fp32 sharded weights, " + mixed +
                          " compute)");
    } else if (type == "MULTI_GPU" || type == "NO") {
        // The Trainer defers to Accelerate when its own bf16/fp16 are off (their defaults).
        const DraftField *before = draft.field("training.precision");
        const bool trainerDefault =
            !before || before->origin.rfind("transformers default", 0) == 0;
        if (trainerDefault && (mixed == "bf16" || mixed == "fp16"))
            draft.set("training.precision", mixed == "bf16" ? "amp_bf16" : "amp_fp16",
                      origin + " (autocast)");
    } else {
        doc.fail("distributed_type", "'" + type + "' is not an engine the planner models "
                                                  "(DEEPSPEED, FSDP, MULTI_GPU, NO)");
    }
    if (mixed == "fp8")
        draft.set("training.precision", "fp8_mixed", origin);
}

} // namespace vramplan::imports
