// LLaMA-Factory YAML (hiyouga/LLaMA-Factory, `llamafactory-cli train FILE`). Defaults and rules
// from its code at commit ff6d4d1 (2026-08): src/llamafactory/hparams/finetuning_args.py
// (finetuning_type lora, lora_rank 8, lora_target all, pure_bf16), data_args.py (cutoff_len
// 2048), model_args.py (disable_gradient_checkpointing false: checkpointing on by default,
// quantization_bit), src/llamafactory/model/adapter.py (trainable parameters cast to fp32 unless
// pure_bf16). The Trainer's own keys as transformers defines them (training_args.py).

#include "imports/import_draft.h"

#include "json_value_text.h"

namespace vramplan::imports {
namespace {

std::string lfDefault(const std::string &what, const char *file)
{
    return "LLaMA-Factory default " + what + " (src/llamafactory/hparams/" + file + ")";
}

} // namespace

void importLlamaFactory(ConfigDoc &doc, Draft &draft)
{
    draft.set("framework", "transformers",
              doc.file() + " (LLaMA-Factory runs the Hugging Face Trainer)");
    draft.set("training.loop", "trainer",
              doc.file() + ": LLaMA-Factory's trainers build on transformers' Trainer");
    if (const auto name = doc.takeString("model_name_or_path")) {
        draft.modelName = *name;
        draft.modelOrigin = doc.origin("model_name_or_path");
        draft.modelWhere = doc.where("model_name_or_path");
    }
    if (const auto stage = doc.takeString("stage"); stage && *stage != "sft" && *stage != "pt")
        draft.warn(doc.origin("stage") + ": '" + *stage +
                   "': the reference, reward or value models of this stage are not planned; "
                   "the policy's training step is");

    const auto micro = doc.takeInt("per_device_train_batch_size", 1, 1 << 20);
    const std::string microOrigin =
        micro ? doc.origin("per_device_train_batch_size")
              : "transformers default per_device_train_batch_size 8 "
                "(src/transformers/training_args.py)";
    draft.set("training.micro_batch_size", micro.value_or(8), microOrigin);
    noteTrainerFact(draft, "micro", micro.value_or(8), microOrigin);
    const auto accum = doc.takeInt("gradient_accumulation_steps", 1, 1 << 20);
    const std::string accumOrigin = accum ? doc.origin("gradient_accumulation_steps")
                                          : "transformers default gradient_accumulation_steps 1 "
                                            "(src/transformers/training_args.py)";
    draft.set("training.gradient_accumulation_steps", accum.value_or(1), accumOrigin);
    noteTrainerFact(draft, "accum", accum.value_or(1), accumOrigin);

    const auto cutoff = doc.takeInt("cutoff_len", 1, int64_t(1) << 30);
    draft.set("training.sequence_length", cutoff.value_or(2048),
              (cutoff ? doc.origin("cutoff_len") : lfDefault("cutoff_len 2048", "data_args.py")) +
                  " (an upper bound: longer samples are cut to it, a batch is padded to its "
                  "longest)");

    const auto noCheckpointing = doc.takeBool("disable_gradient_checkpointing");
    draft.set("training.activation_recompute", noCheckpointing.value_or(false) ? "none" : "full",
              noCheckpointing ? doc.origin("disable_gradient_checkpointing")
                              : lfDefault("disable_gradient_checkpointing false: checkpointing "
                                          "on",
                                          "model_args.py"));

    const auto optim = doc.takeString("optim");
    if (!optim) {
        // The Trainer's default by release (state_rules.h: foreach from 4.32, fused from 4.54
        // under torch >= 2.8): the implementation is left to the transformers release.
        draft.set("training.optimizer", "adamw",
                  "transformers default optim (src/transformers/training_args.py: adamw_torch, "
                  "adamw_torch_fused from 4.54 under torch >= 2.8)");
    } else if (const auto choice = optimizerFromHfName(*optim)) {
        draft.set("training.optimizer", choice->optimizer, doc.origin("optim"));
        if (choice->implementation != "auto")
            draft.set("training.optimizer_implementation", choice->implementation,
                      doc.origin("optim"));
    } else {
        draft.warn(doc.origin("optim") + ": '" + *optim +
                   "' is not an optimizer the planner models; the optimizer is not imported");
    }

    const auto type = doc.takeString("finetuning_type");
    const std::string method = type.value_or("lora");
    if (method != "lora" && method != "full")
        doc.fail("finetuning_type", "'" + method + "' is not a method the planner models (full, "
                                                   "lora)");
    const auto bits = doc.takeInt("quantization_bit", 2, 8);
    doc.use("quantization_method");
    if (bits && *bits != 4 && *bits != 8)
        doc.fail("quantization_bit", std::to_string(*bits) +
                                         "-bit bases are not modelled (4 and 8 are)");
    const std::string typeOrigin = type ? doc.origin("finetuning_type")
                                        : lfDefault("finetuning_type lora", "finetuning_args.py");
    if (method == "lora") {
        draft.set("training.finetune.method", bits && *bits == 4 ? "qlora" : "lora",
                  bits ? doc.origin("quantization_bit") : typeOrigin);
        if (bits)
            draft.set("training.finetune.base_weight_bits", *bits, doc.origin("quantization_bit"));
        const auto rank = doc.takeInt("lora_rank", 1, 1 << 16);
        draft.set("training.finetune.lora_rank", rank.value_or(8),
                  rank ? doc.origin("lora_rank") : lfDefault("lora_rank 8", "finetuning_args.py"));
        const nlohmann::json *target = doc.take("lora_target");
        draft.set("training.finetune.lora_targets",
                  target ? loraTargetsFrom(*target, doc, "lora_target")
                         : std::vector<std::string>{"all-linear"},
                  target ? doc.origin("lora_target")
                         : lfDefault("lora_target all", "finetuning_args.py"));
        // LoraArguments.lora_dropout defaults to 0.0 there (checked at commit 00577a8), not
        // PEFT's or the scenario's 0.05: an adapter without dropout saves no mask.
        const nlohmann::json *dropout = doc.take("lora_dropout");
        if (dropout && dropout->is_number())
            draft.set("training.finetune.lora_dropout", dropout->get<double>(),
                      doc.origin("lora_dropout"));
        else if (!dropout)
            draft.set("training.finetune.lora_dropout", 0.0,
                      lfDefault("lora_dropout 0.0", "finetuning_args.py"));
        doc.use("lora_alpha");
        if (doc.take("additional_target"))
            draft.warn(doc.origin("additional_target") +
                       ": fully trained modules beside the adapters are not modelled");
    } else {
        draft.set("training.finetune.method", "full", typeOrigin);
        if (bits)
            doc.fail("quantization_bit", "a quantized base needs finetuning_type lora");
    }

    const auto pure = doc.takeBool("pure_bf16").value_or(false);
    const auto bf16 = trainerFlag(doc, "bf16");
    const auto fp16 = trainerFlag(doc, "fp16");
    noteTrainerFact(draft, "bf16", bf16.value_or(false) || pure,
                    bf16 ? doc.origin("bf16") : "transformers default bf16 false");
    noteTrainerFact(draft, "fp16", fp16.value_or(false),
                    fp16 ? doc.origin("fp16") : "transformers default fp16 false");
    if (pure)
        draft.set("training.precision", "bf16", doc.origin("pure_bf16"));
    else if (bf16.value_or(false))
        // The model is loaded in bf16; trainable parameters are cast to fp32
        // (src/llamafactory/model/adapter.py): LoRA adapters beside a bf16 base, or a full
        // fine-tune's fp32 weights under autocast.
        draft.set("training.precision", method == "full" ? "amp_bf16" : "bf16",
                  doc.origin("bf16") + (method == "full"
                                            ? ": trainable weights cast to fp32, bf16 autocast"
                                            : ": bf16 base, fp32 adapters"));
    else if (fp16.value_or(false))
        draft.set("training.precision", "amp_fp16", doc.origin("fp16"));
    else
        draft.set("training.precision", "fp32", "transformers default bf16/fp16 false");

    if (const auto fa = doc.takeString("flash_attn")) {
        if (*fa == "fa2" || *fa == "fa3")
            draft.set("training.attention", "flash", doc.origin("flash_attn"));
        else if (*fa == "sdpa")
            draft.set("training.attention", "sdpa", doc.origin("flash_attn"));
        else if (*fa == "disabled")
            draft.set("training.attention", "eager", doc.origin("flash_attn"));
    }
    noteDeepSpeedReference(doc, "deepspeed", draft);
    importFsdp(doc, "fsdp", "fsdp_config", draft);
}

} // namespace vramplan::imports
