// ms-swift command lines (modelscope/ms-swift examples/**/*.sh): `swift sft|pt|rlhf` (the
// Hugging Face Trainer with PEFT, DeepSpeed by name) and `megatron sft|pt|rlhf` (Megatron-SWIFT:
// Megatron-Core with the model converted on the fly). Flags and defaults from its code at commit
// 3602360 (2026-08): swift/trainers/arguments.py (per_device_train_batch_size 1,
// gradient_checkpointing true, gradient_accumulation_steps max(1, ceil(16 / batch / world
// size))), swift/arguments/base_args/base_args.py (tuner_type lora; --train_type is its older
// name), swift/arguments/tuner_args.py (lora_rank 8, target_modules all-linear),
// swift/arguments/base_args/model_args.py (torch_dtype bfloat16 sets bf16), quant_args.py
// (quant_method bnb, quant_bits 4/8), swift/arguments/sft_args.py (--deepspeed zero0..zero3,
// zero2_offload, zero3_offload: swift/config/<name>.json), and
// swift/megatron/arguments/megatron_args.py (tuner_type full, micro_batch_size 1,
// global_batch_size 16, recompute_granularity selective, use_distributed_optimizer true,
// padding_free true, optimizer adam, lora_rank 8). The launcher's GPUs: NPROC_PER_NODE x NNODES
// (swift/cli/main.py starts torchrun with them), else the CUDA_VISIBLE_DEVICES of one process.

#include "imports/import_draft.h"
#include "imports/launch_command.h"

#include "formats/scenario_json.h"
#include "json_value_text.h"

#include <cmath>

namespace vramplan::imports {
namespace {

const std::string trainerArgs = "ms-swift default (swift/trainers/arguments.py)";
const std::string megatronArgs = "ms-swift default (swift/megatron/arguments/megatron_args.py)";

void swiftGpus(const LaunchScript &launch, Draft &draft)
{
    const ConfigDoc &doc = *launch.flags;
    const std::string where = doc.file() + ":" + std::to_string(launch.line);
    const ShellWord *nproc = launch.env("NPROC_PER_NODE");
    const ShellWord *nnodes = launch.env("NNODES");
    const ShellWord *visible = launch.env("CUDA_VISIBLE_DEVICES");
    std::optional<int64_t> count;
    std::string origin;
    const ShellWord *unknown = nullptr;
    if (nproc) {
        const auto perNode = launch.literalNumber(*nproc);
        const auto nodes = nnodes ? launch.literalNumber(*nnodes) : std::optional<int64_t>(1);
        if (perNode && nodes && *perNode > 0 && *nodes > 0) {
            count = *perNode * *nodes;
            origin = where + ": NPROC_PER_NODE=" + nproc->text +
                     (nnodes ? " x NNODES=" + nnodes->text : "");
        } else {
            unknown = perNode ? nnodes : nproc;
        }
    } else if (visible && visible->literal()) {
        const int64_t ids = 1 + std::count(visible->text.begin(), visible->text.end(), ',');
        count = 1;
        origin = where + ": one process (no NPROC_PER_NODE), CUDA_VISIBLE_DEVICES=" + visible->text;
        if (ids > 1)
            draft.warn(origin + ": one process spreads the model over " + std::to_string(ids) +
                       " GPUs (device_map, layer by layer), which is not modelled; planned on one");
    }
    if (count) {
        draft.fileGpus = *count;
        draft.fileGpusOrigin = origin;
        if (draft.options.gpus > 0 && draft.options.gpus != *count)
            draft.warn(origin + " gives " + std::to_string(*count) + " GPUs, --gpus " +
                       std::to_string(draft.options.gpus) + " is planned");
    } else if (draft.options.gpus < 1) {
        throw ImportError("--gpus: " + where + ": " +
                          (unknown ? "the GPU count depends on " +
                                         (unknown->literal() ? unknown->text
                                                             : (unknown->unknowns.empty() ? unknown->defaulted
                                                                                          : unknown->unknowns)
                                                                   .front()) +
                                         ", which the script does not set"
                                   : std::string("the script sets neither NPROC_PER_NODE nor "
                                                 "CUDA_VISIBLE_DEVICES")) +
                          "; give --gpus N");
    }
}

// --tuner_type (--train_type before) lora/full/..., LoRA rank, targets, quantized base.
void tuner(ConfigDoc &doc, Draft &draft, bool megatron)
{
    const char *key = doc.find("tuner_type") ? "tuner_type" : "train_type";
    const std::string defaults = megatron ? megatronArgs
                                          : "ms-swift default (swift/arguments/base_args/base_args.py)";
    const std::string type = doc.takeString(key).value_or(megatron ? "full" : "lora");
    const std::string typeOrigin = doc.find(key) ? doc.origin(key)
                                                 : defaults + ": tuner_type " + type;
    if (type == "full") {
        draft.set("training.finetune.method", "full", typeOrigin);
        return;
    }
    if (type != "lora" && type != "lora_llm") {
        draft.warn(typeOrigin + ": the tuner '" + printableLine(type, 40) +
                   "' is not modelled; planned as LoRA");
    }
    const auto method = doc.takeString("quant_method");
    const auto bits = doc.takeInt("quant_bits", 1, 8);
    const auto oldBits = doc.takeInt("quantization_bit", 1, 8);
    const auto quantBits = bits ? bits : oldBits;
    const char *bitsKey = bits ? "quant_bits" : "quantization_bit";
    if (quantBits && *quantBits != 4 && *quantBits != 8)
        doc.fail(bitsKey, "only 4 or 8 bit bases are modelled, got " + std::to_string(*quantBits));
    if (method && *method != "bnb")
        draft.warn(doc.origin("quant_method") + ": '" + *method +
                   "' quantization is planned as a bitsandbytes base of the same bits");
    draft.set("training.finetune.method", quantBits && *quantBits == 4 ? "qlora" : "lora",
              quantBits && *quantBits == 4 ? doc.origin(bitsKey) : typeOrigin);
    if (quantBits)
        draft.set("training.finetune.base_weight_bits", *quantBits, doc.origin(bitsKey));
    for (const char *k : {"bnb_4bit_compute_dtype", "bnb_4bit_quant_type", "bnb_4bit_use_double_quant"})
        doc.use(k);
    const int64_t rank = doc.takeInt("lora_rank", 1, 1 << 16).value_or(8);
    draft.set("training.finetune.lora_rank", rank,
              doc.find("lora_rank") ? doc.origin("lora_rank")
                                    : (megatron ? megatronArgs
                                                : "ms-swift default (swift/arguments/tuner_args.py)") +
                                          ": lora_rank 8");
    doc.use("lora_alpha");
    if (const nlohmann::json *targets = doc.take("target_modules"))
        draft.set("training.finetune.lora_targets",
                  loraTargetsFrom(*targets, doc, "target_modules"), doc.origin("target_modules"));
    else
        draft.set("training.finetune.lora_targets",
                  loraTargetsFrom("all-linear", doc, "target_modules"),
                  "ms-swift default (swift/arguments/tuner_args.py): target_modules all-linear");
    if (const nlohmann::json *d = doc.take("lora_dropout"); d && d->is_number())
        draft.set("training.finetune.lora_dropout", d->get<double>(), doc.origin("lora_dropout"));
}

void modelName(LaunchScript &launch, Draft &draft)
{
    ConfigDoc &doc = *launch.flags;
    const char *key = doc.find("model") ? "model" : "model_id_or_path";
    if (const auto model = doc.takeString(key)) {
        draft.modelName = *model;
        draft.modelOrigin = doc.origin(key);
        draft.modelWhere = doc.where(key);
    }
    doc.use("model_type");
}

void importSwiftTrainer(LaunchScript &launch, Draft &draft)
{
    ConfigDoc &doc = *launch.flags;
    const std::string where = doc.file() + ":" + std::to_string(launch.line);
    draft.set("framework", "transformers", where + ": " + launch.subcommand +
                                               " (ms-swift runs the Hugging Face Trainer)");
    draft.set("training.loop", "trainer", where + ": " + launch.subcommand);
    tuner(doc, draft, false);

    const int64_t batch = doc.takeInt("per_device_train_batch_size", 1, 1 << 20).value_or(1);
    draft.set("training.micro_batch_size", batch,
              doc.find("per_device_train_batch_size") ? doc.origin("per_device_train_batch_size")
                                                      : trainerArgs + ": 1");
    noteTrainerFact(draft, "train_micro_batch_size_per_gpu", batch,
                    draft.field("training.micro_batch_size")->origin);
    if (const auto accum = doc.takeInt("gradient_accumulation_steps", 1, 1 << 20)) {
        draft.set("training.gradient_accumulation_steps", *accum,
                  doc.origin("gradient_accumulation_steps"));
    } else if (draft.gpuCount() > 0) {
        const int64_t steps = std::max<int64_t>(
            1, int64_t(std::ceil(16.0 / double(batch) / double(draft.gpuCount()))));
        draft.set("training.gradient_accumulation_steps", steps,
                  trainerArgs + ": max(1, ceil(16 / " + std::to_string(batch) + " / " +
                      std::to_string(draft.gpuCount()) + " GPUs))");
    }
    if (draft.has("training.gradient_accumulation_steps"))
        noteTrainerFact(draft, "gradient_accumulation_steps",
                        draft.field("training.gradient_accumulation_steps")->value,
                        draft.field("training.gradient_accumulation_steps")->origin);

    const bool checkpointing = doc.takeBool("gradient_checkpointing").value_or(true);
    draft.set("training.activation_recompute", checkpointing ? "full" : "none",
              doc.find("gradient_checkpointing") ? doc.origin("gradient_checkpointing")
                                                 : trainerArgs + ": gradient_checkpointing true");

    const auto dtype = doc.takeString("torch_dtype");
    const std::string deepspeed = doc.takeString("deepspeed").value_or("");
    if (dtype) {
        const std::string origin = doc.origin("torch_dtype");
        const bool bf16 = *dtype == "bfloat16", fp16 = *dtype == "float16";
        if (!bf16 && !fp16 && *dtype != "float32")
            doc.fail("torch_dtype", "must be bfloat16, float16 or float32, got '" + *dtype + "'");
        // model_args.py: the dtype the weights load in also sets the Trainer's bf16/fp16; the
        // trainer then trains them as loaded (pure bf16), DeepSpeed keeps fp32 master weights.
        if (!deepspeed.empty())
            draft.set("training.precision", bf16 ? "bf16_mixed" : fp16 ? "fp16_mixed" : "fp32",
                      origin + " under DeepSpeed (fp32 master weights in the optimizer)");
        else
            draft.set("training.precision", bf16 ? "bf16" : fp16 ? "amp_fp16" : "fp32",
                      origin + (bf16 ? " (weights loaded and trained in bf16)" : ""));
        noteTrainerFact(draft, "bf16", bf16, origin);
        noteTrainerFact(draft, "fp16", fp16, origin);
    } else {
        draft.warn(doc.file() + ": no --torch_dtype: ms-swift takes the dtype of the model's "
                                "config.json; the precision is vramplan's default");
    }
    if (!deepspeed.empty()) {
        const std::string origin = doc.origin("deepspeed");
        static const std::tuple<const char *, int, const char *, const char *> named[] = {
            {"zero0", 0, "none", "none"},         {"zero1", 1, "none", "none"},
            {"zero2", 2, "none", "none"},         {"zero3", 3, "none", "none"},
            {"zero2_offload", 2, "cpu", "none"}, {"zero3_offload", 3, "cpu", "cpu"}};
        bool found = false;
        for (const auto &[name, stage, optimizer, parameters] : named)
            if (deepspeed == name) {
                found = true;
                const std::string o = origin + " " + name + " (swift/config/" + name + ".json)";
                draft.set("framework", "deepspeed", o);
                draft.set("parallelism.zero_stage", stage, o);
                draft.set("parallelism.offload_optimizer", optimizer, o);
                draft.set("parallelism.offload_parameters", parameters, o);
            }
        if (!found) {
            // A path to a DeepSpeed JSON: read it as the trainers' `deepspeed:` is read.
            noteDeepSpeedReference(doc, "deepspeed", draft);
        }
    }
    if (const auto attn = doc.takeString("attn_impl")) {
        const std::string value = *attn == "flash_attn" || *attn == "flash_attention_2" ||
                                          *attn == "flash_attention_3"
                                      ? "flash"
                                  : *attn == "sdpa" ? "sdpa"
                                  : *attn == "eager" ? "eager"
                                                     : "";
        if (value.empty())
            draft.warn(doc.origin("attn_impl") + ": '" + *attn + "' is not an attention the planner models");
        else
            draft.set("training.attention", value, doc.origin("attn_impl"));
    }
    if (doc.takeBool("use_liger_kernel").value_or(false))
        draft.set("training.loss", "fused_linear",
                  doc.origin("use_liger_kernel") + " (Liger's fused linear cross-entropy)");
    if (const auto len = doc.takeInt("max_length", 1, int64_t(1) << 30))
        draft.set("training.sequence_length", *len,
                  doc.origin("max_length") + (doc.takeBool("packing").value_or(false)
                                                  ? " (packed to this length)"
                                                  : " (an upper bound)"));
    else
        draft.warn(doc.file() + ": no --max_length: ms-swift uses the model's context length; "
                                "the sequence length is vramplan's default");
    if (const auto optim = doc.takeString("optim")) {
        if (const auto choice = optimizerFromHfName(*optim)) {
            draft.set("training.optimizer", choice->optimizer, doc.origin("optim"));
            if (choice->implementation != "auto")
                draft.set("training.optimizer_implementation", choice->implementation,
                          doc.origin("optim"));
        } else {
            draft.warn(doc.origin("optim") + ": '" + *optim + "' is not an optimizer the planner models");
        }
    }
}

void importMegatronSwift(LaunchScript &launch, Draft &draft)
{
    ConfigDoc &doc = *launch.flags;
    const std::string where = doc.file() + ":" + std::to_string(launch.line);
    draft.set("framework", "megatron", where + ": " + launch.subcommand +
                                           " (Megatron-SWIFT runs Megatron-Core)");
    tuner(doc, draft, true);
    const auto size = [&doc](const char *key) {
        return doc.takeInt(key, 1, 1 << 16).value_or(1);
    };
    const int64_t tp = size("tensor_model_parallel_size");
    const int64_t pp = size("pipeline_model_parallel_size");
    const int64_t cp = size("context_parallel_size");
    for (const auto &[flag, path, value] :
         {std::tuple{"tensor_model_parallel_size", "parallelism.tensor_parallel", tp},
          std::tuple{"pipeline_model_parallel_size", "parallelism.pipeline_parallel", pp},
          std::tuple{"context_parallel_size", "parallelism.context_parallel", cp}})
        if (doc.find(flag))
            draft.set(path, value, doc.origin(flag));
    if (const auto ep = doc.takeInt("expert_model_parallel_size", 1, 1 << 16))
        draft.set("parallelism.expert_parallel", *ep, doc.origin("expert_model_parallel_size"));
    if (doc.takeBool("sequence_parallel").value_or(false))
        draft.set("parallelism.sequence_parallel", tp > 1,
                  doc.origin("sequence_parallel") +
                      (tp > 1 ? "" : " (off at tensor parallel 1: megatron/training/arguments.py)"));
    const bool distributed = doc.takeBool("use_distributed_optimizer").value_or(true);
    draft.set("parallelism.zero_stage", distributed ? 1 : 0,
              (doc.find("use_distributed_optimizer") ? doc.origin("use_distributed_optimizer")
                                                     : megatronArgs + ": use_distributed_optimizer true") +
                  (distributed ? " (main parameters and optimizer states sharded: ZeRO-1)" : ""));

    const int64_t micro = doc.takeInt("micro_batch_size", 1, 1 << 20).value_or(1);
    const int64_t global = doc.takeInt("global_batch_size", 1, 1 << 30).value_or(16);
    draft.set("training.micro_batch_size", micro,
              doc.find("micro_batch_size") ? doc.origin("micro_batch_size") : megatronArgs + ": 1");
    if (const int64_t gpus = draft.gpuCount(); gpus > 0) {
        if (gpus % (tp * pp * cp) != 0)
            doc.fail("tensor_model_parallel_size", std::to_string(gpus) +
                                                       " GPUs are not a multiple of TP x PP x CP");
        const int64_t dp = gpus / (tp * pp * cp);
        if (global % (micro * dp) != 0)
            doc.fail("global_batch_size", std::to_string(global) +
                                              " is not divisible by micro_batch_size x " +
                                              std::to_string(dp) + " data-parallel ranks");
        draft.set("training.gradient_accumulation_steps", global / (micro * dp),
                  (doc.find("global_batch_size") ? doc.origin("global_batch_size")
                                                 : megatronArgs + ": global_batch_size 16") +
                      " / (micro_batch_size " + std::to_string(micro) + " x " +
                      std::to_string(dp) + " data-parallel ranks)");
    }
    const bool paddingFree = doc.takeBool("padding_free").value_or(true);
    if (const auto len = doc.takeInt("max_length", 1, int64_t(1) << 30))
        draft.set("training.sequence_length", *len,
                  doc.origin("max_length") +
                      (paddingFree ? " (an upper bound: padding_free, on by default in "
                                     "swift/megatron/arguments/megatron_args.py, packs no padding)"
                                   : ""));
    else
        draft.warn(doc.file() + ": no --max_length: the model's context length is used; the "
                                "sequence length is vramplan's default");
    doc.use("packing");

    const std::string granularity = doc.takeString("recompute_granularity").value_or("selective");
    const std::string gOrigin = doc.find("recompute_granularity")
                                    ? doc.origin("recompute_granularity")
                                    : megatronArgs + ": recompute_granularity selective";
    const auto method = doc.takeString("recompute_method");
    const auto count = doc.takeInt("recompute_num_layers", 1, 1 << 16);
    if (granularity == "full") {
        draft.set("training.activation_recompute", "full", gOrigin);
        if (method == "block" && count)
            draft.set("training.recompute_layers", *count,
                      doc.origin("recompute_num_layers") + " (--recompute_method block)");
    } else if (granularity == "selective" || granularity == "none") {
        draft.set("training.activation_recompute", granularity, gOrigin);
    } else {
        doc.fail("recompute_granularity", "must be full, selective or none, got '" + granularity + "'");
    }

    if (const auto dtype = doc.takeString("torch_dtype")) {
        const bool bf16 = *dtype == "bfloat16", fp16 = *dtype == "float16";
        draft.set("training.precision", bf16 ? "bf16_mixed" : fp16 ? "fp16_mixed" : "fp32",
                  doc.origin("torch_dtype") + (bf16 || fp16 ? " (fp32 main parameters)" : ""));
    } else if (doc.takeBool("bf16").value_or(false)) {
        draft.set("training.precision", "bf16_mixed", doc.origin("bf16"));
    } else {
        draft.warn(doc.file() + ": no --torch_dtype: Megatron-SWIFT takes the dtype of the "
                                "model's config.json; the precision is vramplan's default");
    }
    const std::string optimizer = doc.takeString("optimizer").value_or("adam");
    if (optimizer == "adam")
        draft.set("training.optimizer", "adamw",
                  (doc.find("optimizer") ? doc.origin("optimizer") : megatronArgs + ": optimizer adam") +
                      " (Adam with decoupled weight decay)");
    else if (optimizer == "sgd")
        draft.set("training.optimizer", "sgd_momentum", doc.origin("optimizer"));
    else if (optimizer == "muon" || optimizer == "dist_muon")
        draft.set("training.optimizer", "muon", doc.origin("optimizer"));
    else
        draft.warn(doc.origin("optimizer") + ": '" + optimizer + "' is not an optimizer the planner models");
    // Megatron's fused cross-entropy: on by default from ms-swift 4.0 (off before), in Megatron's
    // `native` impl unless cross_entropy_fusion_impl says te, whose kernel keeps what the unfused
    // loss keeps (megatron_import.cpp).
    const bool fusion = doc.takeBool("cross_entropy_loss_fusion").value_or(true);
    const std::string impl = doc.takeString("cross_entropy_fusion_impl").value_or("native");
    const std::string fusionOrigin =
        doc.find("cross_entropy_loss_fusion")
            ? doc.origin("cross_entropy_loss_fusion")
            : megatronArgs + ": cross_entropy_loss_fusion true (from ms-swift 4.0; false before)";
    if (impl != "native" && impl != "te")
        doc.fail("cross_entropy_fusion_impl", "must be native or te, got '" + impl + "'");
    else if (fusion && impl == "native")
        draft.set("training.loss", "fused", fusionOrigin + " (Megatron's native fused cross-entropy)");
    else if (fusion)
        draft.set("training.loss", "standard",
                  doc.origin("cross_entropy_fusion_impl") +
                      " (Transformer Engine's kernel keeps what the unfused loss keeps)");
    // ms-swift's default moe_grouped_gemm true matters to MoE models only: read where given.
    if (doc.find("moe_grouped_gemm")) {
        const bool grouped = doc.takeBool("moe_grouped_gemm").value_or(false);
        draft.set("training.grouped_gemm", grouped, doc.origin("moe_grouped_gemm"));
    }
}

} // namespace

void importMsSwift(LaunchScript &launch, Draft &draft)
{
    swiftGpus(launch, draft);
    modelName(launch, draft);
    if (launch.subcommand.starts_with("megatron"))
        importMegatronSwift(launch, draft);
    else
        importSwiftTrainer(launch, draft);
    if (launch.subcommand.ends_with("rlhf"))
        draft.warn(launch.flags->file() + ":" + std::to_string(launch.line) + ": " +
                   launch.subcommand + ": the policy's training step is planned; the reference "
                                       "model and rollouts are not");
    for (auto &w : launchWarnings(launch))
        draft.warn(std::move(w));
    for (auto &n : launch.notes)
        draft.warn(std::move(n));
}

} // namespace vramplan::imports
