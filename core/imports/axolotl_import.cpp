// Axolotl YAML (axolotl-ai-cloud/axolotl). Defaults and rules from its code at commit 067b021
// (2026-07): src/axolotl/utils/schemas/training.py (micro_batch_size 1,
// gradient_accumulation_steps 1, optimizer adamw_torch_fused), src/axolotl/utils/schemas/
// config.py (sequence_len 512), src/axolotl/utils/config/__init__.py (torch_dtype from bf16/fp16
// and load_in_8bit; normalize_config: gradient_accumulation_steps or batch_size //
// micro_batch_size).

#include "imports/import_draft.h"

#include "json_value_text.h"

namespace vramplan::imports {
namespace {

std::string axolotlDefault(const std::string &what, const char *file)
{
    return "Axolotl default " + what + " (src/axolotl/utils/schemas/" + file + ")";
}

} // namespace

void importAxolotl(ConfigDoc &doc, Draft &draft)
{
    draft.set("framework", "transformers", doc.file() + " (Axolotl runs the Hugging Face Trainer)");
    draft.set("training.loop", "trainer",
              doc.file() + ": Axolotl's trainers build on transformers' Trainer");
    if (const auto name = doc.takeString("base_model")) {
        draft.modelName = *name;
        draft.modelOrigin = doc.origin("base_model");
        draft.modelWhere = doc.where("base_model");
    }
    doc.use("base_model_config");
    doc.use("model_type");
    doc.use("tokenizer_type");

    const auto micro = doc.takeInt("micro_batch_size", 1, 1 << 20);
    const auto accum = doc.takeInt("gradient_accumulation_steps", 1, 1 << 20);
    const auto batch = doc.takeInt("batch_size", 1, 1 << 24);
    const int64_t m = micro.value_or(1);
    draft.set("training.micro_batch_size", m,
              micro ? doc.origin("micro_batch_size")
                    : axolotlDefault("micro_batch_size 1", "training.py"));
    noteTrainerFact(draft, "micro", m, draft.field("training.micro_batch_size")->origin);
    int64_t a = accum.value_or(1);
    std::string accumOrigin = accum ? doc.origin("gradient_accumulation_steps")
                                    : axolotlDefault("gradient_accumulation_steps 1",
                                                     "training.py");
    if (batch && !micro && !accum)
        doc.fail("batch_size", "needs micro_batch_size or gradient_accumulation_steps beside it "
                               "(Axolotl: at least two of the three)");
    if (batch && *batch != m * a)
        draft.warn(doc.origin("batch_size") + " " + std::to_string(*batch) +
                   " is not micro_batch_size x gradient_accumulation_steps (" +
                   std::to_string(m) + " x " + std::to_string(a) +
                   "); Axolotl steps with the latter (its schema defaults "
                   "gradient_accumulation_steps to 1, so normalize_config never derives it)");
    draft.set("training.gradient_accumulation_steps", a, accumOrigin);
    noteTrainerFact(draft, "accum", a, accumOrigin);

    const auto seq = doc.takeInt("sequence_len", 1, int64_t(1) << 30);
    draft.set("training.sequence_length", seq.value_or(512),
              seq ? doc.origin("sequence_len") : axolotlDefault("sequence_len 512", "config.py"));

    const nlohmann::json *gc = doc.take("gradient_checkpointing");
    doc.use("gradient_checkpointing_kwargs");
    if (gc && gc->is_string() && (*gc == "offload" || *gc == "offload_disk")) {
        draft.set("training.activation_recompute", "full", doc.origin("gradient_checkpointing"));
        draft.warn(doc.origin("gradient_checkpointing") + ": '" + gc->get<std::string>() +
                   "' also moves the checkpoints off the GPU, which is not modelled; planned "
                   "as full recomputation with them on the GPU");
    } else if (gc && !gc->is_boolean()) {
        doc.fail("gradient_checkpointing", "must be true, false, offload or offload_disk, got " +
                                               describeJson(*gc));
    } else {
        draft.set("training.activation_recompute", gc && gc->get<bool>() ? "full" : "none",
                  gc ? doc.origin("gradient_checkpointing")
                     : "Axolotl default gradient_checkpointing off (src/axolotl/utils/schemas/"
                       "config.py)");
    }

    const auto optimizer = doc.takeString("optimizer");
    const auto choice = optimizerFromHfName(optimizer.value_or("adamw_torch_fused"));
    if (choice) {
        const std::string origin = optimizer
                                       ? doc.origin("optimizer")
                                       : axolotlDefault("optimizer adamw_torch_fused",
                                                        "training.py");
        draft.set("training.optimizer", choice->optimizer, origin);
        if (choice->implementation != "auto")
            draft.set("training.optimizer_implementation", choice->implementation, origin);
    } else {
        draft.warn(doc.origin("optimizer") + ": '" + *optimizer +
                   "' is not an optimizer the planner models; the optimizer is not imported");
    }

    // Precision: Axolotl loads the model in bf16 (or fp16) and trains it as loaded.
    const auto bf16 = trainerFlag(doc, "bf16");
    const auto fp16 = trainerFlag(doc, "fp16");
    doc.use("tf32");
    noteTrainerFact(draft, "bf16", bf16.value_or(false),
                    bf16 ? doc.origin("bf16") : "Axolotl default bf16 off");
    noteTrainerFact(draft, "fp16", fp16.value_or(false) && !bf16.value_or(false),
                    fp16 ? doc.origin("fp16") : "Axolotl default fp16 off");
    if (bf16.value_or(false))
        draft.set("training.precision", "bf16",
                  doc.origin("bf16") + (doc.find("bf16") && doc.find("bf16")->is_string()
                                            ? " auto (bf16 on GPUs since Ampere)"
                                            : "") +
                      ": weights loaded in bf16 (src/axolotl/utils/config/__init__.py)");
    else if (fp16.value_or(false))
        draft.set("training.precision", "amp_fp16", doc.origin("fp16"));
    else
        draft.set("training.precision", "fp32", "Axolotl default: neither bf16 nor fp16 "
                                                "(torch_dtype float32)");

    if (const auto fa = doc.takeBool("flash_attention"); fa && *fa)
        draft.set("training.attention", "flash", doc.origin("flash_attention"));
    else if (const auto sdp = doc.takeBool("sdp_attention"); sdp && *sdp)
        draft.set("training.attention", "sdpa", doc.origin("sdp_attention"));
    if (const auto attn = doc.takeString("attn_implementation")) {
        if (*attn == "flash_attention_2" || *attn == "flash_attention_3")
            draft.set("training.attention", "flash", doc.origin("attn_implementation"));
        else if (*attn == "sdpa" || *attn == "eager")
            draft.set("training.attention", *attn, doc.origin("attn_implementation"));
    }

    const auto adapter = doc.takeString("adapter");
    const bool four = doc.takeBool("load_in_4bit").value_or(false);
    const bool eight = doc.takeBool("load_in_8bit").value_or(false);
    if (adapter && *adapter != "lora" && *adapter != "qlora")
        doc.fail("adapter", "'" + *adapter + "' is not an adapter the planner models (lora, "
                                             "qlora)");
    if (adapter) {
        const bool q = *adapter == "qlora" || four;
        draft.set("training.finetune.method", q ? "qlora" : "lora", doc.origin("adapter"));
        if (q || eight)
            draft.set("training.finetune.base_weight_bits", q ? 4 : 8,
                      doc.origin(q ? (four ? "load_in_4bit" : "adapter") : "load_in_8bit") +
                          (eight && !q ? ": LoRA on an 8-bit base (bitsandbytes LLM.int8)" : ""));
        if (const auto rank = doc.takeInt("lora_r", 1, 1 << 16))
            draft.set("training.finetune.lora_rank", *rank, doc.origin("lora_r"));
        if (doc.takeBool("lora_target_linear").value_or(false))
            draft.set("training.finetune.lora_targets", std::vector<std::string>{"all-linear"},
                      doc.origin("lora_target_linear"));
        else if (const nlohmann::json *t = doc.take("lora_target_modules"))
            draft.set("training.finetune.lora_targets",
                      loraTargetsFrom(*t, doc, "lora_target_modules"),
                      doc.origin("lora_target_modules"));
        if (const auto dropout = doc.take("lora_dropout"); dropout && dropout->is_number())
            draft.set("training.finetune.lora_dropout", dropout->get<double>(),
                      doc.origin("lora_dropout"));
        doc.use("lora_alpha");
        doc.use("lora_model_dir");
        if (doc.take("lora_modules_to_save"))
            draft.warn(doc.origin("lora_modules_to_save") +
                       ": fully trained modules beside the adapters are not modelled");
    } else if (four || eight) {
        draft.warn(doc.origin(four ? "load_in_4bit" : "load_in_8bit") +
                   ": a quantized base without an adapter cannot be trained; ignored");
    }

    for (const auto &[key, path] : {std::pair{"tensor_parallel_size", "tensor_parallel"},
                                    std::pair{"context_parallel_size", "context_parallel"}})
        if (const auto n = doc.takeInt(key, 1, 1 << 16))
            draft.set(std::string("parallelism.") + path, *n, doc.origin(key));
    noteDeepSpeedReference(doc, "deepspeed", draft);
    importFsdp(doc, "fsdp", "fsdp_config", draft);
    if (const auto v = doc.takeInt("fsdp_version", 1, 2))
        draft.set("parallelism.fsdp_version", *v, doc.origin("fsdp_version"));
}

} // namespace vramplan::imports
