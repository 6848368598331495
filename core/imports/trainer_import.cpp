// Hugging Face TrainingArguments and TRL configs (JSON or YAML; TRL's ModelConfig keys beside
// them, as TRL's scripts and the alignment-handbook recipes write them). Defaults of what a file
// leaves out: transformers/src/transformers/training_args.py (TrainingArguments),
// trl/trl/trainer/model_config.py (ModelConfig: use_peft, lora_r 16, load_in_4bit).

#include "imports/import_draft.h"

#include "json_value_text.h"

namespace vramplan::imports {
namespace {

const char *trainingArgs = "src/transformers/training_args.py";

std::string transformersDefault(const char *what)
{
    return std::string("transformers default ") + what + " (" + trainingArgs + ")";
}

} // namespace

void importHfTrainer(ConfigDoc &doc, Draft &draft)
{
    draft.set("framework", "transformers", doc.file() + " (Hugging Face Trainer arguments)");
    draft.set("training.loop", "trainer",
              doc.file() + ": the Trainer's compute_loss (transformers/trainer.py)");
    for (const char *key : {"model_name_or_path", "model_id"})
        if (const auto name = doc.takeString(key)) {
            draft.modelName = *name;
            draft.modelOrigin = doc.origin(key);
            draft.modelWhere = doc.where(key);
            break;
        }

    const auto micro = doc.takeInt("per_device_train_batch_size", 1, 1 << 20);
    const std::string microOrigin = micro ? doc.origin("per_device_train_batch_size")
                                          : transformersDefault("per_device_train_batch_size 8");
    draft.set("training.micro_batch_size", micro.value_or(8), microOrigin);
    noteTrainerFact(draft, "micro", micro.value_or(8), microOrigin);
    const auto accum = doc.takeInt("gradient_accumulation_steps", 1, 1 << 20);
    const std::string accumOrigin = accum ? doc.origin("gradient_accumulation_steps")
                                          : transformersDefault("gradient_accumulation_steps 1");
    draft.set("training.gradient_accumulation_steps", accum.value_or(1), accumOrigin);
    noteTrainerFact(draft, "accum", accum.value_or(1), accumOrigin);

    const auto checkpointing = doc.takeBool("gradient_checkpointing");
    doc.use("gradient_checkpointing_kwargs");
    draft.set("training.activation_recompute", checkpointing.value_or(false) ? "full" : "none",
              checkpointing ? doc.origin("gradient_checkpointing")
                            : transformersDefault("gradient_checkpointing false"));

    const auto optim = doc.takeString("optim");
    if (optim) {
        if (const auto choice = optimizerFromHfName(*optim)) {
            draft.set("training.optimizer", choice->optimizer, doc.origin("optim"));
            if (choice->implementation != "auto")
                draft.set("training.optimizer_implementation", choice->implementation,
                          doc.origin("optim"));
        } else {
            draft.warn(doc.origin("optim") + ": '" + *optim +
                       "' is not an optimizer the planner models; the optimizer is not imported");
        }
    } else {
        draft.set("training.optimizer", "adamw",
                  transformersDefault("optim adamw_torch (adamw_torch_fused under torch >= 2.8 "
                                      "in recent releases), AdamW"));
    }

    // Sequence length: TRL's SFTConfig/DPOConfig max_length (max_seq_length before TRL 0.20).
    for (const char *key : {"max_length", "max_seq_length"})
        if (const auto len = doc.takeInt(key, 1, int64_t(1) << 30)) {
            draft.set("training.sequence_length", *len, doc.origin(key));
            break;
        }

    const auto bf16 = trainerFlag(doc, "bf16");
    const auto fp16 = trainerFlag(doc, "fp16");
    noteTrainerFact(draft, "bf16", bf16.value_or(false),
                    bf16 ? doc.origin("bf16") : transformersDefault("bf16 false"));
    noteTrainerFact(draft, "fp16", fp16.value_or(false),
                    fp16 ? doc.origin("fp16") : transformersDefault("fp16 false"));
    // TRL's ModelConfig torch_dtype (dtype since transformers 4.56): the weights as loaded.
    std::optional<std::string> dtype = doc.takeString("torch_dtype");
    std::string dtypeKey = "torch_dtype";
    if (!dtype) {
        dtype = doc.takeString("dtype");
        dtypeKey = "dtype";
    }
    const bool loadedBf16 = dtype && *dtype == "bfloat16";
    if (bf16.value_or(false))
        draft.set("training.precision", loadedBf16 ? "bf16" : "amp_bf16",
                  loadedBf16 ? doc.origin("bf16") + " with " + doc.origin(dtypeKey) +
                                   " bfloat16 (weights, gradients and states in bf16)"
                             : doc.origin("bf16") + " (autocast over the weights as loaded, fp32)");
    else if (fp16.value_or(false))
        draft.set("training.precision", "amp_fp16", doc.origin("fp16"));
    else
        draft.set("training.precision", loadedBf16 ? "bf16" : "fp32",
                  loadedBf16 ? doc.origin(dtypeKey) : transformersDefault("bf16/fp16 false"));

    if (const auto attn = doc.takeString("attn_implementation")) {
        if (*attn == "flash_attention_2" || *attn == "flash_attention_3")
            draft.set("training.attention", "flash", doc.origin("attn_implementation"));
        else if (*attn == "sdpa" || *attn == "eager")
            draft.set("training.attention", *attn, doc.origin("attn_implementation"));
    }

    // PEFT through TRL's ModelConfig (use_peft) or a bare lora_r.
    const auto usePeft = doc.takeBool("use_peft");
    if (usePeft.value_or(false) || (!usePeft && doc.find("lora_r"))) {
        const auto rank = doc.takeInt("lora_r", 1, 1 << 16);
        const bool four = doc.takeBool("load_in_4bit").value_or(false);
        const bool eight = doc.takeBool("load_in_8bit").value_or(false);
        draft.set("training.finetune.method", four ? "qlora" : "lora",
                  four ? doc.origin("load_in_4bit") : doc.origin("use_peft"));
        if (four || eight)
            draft.set("training.finetune.base_weight_bits", four ? 4 : 8,
                      doc.origin(four ? "load_in_4bit" : "load_in_8bit"));
        draft.set("training.finetune.lora_rank", rank.value_or(16),
                  rank ? doc.origin("lora_r") : "TRL default lora_r 16 (trl/trainer/model_config.py)");
        if (const nlohmann::json *targets = doc.take("lora_target_modules"))
            draft.set("training.finetune.lora_targets",
                      loraTargetsFrom(*targets, doc, "lora_target_modules"),
                      doc.origin("lora_target_modules"));
        if (const auto dropout = doc.take("lora_dropout"); dropout && dropout->is_number())
            draft.set("training.finetune.lora_dropout", dropout->get<double>(),
                      doc.origin("lora_dropout"));
        if (doc.take("lora_modules_to_save"))
            draft.warn(doc.origin("lora_modules_to_save") +
                       ": fully trained modules beside the adapters are not modelled");
        doc.use("lora_alpha");
    }
    noteDeepSpeedReference(doc, "deepspeed", draft);
    importFsdp(doc, "fsdp", "fsdp_config", draft);
    importTrlRl(doc, draft);
}

} // namespace vramplan::imports
