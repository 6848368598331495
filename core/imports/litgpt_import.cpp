// LitGPT's fine-tuning config YAML (Lightning-AI/litgpt config_hub/finetune/<model>/{full,lora,
// qlora}.yaml, read by `litgpt finetune_full|finetune_lora --config`). Meanings and defaults from
// its code at commit 2685705 (2026-06): litgpt/finetune/lora.py setup() (devices 1, num_nodes 1,
// lora_r 8, lora_dropout 0.05, lora_query and lora_value on, train micro_batch_size 1 and
// global_batch_size 16, optimizer "AdamW"; several devices shard with fully_shard and checkpoint
// every block, parallelize_fn; quantization refuses several devices), litgpt/finetune/full.py
// (several devices: FSDPStrategy with activation_checkpointing_policy={Block}), litgpt/args.py
// (TrainArgs: accumulation = global_batch_size // (devices x num_nodes) // micro_batch_size),
// litgpt/utils.py (get_default_supported_precision: bf16-mixed where the GPU has bf16). Lightning
// precision names: "bf16-true" is pure bf16, "bf16-mixed" autocast over fp32 weights.

#include "imports/import_draft.h"

#include "formats/scenario_json.h"
#include "json_value_text.h"

namespace vramplan::imports {

void importLitgpt(ConfigDoc &doc, Draft &draft)
{
    const std::string lora = "LitGPT default (litgpt/finetune/lora.py)";
    const std::string full = "LitGPT default (litgpt/finetune/full.py)";
    draft.set("framework", "litgpt", doc.file() + " (a LitGPT fine-tuning config)");
    if (const auto dir = doc.takeString("checkpoint_dir")) {
        // checkpoints/<org>/<name>: litgpt download's layout of a hub id.
        std::string id = *dir;
        while (!id.empty() && id.back() == '/')
            id.pop_back();
        const std::size_t last = id.rfind('/');
        const std::size_t before = last == std::string::npos ? std::string::npos : id.rfind('/', last - 1);
        if (last != std::string::npos)
            id = id.substr(before == std::string::npos ? 0 : before + 1);
        draft.modelName = id;
        draft.modelOrigin = doc.origin("checkpoint_dir");
        draft.modelWhere = doc.where("checkpoint_dir");
    }

    const bool hasLora = doc.find("lora_r") || doc.find("lora_alpha") || doc.find("lora_query");
    const auto quantize = doc.takeString("quantize");
    const std::string &defaults = hasLora ? lora : full;

    const nlohmann::json *devicesValue = doc.find("devices");
    const auto devices = devicesValue && !devicesValue->is_number_integer()
                             ? std::optional<int64_t>()
                             : doc.takeInt("devices", 1, 65536);
    const int64_t nodes = doc.takeInt("num_nodes", 1, 65536).value_or(1);
    if (devicesValue && !devices)
        doc.use("devices"); // "auto", -1: every GPU of the machine; --gpus gives the count
    else {
        draft.fileGpus = devices.value_or(1) * nodes;
        draft.fileGpusOrigin = devices ? doc.origin("devices") + " x num_nodes " + std::to_string(nodes)
                                       : defaults + ": devices 1";
        if (draft.options.gpus > 0 && draft.options.gpus != draft.fileGpus)
            draft.warn(draft.fileGpusOrigin + " gives " + std::to_string(draft.fileGpus) +
                       " GPUs, --gpus " + std::to_string(draft.options.gpus) + " is planned");
    }
    const int64_t gpus = draft.gpuCount();

    if (hasLora) {
        const bool four = quantize && quantize->starts_with("bnb.") && quantize->find("4") != std::string::npos;
        const bool eight = quantize && *quantize == "bnb.int8-training";
        if (quantize && !four && !eight)
            doc.fail("quantize", "must be bnb.nf4, bnb.nf4-dq, bnb.fp4, bnb.fp4-dq or "
                                 "bnb.int8-training, got '" + *quantize + "'");
        draft.set("training.finetune.method", four ? "qlora" : "lora",
                  four ? doc.origin("quantize") : doc.file() + ": lora_* keys (litgpt finetune_lora)");
        if (four || eight)
            draft.set("training.finetune.base_weight_bits", four ? 4 : 8,
                      doc.origin("quantize") + " (bitsandbytes)");
        const int64_t rank = doc.takeInt("lora_r", 1, 1 << 16).value_or(8);
        draft.set("training.finetune.lora_rank", rank,
                  doc.find("lora_r") ? doc.origin("lora_r") : lora + ": lora_r 8");
        doc.use("lora_alpha");
        if (const nlohmann::json *d = doc.take("lora_dropout")) {
            if (!d->is_number())
                doc.fail("lora_dropout", "must be a number, got " + describeJson(*d));
            draft.set("training.finetune.lora_dropout", d->get<double>(), doc.origin("lora_dropout"));
        }
        // LitGPT's switches in the scenario's (Hugging Face) module names.
        std::vector<std::string> targets;
        const std::pair<const char *, std::vector<const char *>> switches[] = {
            {"lora_query", {"q_proj"}},  {"lora_key", {"k_proj"}},
            {"lora_value", {"v_proj"}},  {"lora_projection", {"o_proj"}},
            {"lora_mlp", {"gate_proj", "up_proj", "down_proj"}}, {"lora_head", {"lm_head"}}};
        for (const auto &[key, names] : switches) {
            const bool defaultOn = std::string_view(key) == "lora_query" ||
                                   std::string_view(key) == "lora_value";
            if (doc.takeBool(key).value_or(defaultOn))
                for (const char *name : names)
                    targets.push_back(name);
        }
        if (targets.empty())
            doc.fail("lora_query", "every lora_* switch is off: LoRA adapts nothing");
        draft.set("training.finetune.lora_targets", targets,
                  doc.file() + ": lora_query, lora_key, lora_value, lora_projection, lora_mlp, "
                               "lora_head (" + lora + ": query and value)");
    } else if (quantize) {
        doc.fail("quantize", "quantizes the base of a LoRA run; this config has no lora_* keys");
    }
    if (quantize && gpus > 1)
        doc.fail("quantize", "LitGPT refuses quantization on more than one GPU "
                             "(litgpt/finetune/lora.py)");

    const std::string precision = doc.takeString("precision").value_or("bf16-mixed");
    const std::string precisionOrigin =
        doc.find("precision") ? doc.origin("precision")
                              : "LitGPT default (litgpt/utils.py get_default_supported_precision: "
                                "bf16-mixed)";
    static const std::pair<const char *, const char *> precisions[] = {
        {"bf16-true", "bf16"},   {"bf16-mixed", "amp_bf16"}, {"32-true", "fp32"},
        {"16-mixed", "amp_fp16"}, {"16-true", "amp_fp16"}};
    bool known = false;
    for (const auto &[name, value] : precisions)
        if (precision == name) {
            draft.set("training.precision", value,
                      precisionOrigin + (precision == "bf16-true" ? " (weights, gradients and "
                                                                    "optimizer states in bf16)"
                                                                  : ""));
            known = true;
        }
    if (!known)
        doc.fail("precision", "must be bf16-true, bf16-mixed, 32-true, 16-mixed or 16-true, got '" +
                                  precision + "'");
    if (precision == "16-true")
        draft.warn(doc.origin("precision") + ": pure fp16 is planned as fp16 autocast");

    const int64_t micro = doc.takeInt("train.micro_batch_size", 1, 1 << 20).value_or(1);
    const int64_t global = doc.takeInt("train.global_batch_size", 1, 1 << 30).value_or(16);
    draft.set("training.micro_batch_size", micro,
              doc.find("train.micro_batch_size") ? doc.origin("train.micro_batch_size")
                                                 : defaults + ": micro_batch_size 1");
    if (gpus > 0) {
        const int64_t perRank = global / gpus;
        if (perRank < micro)
            doc.fail("train.global_batch_size",
                     std::to_string(global) + " over " + std::to_string(gpus) +
                         " GPUs is less than micro_batch_size " + std::to_string(micro) +
                         " (litgpt/args.py asserts)");
        draft.set("training.gradient_accumulation_steps", perRank / micro,
                  (doc.find("train.global_batch_size") ? doc.origin("train.global_batch_size")
                                                       : defaults + ": global_batch_size 16") +
                      " // " + std::to_string(gpus) + " GPUs // micro_batch_size " +
                      std::to_string(micro) + " (litgpt/args.py)");
    }
    if (const auto len = doc.takeInt("train.max_seq_length", 1, int64_t(1) << 30))
        draft.set("training.sequence_length", *len,
                  doc.origin("train.max_seq_length") + " (an upper bound: the longest sample)");
    else
        draft.warn(doc.file() + ": train.max_seq_length is not set: LitGPT trains at the longest "
                                "sample's length; the sequence length is vramplan's default");

    if (gpus > 1) {
        const std::string origin = std::to_string(gpus) + " GPUs: " +
                                   (hasLora ? "litgpt/finetune/lora.py shards with fully_shard "
                                              "and checkpoints every block (parallelize_fn)"
                                            : "litgpt/finetune/full.py shards with FSDPStrategy "
                                              "and checkpoints every block");
        draft.set("parallelism.zero_stage", 3, origin);
        draft.set("parallelism.fsdp_version", hasLora ? 2 : 1, origin);
        draft.set("training.activation_recompute", "full", origin);
    } else if (gpus == 1) {
        draft.set("training.activation_recompute", "none",
                  "one GPU: " + std::string(hasLora ? "litgpt/finetune/lora.py" : "litgpt/finetune/full.py") +
                      " checkpoints no activations");
    }

    if (const nlohmann::json *opt = doc.find("optimizer")) {
        std::string name;
        if (opt->is_string())
            name = opt->get<std::string>();
        else if (const auto cls = doc.takeString("optimizer.class_path"))
            name = cls->substr(cls->rfind('.') + 1);
        doc.use("optimizer");
        if (name == "AdamW")
            draft.set("training.optimizer", "adamw", doc.origin("optimizer"));
        else if (name == "Adam")
            draft.set("training.optimizer", "adam", doc.origin("optimizer"));
        else if (name == "SGD")
            draft.set("training.optimizer", "sgd", doc.origin("optimizer"));
        else
            draft.warn(doc.origin("optimizer") + ": '" + printableLine(name, 60) +
                       "' is not an optimizer the planner models; the optimizer is not imported");
        doc.use("optimizer.init_args");
        // lr, weight_decay, betas: not memory. Kept out of the ignored list since the whole
        // optimizer section was read.
    } else {
        draft.set("training.optimizer", "adamw", defaults + ": optimizer AdamW");
    }
}

} // namespace vramplan::imports
