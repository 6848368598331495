// torchtune recipe YAML (pytorch/torchtune recipes/configs/). Meanings from its code at commit
// bd2a0fc (2026-04): `dtype: bf16` is pure bf16 (weights, gradients and optimizer states,
// torchtune/training/precision.py); LoRA's own module names (q_proj, k_proj, v_proj,
// output_proj; apply_lora_to_mlp adapts w1, w2, w3; torchtune/modules/peft/lora.py); the
// distributed recipes shard with FSDP2 fully_shard (recipes/full_finetune_distributed.py,
// recipes/lora_finetune_distributed.py); LinearCrossEntropyLoss and CEWithChunkedOutputLoss
// compute the loss over chunks (torchtune/modules/loss/).

#include "imports/import_draft.h"

#include "json_value_text.h"

namespace vramplan::imports {

// The preset of a torchtune model builder (model_source.cpp), "" when none is bundled.
std::string presetOfTorchtuneBuilder(const std::string &builder);

namespace {

// torchtune's LoRA module names in the scenario's (Hugging Face) names.
std::string hfModuleName(const std::string &name)
{
    if (name == "output_proj")
        return "o_proj";
    return name; // q_proj, k_proj, v_proj are the same
}

} // namespace

void importTorchtune(ConfigDoc &doc, Draft &draft)
{
    draft.set("framework", "torchtune", doc.file() + " (a torchtune recipe config)");
    const auto component = doc.takeString("model._component_");
    if (!component)
        doc.fail("model._component_", "a torchtune config names its model builder here");
    std::string builder = component->substr(component->rfind('.') + 1);
    const bool qlora = builder.rfind("qlora_", 0) == 0;
    const bool lora = qlora || builder.rfind("lora_", 0) == 0;
    if (lora)
        builder = builder.substr(builder.find('_') + 1);
    draft.modelName = *component;
    draft.modelOrigin = doc.origin("model._component_");
    draft.modelWhere = doc.where("model._component_");
    draft.modelPreset = presetOfTorchtuneBuilder(builder);
    doc.use("checkpointer");
    doc.use("tokenizer._component_");
    doc.use("tokenizer.path");

    if (lora) {
        draft.set("training.finetune.method", qlora ? "qlora" : "lora",
                  doc.origin("model._component_"));
        if (qlora)
            draft.set("training.finetune.base_weight_bits", 4,
                      doc.origin("model._component_") + " (NF4 base, torchao)");
        if (const auto rank = doc.takeInt("model.lora_rank", 1, 1 << 16))
            draft.set("training.finetune.lora_rank", *rank, doc.origin("model.lora_rank"));
        std::vector<std::string> targets;
        if (const nlohmann::json *attn = doc.take("model.lora_attn_modules"))
            for (const auto &name : loraTargetsFrom(*attn, doc, "model.lora_attn_modules"))
                targets.push_back(hfModuleName(name));
        if (doc.takeBool("model.apply_lora_to_mlp").value_or(false))
            for (const char *name : {"gate_proj", "down_proj", "up_proj"}) // w1, w2, w3
                targets.push_back(name);
        if (doc.takeBool("model.apply_lora_to_output").value_or(false))
            targets.push_back("lm_head");
        if (!targets.empty())
            draft.set("training.finetune.lora_targets", targets,
                      doc.origin("model.lora_attn_modules") + ", model.apply_lora_to_mlp " +
                          "(torchtune names: output_proj = o_proj; w1, w2, w3 = gate, down, up)");
        if (const auto dropout = doc.take("model.lora_dropout"); dropout && dropout->is_number())
            draft.set("training.finetune.lora_dropout", dropout->get<double>(),
                      doc.origin("model.lora_dropout"));
        doc.use("model.lora_alpha");
    }

    if (const auto batch = doc.takeInt("batch_size", 1, 1 << 20))
        draft.set("training.micro_batch_size", *batch, doc.origin("batch_size"));
    if (const auto accum = doc.takeInt("gradient_accumulation_steps", 1, 1 << 20))
        draft.set("training.gradient_accumulation_steps", *accum,
                  doc.origin("gradient_accumulation_steps"));
    if (const auto len = doc.takeInt("tokenizer.max_seq_len", 1, int64_t(1) << 30))
        draft.set("training.sequence_length", *len,
                  doc.origin("tokenizer.max_seq_len") + " (an upper bound unless packed)");
    else
        draft.warn(doc.file() + ": tokenizer.max_seq_len is null: samples keep their length; "
                                "the sequence length is vramplan's default");

    if (const auto dtype = doc.takeString("dtype")) {
        if (*dtype == "bf16")
            draft.set("training.precision", "bf16",
                      doc.origin("dtype") + " (pure bf16: weights, gradients, optimizer states)");
        else if (*dtype == "fp32")
            draft.set("training.precision", "fp32", doc.origin("dtype"));
        else
            doc.fail("dtype", "'" + *dtype + "' is not a torchtune training dtype (bf16, fp32)");
    }
    if (const auto ac = doc.takeBool("enable_activation_checkpointing"))
        draft.set("training.activation_recompute", *ac ? "full" : "none",
                  doc.origin("enable_activation_checkpointing"));
    if (doc.takeBool("enable_activation_offloading").value_or(false))
        draft.warn(doc.origin("enable_activation_offloading") +
                   ": activations moved to the CPU are not modelled");
    if (const auto compile = doc.takeBool("compile"))
        draft.set("training.compile", *compile, doc.origin("compile"));
    if (const auto loss = doc.takeString("loss._component_")) {
        if (loss->find("LinearCrossEntropyLoss") != std::string::npos ||
            loss->find("CEWithChunkedOutputLoss") != std::string::npos)
            draft.set("training.loss", "chunked", doc.origin("loss._component_"));
    }

    if (const auto opt = doc.takeString("optimizer._component_")) {
        static const std::pair<const char *, const char *> table[] = {
            {"torch.optim.AdamW", "adamw"},
            {"torch.optim.Adam", "adam"},
            {"torch.optim.SGD", "sgd"},
            {"bitsandbytes.optim.PagedAdamW8bit", "paged_adamw_8bit"},
            {"bitsandbytes.optim.PagedAdamW", "paged_adamw"},
            {"bitsandbytes.optim.AdamW8bit", "adamw_8bit"},
            {"torchao.optim.AdamW8bit", "adamw_8bit"},
            {"torchao.prototype.low_bit_optim.AdamW8bit", "adamw_8bit"},
        };
        bool known = false;
        for (const auto &[name, value] : table)
            if (*opt == name) {
                draft.set("training.optimizer", value, doc.origin("optimizer._component_"));
                known = true;
            }
        if (!known)
            draft.warn(doc.origin("optimizer._component_") + ": '" + *opt +
                       "' is not an optimizer the planner models; the optimizer is not imported");
        if (const auto fused = doc.takeBool("optimizer.fused"); fused && *fused)
            draft.set("training.optimizer_implementation", "fused",
                      doc.origin("optimizer.fused"));
    }
    if (doc.takeBool("optimizer_in_bwd").value_or(false))
        draft.warn(doc.origin("optimizer_in_bwd") +
                   ": the optimizer step fused into backward is not modelled");

    // More than one GPU runs a distributed recipe: FSDP2 over every GPU.
    const bool offload = doc.takeBool("fsdp_cpu_offload").value_or(false);
    const auto reshard = doc.takeBool("fsdp_reshard_after_forward");
    doc.use("custom_sharded_layers");
    if (draft.gpuCount() > 1) {
        const std::string origin = "--gpus > 1: torchtune's distributed recipes shard with "
                                   "FSDP2 (recipes/full_finetune_distributed.py)";
        draft.set("parallelism.zero_stage", reshard.value_or(true) ? 3 : 2,
                  reshard ? doc.origin("fsdp_reshard_after_forward") : origin);
        draft.set("parallelism.fsdp_version", 2, origin);
        if (offload) {
            draft.set("parallelism.offload_parameters", "cpu", doc.origin("fsdp_cpu_offload"));
            draft.set("parallelism.offload_optimizer", "cpu", doc.origin("fsdp_cpu_offload"));
        }
    }
    if (const auto tp = doc.takeInt("tensor_parallel_dim", 1, 1 << 16))
        draft.set("parallelism.tensor_parallel", *tp, doc.origin("tensor_parallel_dim"));
}

} // namespace vramplan::imports
