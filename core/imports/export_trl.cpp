// exportTrainingSetup for TRL: a scenario as the YAML of `trl sft|grpo|dpo --config FILE`, keys of
// transformers' TrainingArguments (src/transformers/training_args.py), TRL's ModelConfig
// (trl/trainer/model_config.py: use_peft, lora_r, lora_target_modules, load_in_4bit,
// torch_dtype, attn_implementation) and, with an `rl` section, GRPOConfig / DPOConfig
// (trl/trainer/grpo_config.py, dpo_config.py at v0.23: num_generations, max_prompt_length,
// max_completion_length, beta, use_vllm, vllm_mode, vllm_gpu_memory_utilization,
// vllm_enable_sleep_mode, vllm_tensor_parallel_size; max_length, precompute_ref_log_probs).

#include "imports/export_setup_internal.h"

namespace vramplan::exports {
namespace {

void precision(const Facts &f, std::ostringstream &out, std::vector<std::string> &notes)
{
    // The Trainer's bf16/fp16 autocast over the weights as ModelConfig loads them (torch_dtype):
    // bfloat16 weights trained as loaded are pure bf16, float32 weights under autocast amp_bf16.
    // Under DeepSpeed the JSON's bf16 keeps fp32 master weights (bf16_mixed).
    const std::string p = f.precision();
    const bool deepspeed = f.framework() == "deepspeed" && f.zero() > 0;
    const bool bf16 = p == "bf16" || p == "bf16_mixed" || p == "amp_bf16" || p == "fp8_mixed";
    const bool fp16 = p == "fp16_mixed" || p == "amp_fp16";
    out << "bf16: " << (bf16 ? "true" : "false") << "\n";
    if (fp16)
        out << "fp16: true\n";
    if (p == "bf16")
        out << "torch_dtype: bfloat16\n";
    else if (!deepspeed)
        out << "torch_dtype: float32\n";
    if (p == "fp8_mixed")
        notes.push_back("training.precision: fp8 GEMMs are not a TrainingArguments key; "
                        "written as bf16");
    if (!deepspeed && (p == "bf16_mixed" || p == "fp16_mixed"))
        notes.push_back(
            "training.precision: " + p + " is written as " + p.substr(0, 4) +
            " autocast over float32 weights (" +
            (f.fsdp() ? "FSDP's MixedPrecision shards them in fp32" : "amp_" + p.substr(0, 4)) +
            ")");
    if (deepspeed && (p == "bf16" || p == "amp_bf16" || p == "amp_fp16"))
        notes.push_back("training.precision: under DeepSpeed the 16-bit engine keeps fp32 "
                        "master weights (" +
                        std::string(fp16 ? "fp16_mixed" : "bf16_mixed") + ")");
}

void sharding(const Facts &f, std::ostringstream &out, std::vector<std::string> &notes)
{
    if (f.framework() == "deepspeed" && f.zero() > 0) {
        out << "deepspeed: " << deepspeedBeside << "\n";
        notes.push_back(std::string("parallelism.zero_stage: in the DeepSpeed JSON this file "
                                    "names: `vramplan-cli export PLAN --to deepspeed > ") +
                        deepspeedBeside + "`");
    } else if (f.fsdp()) {
        // TrainingArguments `fsdp` ("full_shard auto_wrap [offload]") and `fsdp_config`
        // (fsdp_version; the wrap policy takes the model's _no_split_modules).
        const bool offload = fsdpOffload(f, notes);
        out << "fsdp: " << (f.zero() >= 3 ? "full_shard" : "shard_grad_op") << " auto_wrap"
            << (offload ? " offload" : "") << "\n";
        if (f.fsdpVersion() > 0)
            out << "fsdp_config:\n  fsdp_version: " << f.fsdpVersion() << "\n";
    }
    commonTrainerNotes(f, notes);
}

void peft(const Facts &f, std::ostringstream &out)
{
    const std::string method = f.method();
    if (method == "full")
        return;
    out << "use_peft: true\n";
    out << "lora_r: " << f.training()["finetune"]["lora_rank"].dump() << "\n";
    if (f.allLinear()) {
        out << "lora_target_modules: all-linear\n";
    } else {
        out << "lora_target_modules:\n";
        for (const auto &t : f.targets())
            out << "  - " << yamlScalar(t) << "\n";
    }
    const int64_t bits = f.training()["finetune"]["base_weight_bits"].get<int64_t>();
    if (method == "qlora")
        out << "load_in_4bit: true\n";
    else if (bits == 8)
        out << "load_in_8bit: true\n";
}

// GRPOConfig / RLOOConfig: the generation keys; DPOConfig (ORPO, KTO alike): the pair's lengths.
void rlKeys(const Facts &f, std::ostringstream &out, std::vector<std::string> &notes)
{
    const json &rl = f.rl();
    const std::string algorithm = rl["algorithm"].get<std::string>();
    const json &rollout = rl["rollout"];
    if (rl["framework"] != "trl")
        notes.push_back("rl.framework: " + rl["framework"].get<std::string>() +
                        " written as TRL's keys");
    const int64_t prompt = rl["prompt_tokens"].get<int64_t>();
    const int64_t response = rl["response_tokens"].get<int64_t>();
    if (rl.contains("beta"))
        out << "beta: " << rl["beta"].dump() << "\n";
    else if (rl["reference_model"].get<bool>() && algorithm != "orpo")
        notes.push_back("rl.beta: not set: TRL's own default applies (GRPO 0.0 since v0.18, "
                        "which loads no reference model; DPO 0.1)");
    if (algorithm == "dpo" || algorithm == "orpo" || algorithm == "kto") {
        out << "max_length: " << prompt + response << "\n";
        out << "max_prompt_length: " << prompt << "\n";
        if (rl.value("precompute_ref_log_probs", false))
            out << "precompute_ref_log_probs: true\n";
        return;
    }
    if (algorithm == "ppo") {
        notes.push_back("rl.algorithm: ppo: TRL's PPOTrainer (a critic, its own keys) is not "
                        "written; the generation keys below are GRPOConfig's");
    }
    out << "num_generations: " << rl["group_size"].dump() << "\n";
    out << "max_prompt_length: " << prompt << "\n";
    out << "max_completion_length: " << response << "\n";
    const std::string engine = rollout["engine"].get<std::string>();
    out << "use_vllm: " << (engine == "vllm" ? "true" : "false") << "\n";
    if (engine == "sglang")
        notes.push_back("rl.rollout.engine: TRL generates with vLLM or transformers, not SGLang; "
                        "written as transformers' generate");
    if (engine != "vllm")
        return;
    const bool separate = rollout["placement"] == "separate";
    out << "vllm_mode: " << (separate ? "server" : "colocate") << "\n";
    if (separate) {
        notes.push_back(
            "rl.rollout: the vLLM server runs apart: `trl vllm-serve --model MODEL"
            " --tensor-parallel-size " +
            rollout["tensor_parallel"].dump() + "`" +
            (rollout.contains("gpus") ? " on " + rollout["gpus"].dump() + " GPUs" : ""));
        return;
    }
    if (rollout.contains("gpu_memory_utilization"))
        out << "vllm_gpu_memory_utilization: " << rollout["gpu_memory_utilization"].dump() << "\n";
    if (rollout.contains("sleep_level")) {
        const int64_t level = rollout["sleep_level"].get<int64_t>();
        out << "vllm_enable_sleep_mode: " << (level > 0 ? "true" : "false") << "\n";
        if (level == 2)
            notes.push_back("rl.rollout.sleep_level: 2: TRL's sleep mode picks its own level");
    }
    if (rollout["tensor_parallel"].get<int64_t>() > 1)
        out << "vllm_tensor_parallel_size: " << rollout["tensor_parallel"].dump() << "\n";
    if (rollout.contains("max_num_seqs"))
        notes.push_back("rl.rollout.max_num_seqs: not a TRL key (TRL sizes vLLM's batch itself)");
}

} // namespace

ExportResult trl(const Facts &f)
{
    ExportResult r;
    std::ostringstream out;
    modelLine(f, "model_name_or_path", out, r.notes);
    out << "per_device_train_batch_size: " << f.micro() << "\n";
    out << "gradient_accumulation_steps: " << f.accumulation() << "\n";
    out << "gradient_checkpointing: " << (f.recompute() ? "true" : "false") << "\n";
    if (f.training()["activation_recompute"] == "selective")
        r.notes.push_back("training.activation_recompute: selective recomputation is not a "
                          "Trainer setting; written as gradient_checkpointing (full)");
    precision(f, out, r.notes);
    if (const std::string o = hfOptim(f.training()["optimizer"].get<std::string>(),
                                           f.training().value("optimizer_implementation", "auto")); !o.empty())
        out << "optim: " << o << "\n";
    else
        r.notes.push_back("training.optimizer: '" + f.training()["optimizer"].get<std::string>() +
                          "' has no `optim` name");
    if (f.training()["attention"] == "flash")
        out << "attn_implementation: flash_attention_2\n";
    else if (f.training()["attention"] == "sdpa" || f.training()["attention"] == "eager")
        out << "attn_implementation: " << f.training()["attention"].get<std::string>() << "\n";
    if (!f.hasRl())
        out << "max_length: " << f.training()["sequence_length"].dump() << "\n";
    peft(f, out);
    sharding(f, out, r.notes);
    if (f.hasRl())
        rlKeys(f, out, r.notes);
    r.text = out.str();
    return r;
}

} // namespace vramplan::exports
