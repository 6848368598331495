// exportTrainingSetup for the YAML trainers: Axolotl and LLaMA-Factory, and what they share.

#include "imports/export_setup_internal.h"

#include "imports/import_draft.h"

namespace vramplan::exports {

std::string yamlScalar(const json &v)
{
    if (v.is_string()) {
        const std::string text = v.get<std::string>();
        // Quoted where YAML would read it as something else.
        if (text.empty() || text.find_first_of(":#{}[],&*!|>'\"%@`") != std::string::npos ||
            text == "true" || text == "false" || text == "null")
            return json(text).dump();
        return text;
    }
    return v.dump();
}

// The model line of a YAML trainer: the hub id the preset was copied from, when known.
void modelLine(const Facts &f, const char *key, std::ostringstream &out,
               std::vector<std::string> &notes)
{
    const std::string hub = imports::hubIdOfPreset(f.preset());
    if (!hub.empty()) {
        out << key << ": " << hub << "\n";
    } else {
        out << "# " << key << ": the checkpoint to train (vramplan's model is not a bundled "
            << "preset with a known hub id)\n";
        notes.push_back(std::string(key) + ": not written: the scenario's model has no hub id; "
                                           "name the checkpoint");
    }
}

// Hugging Face `optim` names (transformers/training_args.py OptimizerNames). AdamW by its
// implementation: torch's fused kernel is adamw_torch_fused, which is also what `auto` means for
// the Trainer of today (its default from 4.54 under torch >= 2.8); adamw_torch is torch.optim's
// foreach AdamW (trainer_keys.cpp reads them back so).
std::string hfOptim(const std::string &optimizer, const std::string &implementation)
{
    if ((optimizer == "adamw" || optimizer == "adam") && implementation != "foreach" &&
        implementation != "for_loop")
        return "adamw_torch_fused";
    static const std::pair<const char *, const char *> table[] = {
        {"adamw", "adamw_torch"},
        {"adam", "adamw_torch"},
        {"adamw_8bit", "adamw_bnb_8bit"},
        {"paged_adamw", "paged_adamw_32bit"},
        {"paged_adamw_8bit", "paged_adamw_8bit"},
        {"adafactor", "adafactor"},
        {"sgd", "sgd"},
        {"lion", "lion_32bit"}};
    for (const auto &[name, hf] : table)
        if (optimizer == name)
            return hf;
    return "";
}

void commonTrainerNotes(const Facts &f, std::vector<std::string> &notes)
{
    const int64_t tp = f.parallel()["tensor_parallel"].get<int64_t>();
    const int64_t pp = f.parallel()["pipeline_parallel"].get<int64_t>();
    if (tp > 1 || pp > 1)
        notes.push_back("parallelism: tensor/pipeline parallelism is not written (the Hugging "
                        "Face Trainer shards with DeepSpeed or FSDP)");
}

std::string deepspeedName(const Facts &f, const char *folder, const char *pattern)
{
    // pattern: "zero{N}{offload}.json" style of each tool's shipped DeepSpeed files.
    std::string name = pattern;
    const auto replace = [&name](const std::string &key, const std::string &value) {
        const std::size_t at = name.find(key);
        if (at != std::string::npos)
            name.replace(at, key.size(), value);
    };
    replace("{N}", std::to_string(f.zero()));
    replace("{offload}", f.offload("offload_optimizer") != "none" ? "_offload" : "");
    return std::string(folder) + name;
}

bool fsdpOffload(const Facts &f, std::vector<std::string> &notes)
{
    if (f.offload("offload_parameters") != f.offload("offload_optimizer"))
        notes.push_back("parallelism.offload_parameters/offload_optimizer: FSDP offloads the "
                        "parameters, gradients and optimizer states together; written as "
                        "offloading all of them");
    if (f.zero() == 1)
        notes.push_back("parallelism.zero_stage: 1 is not an FSDP strategy; written as FSDP "
                        "without resharding after forward (ZeRO-2)");
    return f.offload("offload_parameters") != "none" || f.offload("offload_optimizer") != "none";
}

// FSDP as Axolotl's docs/multi-gpu.qmd writes it: `fsdp_version: 2` with FSDP2's fsdp_config
// keys (offload_params, reshard_after_forward), or FSDP1's `fsdp` list with fsdp_-prefixed keys
// (src/axolotl/utils/schemas/config.py, fsdp_config; Accelerate's FullyShardedDataParallelPlugin
// reads them). Whole decoder layers are the units sharded, as the planner assumes.
void axolotlFsdp(const Facts &f, std::ostringstream &out, std::vector<std::string> &notes)
{
    const bool offload = fsdpOffload(f, notes);
    const bool reshard = f.zero() >= 3;
    const char *flag = offload ? "true" : "false";
    if (f.fsdpVersion() == 2) {
        out << "fsdp_version: 2\nfsdp_config:\n"
            << "  offload_params: " << flag << "\n"
            << "  auto_wrap_policy: TRANSFORMER_BASED_WRAP\n"
            << "  reshard_after_forward: " << (reshard ? "true" : "false") << "\n";
        return;
    }
    if (f.fsdpVersion() == 1)
        out << "fsdp_version: 1\n";
    out << "fsdp:\n  - " << (reshard ? "full_shard" : "shard_grad_op") << "\n  - auto_wrap\n"
        << "fsdp_config:\n"
        << "  fsdp_offload_params: " << flag << "\n"
        << "  fsdp_auto_wrap_policy: TRANSFORMER_BASED_WRAP\n";
}

ExportResult axolotl(const Facts &f)
{
    // Keys of src/axolotl/utils/schemas/config.py (AxolotlInputConfig) and its docs/config.qmd.
    ExportResult r;
    std::ostringstream out;
    modelLine(f, "base_model", out, r.notes);
    out << "micro_batch_size: " << f.training()["micro_batch_size"].dump() << "\n";
    out << "gradient_accumulation_steps: " << f.training()["gradient_accumulation_steps"].dump()
        << "\n";
    out << "sequence_len: " << f.training()["sequence_length"].dump() << "\n";
    out << "gradient_checkpointing: " << (f.recompute() ? "true" : "false") << "\n";
    const std::string method = f.method();
    const int64_t bits = f.training()["finetune"]["base_weight_bits"].get<int64_t>();
    if (method != "full") {
        out << "adapter: " << (method == "qlora" ? "qlora" : "lora") << "\n";
        if (method == "qlora")
            out << "load_in_4bit: true\n";
        else if (bits == 8)
            out << "load_in_8bit: true\n";
        out << "lora_r: " << f.training()["finetune"]["lora_rank"].dump() << "\n";
        if (f.allLinear()) {
            out << "lora_target_linear: true\n";
        } else {
            out << "lora_target_modules:\n";
            for (const auto &t : f.targets())
                out << "  - " << yamlScalar(t) << "\n";
        }
    }
    const std::string p = f.precision();
    if (p == "bf16" || p == "bf16_mixed" || p == "amp_bf16")
        out << "bf16: true\n";
    else if (p == "fp16_mixed" || p == "amp_fp16")
        out << "fp16: true\n";
    // Under DeepSpeed the JSON's 16-bit engine keeps the fp32 master weights of *_mixed.
    if (p == "amp_bf16" || p == "amp_fp16" ||
        ((p == "bf16_mixed" || p == "fp16_mixed") && f.framework() != "deepspeed"))
        r.notes.push_back("training.precision: Axolotl loads the weights in 16 bits: " + p +
                          " reads back as bf16/fp16 weights");
    if (const std::string o = hfOptim(f.training()["optimizer"].get<std::string>(),
                                           f.training().value("optimizer_implementation", "auto")); !o.empty())
        out << "optimizer: " << o << "\n";
    out << "flash_attention: " << (f.training()["attention"] == "flash" ? "true" : "false") << "\n";
    if (f.zero() > 0 && f.s["framework"] == "deepspeed")
        out << "deepspeed: " << deepspeedName(f, "deepspeed_configs/", "zero{N}.json") << "\n";
    else if (f.fsdp())
        axolotlFsdp(f, out, r.notes);
    else if (f.zero() > 0)
        r.notes.push_back("parallelism.zero_stage: " + std::to_string(f.zero()) +
                          " under Megatron is not an Axolotl setting");
    if (f.offload("offload_optimizer") != "none" && f.s["framework"] == "deepspeed")
        r.notes.push_back("parallelism.offload_optimizer: Axolotl's deepspeed_configs/zeroN.json "
                          "do not offload; use the DeepSpeed export for the JSON");
    commonTrainerNotes(f, r.notes);
    r.text = out.str();
    return r;
}

ExportResult llamaFactory(const Facts &f)
{
    // Keys of src/llamafactory/hparams/ (model_args.py, finetuning_args.py, data_args.py,
    // training_args.py) as its examples/train_*/*.yaml use them.
    ExportResult r;
    std::ostringstream out;
    modelLine(f, "model_name_or_path", out, r.notes);
    out << "stage: sft\n";
    const std::string method = f.method();
    out << "finetuning_type: " << (method == "full" ? "full" : "lora") << "\n";
    if (method != "full") {
        out << "lora_rank: " << f.training()["finetune"]["lora_rank"].dump() << "\n";
        std::string targets;
        for (const auto &t : f.targets())
            targets += (targets.empty() ? "" : ",") + (t == "all-linear" ? std::string("all") : t);
        out << "lora_target: " << targets << "\n";
        const int64_t bits = f.training()["finetune"]["base_weight_bits"].get<int64_t>();
        if (method == "qlora" || bits == 8)
            out << "quantization_bit: " << (method == "qlora" ? 4 : 8) << "\n";
    }
    out << "cutoff_len: " << f.training()["sequence_length"].dump() << "\n";
    out << "per_device_train_batch_size: " << f.training()["micro_batch_size"].dump() << "\n";
    out << "gradient_accumulation_steps: " << f.training()["gradient_accumulation_steps"].dump()
        << "\n";
    const std::string p = f.precision();
    if (p == "bf16" && method == "full")
        out << "bf16: true\npure_bf16: true\n";
    else if (p == "bf16" || p == "bf16_mixed" || p == "amp_bf16")
        out << "bf16: true\n";
    else if (p == "fp16_mixed" || p == "amp_fp16")
        out << "fp16: true\n";
    if (!f.recompute())
        out << "disable_gradient_checkpointing: true\n";
    if (f.training()["attention"] == "flash")
        out << "flash_attn: fa2\n";
    if (f.zero() > 0 && f.s["framework"] == "deepspeed")
        out << "deepspeed: "
            << deepspeedName(f, "examples/deepspeed/", "ds_z{N}{offload}_config.json") << "\n";
    else if (f.fsdp())
        // LLaMA-Factory runs FSDP through Accelerate: its examples/accelerate/fsdp_config.yaml,
        // launched as `accelerate launch --config_file fsdp_config.yaml src/train.py THIS.yaml`
        // (README "FSDP"); its own YAML has no FSDP key.
        r.notes.push_back("parallelism.zero_stage: FSDP is set by an Accelerate config beside "
                          "this file: `vramplan-cli export PLAN --to accelerate > "
                          "fsdp_config.yaml`, then `accelerate launch --config_file "
                          "fsdp_config.yaml src/train.py THIS.yaml`");
    else if (f.zero() > 0)
        r.notes.push_back("parallelism.zero_stage: " + std::to_string(f.zero()) +
                          " under Megatron is not a LLaMA-Factory setting");
    commonTrainerNotes(f, r.notes);
    r.text = out.str();
    return r;
}

} // namespace vramplan::exports
