// exportTrainingSetup for verl: a scenario with an `rl` section as the launch script of
// `python3 -m verl.trainer.main_ppo` with Hydra overrides, the keys verl_import.cpp reads, of
// verl's verl/trainer/config/_generated_ppo_trainer.yaml (0.8.0.dev, b178a3c). The policy's
// step (micro-batch, accumulation as the PPO mini-batch, checkpointing, FSDP, LoRA) is the
// actor's; the rollout, the reference and the offload switches are the `rl` section's.

#include "imports/export_setup_internal.h"

#include "imports/import_draft.h"

namespace vramplan::exports {
namespace {

const char *hydraBool(bool b)
{
    return b ? "True" : "False";
}

// algorithm.adv_estimator of each rl.algorithm verl's main_ppo runs.
std::string estimator(const std::string &algorithm)
{
    static const std::pair<const char *, const char *> table[] = {
        {"ppo", "gae"},
        {"grpo", "grpo"},
        {"rloo", "rloo"},
        {"reinforce_pp", "reinforce_plus_plus"}};
    for (const auto &[ours, theirs] : table)
        if (algorithm == ours)
            return theirs;
    return "";
}

// actor.ppo_mini_batch_size, in prompts: verl multiplies it by rollout.n and divides it over the
// data-parallel ranks, then into micro-batches (verl/workers/fsdp_workers.py): accumulation =
// mini x n / dp / micro. The smallest mini-batch at or above the scenario's accumulation whose
// split is whole.
int64_t miniBatch(const Facts &f, int64_t n, std::vector<std::string> &notes)
{
    const int64_t dp = f.dataParallel(), micro = f.micro();
    for (int64_t accum = f.accumulation();; ++accum)
        if ((micro * accum * dp) % n == 0) {
            if (accum != f.accumulation())
                notes.push_back(
                    "training.gradient_accumulation_steps: " + std::to_string(f.accumulation()) +
                    " is no whole "
                    "ppo_mini_batch_size (" +
                    std::to_string(micro) + " x " + std::to_string(f.accumulation()) + " x " +
                    std::to_string(dp) + " GPUs / rollout.n " + std::to_string(n) +
                    "); written as " + std::to_string(accum) + " micro-batches per update");
            return micro * accum * dp / n;
        }
}

} // namespace

ExportResult verl(const Facts &f)
{
    if (!f.hasRl())
        throw ExportRefusal{"rl: verl's main_ppo trains with a rollout; the scenario has no rl "
                            "section (docs/rl.md)"};
    const json &rl = f.rl(), &rollout = rl["rollout"];
    const std::string algorithm = rl["algorithm"].get<std::string>();
    const std::string adv = estimator(algorithm);
    if (adv.empty())
        throw ExportRefusal{"rl.algorithm: " + algorithm +
                            " is not trained by verl's main_ppo "
                            "(ppo, grpo, rloo, reinforce_pp)"};
    ExportResult r;
    std::vector<std::string> args;
    const auto set = [&args](const std::string &key, const std::string &value) {
        args.push_back(key + "=" + value);
    };
    const std::string actor = "actor_rollout_ref.actor.", model = "actor_rollout_ref.model.",
                      gen = "actor_rollout_ref.rollout.";
    if (rl["framework"] != "verl")
        r.notes.push_back("rl.framework: " + rl["framework"].get<std::string>() +
                          " written as verl's keys");
    set("algorithm.adv_estimator", adv);
    if (rl["critic"].get<bool>() != (algorithm == "ppo"))
        r.notes.push_back("rl.critic: verl has a critic exactly for GAE (ppo)");
    const int64_t prompt = rl["prompt_tokens"].get<int64_t>(),
                  response = rl["response_tokens"].get<int64_t>();
    set("data.max_prompt_length", std::to_string(prompt));
    set("data.max_response_length", std::to_string(response));
    if (const std::string hub = imports::hubIdOfPreset(f.preset()); !hub.empty())
        set(model + "path", hub);
    else
        r.notes.push_back(model + "path: not written: the scenario's model has no hub id; name "
                                  "the checkpoint");
    set(model + "enable_gradient_checkpointing", hydraBool(f.recompute()));
    if (f.training()["activation_recompute"] == "selective")
        r.notes.push_back("training.activation_recompute: selective is not a verl setting; "
                          "written as gradient checkpointing");
    if (f.method() != "full") {
        set(model + "lora_rank", f.training()["finetune"]["lora_rank"].dump());
        std::string targets;
        for (const auto &t : f.targets())
            targets += (targets.empty() ? "" : ",") + t;
        set(model + "target_modules", f.allLinear() ? "all-linear" : "[" + targets + "]");
        if (f.method() == "qlora" ||
            f.training()["finetune"]["base_weight_bits"].get<int64_t>() < 16)
            r.notes.push_back("training.finetune.base_weight_bits: verl loads the base in 16 "
                              "bits; a quantized base is not a verl setting");
    }

    // The actor's FSDP: fsdp (FSDP1) or fsdp2; ZeRO-2 keeps the gathered parameters.
    if (f.framework() == "megatron" || f.framework() == "deepspeed")
        r.notes.push_back("framework: " + f.framework() + ": written as verl's FSDP actor");
    set(actor + "strategy", f.fsdpVersion() == 2 ? "fsdp2" : "fsdp");
    if (f.zero() < 2)
        r.notes.push_back("parallelism.zero_stage: " + std::to_string(f.zero()) +
                          ": verl's FSDP actor always shards the parameters (ZeRO-3)");
    if (f.zero() == 2)
        set(actor + "fsdp_config.reshard_after_forward", "False");
    if (f.precision() == "bf16")
        set(actor + "fsdp_config.model_dtype", "bf16");
    else if (f.precision() != "bf16_mixed" && f.precision() != "amp_bf16")
        r.notes.push_back("training.precision: " + f.precision() +
                          ": verl's actor computes in "
                          "bf16 over fp32 parameters (model_dtype fp32, its default)");
    const json &offload = rl["offload"];
    set(actor + "fsdp_config.param_offload", hydraBool(offload["policy_parameters"].get<bool>()));
    set(actor + "fsdp_config.optimizer_offload",
        hydraBool(offload["policy_optimizer"].get<bool>()));
    if (f.offload("offload_parameters") != "none" || f.offload("offload_optimizer") != "none")
        r.notes.push_back("parallelism.offload_*: verl offloads between phases "
                          "(rl.offload.policy_*), never during the update");
    if (f.parallel()["context_parallel"].get<int64_t>() > 1)
        set(actor + "ulysses_sequence_parallel_size", f.parallel()["context_parallel"].dump());
    if (f.parallel()["tensor_parallel"].get<int64_t>() > 1 ||
        f.parallel()["pipeline_parallel"].get<int64_t>() > 1)
        r.notes.push_back("parallelism: the FSDP actor has no tensor or pipeline parallelism; "
                          "not written");
    const int64_t n = rl["group_size"].get<int64_t>();
    set(actor + "ppo_mini_batch_size", std::to_string(miniBatch(f, n, r.notes)));
    set(actor + "ppo_micro_batch_size_per_gpu", std::to_string(f.micro()));
    const bool reference = rl["reference_model"].get<bool>() && rl.value("beta", 1.0) != 0.0;
    set(actor + "use_kl_loss", hydraBool(reference));
    if (reference && rl.contains("beta"))
        set(actor + "kl_loss_coef", rl["beta"].dump());
    if (f.training()["optimizer"] != "adamw")
        r.notes.push_back("training.optimizer: verl's actor optimizer is AdamW");

    const std::string engine = rollout["engine"].get<std::string>();
    set(gen + "name", engine == "transformers" ? "hf" : engine);
    if (engine == "transformers")
        r.notes.push_back("rl.rollout.engine: transformers is verl's hf rollout, planned as "
                          "vLLM when imported back");
    if (rollout["placement"] == "separate")
        r.notes.push_back("rl.rollout.placement: separate: verl's hybrid engine shares the "
                          "training GPUs; written colocated");
    set(gen + "n", std::to_string(n));
    if (rollout.contains("gpu_memory_utilization"))
        set(gen + "gpu_memory_utilization", rollout["gpu_memory_utilization"].dump());
    set(gen + "tensor_model_parallel_size", rollout["tensor_parallel"].dump());
    if (rollout.contains("max_num_seqs"))
        set(gen + "max_num_seqs", rollout["max_num_seqs"].dump());
    if (rollout.contains("sleep_level") && rollout["sleep_level"].get<int64_t>() == 0)
        set(gen + "free_cache_engine", "False");
    if (rollout.contains("cuda_graphs"))
        set(gen + "enforce_eager", hydraBool(!rollout["cuda_graphs"].get<bool>()));
    const std::string logProb = std::to_string(rl.value("log_prob_micro_batch_size", f.micro()));
    set(gen + "log_prob_micro_batch_size_per_gpu", logProb);
    set("actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu", logProb);
    set("actor_rollout_ref.ref.fsdp_config.param_offload",
        hydraBool(offload["reference"].get<bool>()));
    set("algorithm.use_kl_in_reward", "False");

    // verl's resource pool: n_gpus_per_node x nnodes, eight to a node past eight GPUs.
    const int64_t gpus = f.gpus();
    const bool nodes = gpus > 8 && gpus % 8 == 0;
    set("trainer.n_gpus_per_node", std::to_string(nodes ? 8 : gpus));
    set("trainer.nnodes", std::to_string(nodes ? gpus / 8 : 1));

    std::ostringstream out;
    out << "#!/usr/bin/env bash\n";
    out << "python3 -m verl.trainer.main_ppo \\\n";
    for (std::size_t i = 0; i < args.size(); ++i)
        out << "    " << args[i] << (i + 1 < args.size() ? " \\\n" : "\n");
    r.text = out.str();
    return r;
}

} // namespace vramplan::exports
