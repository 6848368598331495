// A verl launch script (volcengine/verl examples/**/*.sh: `python3 -m verl.trainer.main_ppo`
// with Hydra overrides). What trains on the GPUs between rollouts is the policy (the actor)
// under FSDP; that step is the top of the scenario. The rollout's settings (algorithm, group
// size, prompt and response lengths, engine, its memory share, the offload switches) go to the
// scenario's `rl` section (SPEC §3 "Reinforcement learning", core/rl_config.h).
// Defaults from verl at commit b178a3c (2026-01, 0.8.0.dev): verl/trainer/config/
// _generated_ppo_trainer.yaml (ppo_mini_batch_size 256, use_dynamic_bsz false,
// ppo_max_token_len_per_gpu 16384, fsdp_config param_offload and optimizer_offload false,
// model_dtype fp32 with bf16 compute, enable_gradient_checkpointing true, use_remove_padding
// true, rollout.n 1, gpu_memory_utilization 0.5, data.max_prompt_length and max_response_length
// 512, trainer.n_gpus_per_node 8, nnodes 1, algorithm.adv_estimator gae) and
// verl/workers/fsdp_workers.py (the mini-batch is multiplied by rollout.n and divided over the
// data-parallel ranks; accumulation = mini-batch per GPU / ppo_micro_batch_size_per_gpu,
// verl/workers/actor/dp_actor.py).

#include "imports/import_draft.h"
#include "imports/launch_command.h"

#include "formats/scenario_json.h"
#include "json_value_text.h"

namespace vramplan::imports {
namespace {

const std::string generated = "verl default (verl/trainer/config/_generated_ppo_trainer.yaml)";

} // namespace

void importVerl(LaunchScript &launch, Draft &draft)
{
    ConfigDoc &doc = *launch.flags;
    const std::string where = doc.file() + ":" + std::to_string(launch.line);
    const std::string actor = "actor_rollout_ref.actor.";
    const std::string model = "actor_rollout_ref.model.";
    const std::string rollout = "actor_rollout_ref.rollout.";
    const auto origin = [&doc](const std::string &key, const std::string &fallback) {
        return doc.find(key) ? doc.origin(key) : generated + ": " + fallback;
    };

    // GPUs: trainer.n_gpus_per_node x trainer.nnodes, as verl's resource pool counts them.
    {
        const auto perNode = doc.takeInt("trainer.n_gpus_per_node", 1, 65536);
        const auto nodes = doc.takeInt("trainer.nnodes", 1, 65536);
        draft.fileGpus = perNode.value_or(8) * nodes.value_or(1);
        draft.fileGpusOrigin = origin("trainer.n_gpus_per_node", "n_gpus_per_node 8") + " x " +
                               origin("trainer.nnodes", "nnodes 1");
        if (draft.options.gpus > 0 && draft.options.gpus != draft.fileGpus)
            draft.warn(draft.fileGpusOrigin + " gives " + std::to_string(draft.fileGpus) +
                       " GPUs, --gpus " + std::to_string(draft.options.gpus) + " is planned");
    }
    const int64_t gpus = draft.gpuCount();

    if (const auto path = doc.takeString(model + "path")) {
        draft.modelName = *path;
        draft.modelOrigin = doc.origin(model + "path");
        draft.modelWhere = doc.where(model + "path");
    }

    const std::string strategy = doc.takeString(actor + "strategy").value_or("fsdp");
    const std::string sOrigin = origin(actor + "strategy", "strategy fsdp");
    if (strategy == "megatron") {
        draft.set("framework", "megatron", sOrigin);
        draft.warn(sOrigin + ": the Megatron actor's parallel sizes (actor.megatron.*) are not "
                             "read; set the parallelism in the scenario");
    } else if (strategy == "fsdp" || strategy == "fsdp2") {
        draft.set("framework", "transformers",
                  where + ": verl trains the Hugging Face model of the policy under " + strategy);
        const bool reshard = doc.takeBool(actor + "fsdp_config.reshard_after_forward").value_or(true);
        draft.set("parallelism.zero_stage", reshard ? 3 : 2,
                  sOrigin + (reshard ? " (full shard)" : ", reshard_after_forward false"));
        draft.set("parallelism.fsdp_version", strategy == "fsdp2" ? 2 : 1, sOrigin);
        doc.use(actor + "fsdp_config.fsdp_size");
        if (const auto size = doc.find(actor + "fsdp_config.fsdp_size"); size && size->is_number_integer() &&
                                                                        size->get<int64_t>() > 0 &&
                                                                        size->get<int64_t>() != gpus)
            draft.warn(doc.origin(actor + "fsdp_config.fsdp_size") +
                       ": sharding over a subset of the GPUs is planned as sharding over all");
        // The actor's offload switches move its parameters and optimizer states to the CPU
        // between phases and back for the update (verl/workers/fsdp_workers.py
        // offload_fsdp_model_to_cpu / load_fsdp_model_to_gpu; no FSDP CPUOffload for the
        // actor): the update itself runs with both on the GPU, so they are the rl section's
        // offload switches (read below), not the step's.
        const bool params = doc.takeBool(actor + "fsdp_config.param_offload").value_or(false);
        const bool optim = doc.takeBool(actor + "fsdp_config.optimizer_offload").value_or(false);
        const std::string between = " (verl offloads between phases; the update runs on the GPU, "
                                    "verl/workers/fsdp_workers.py)";
        draft.set("parallelism.offload_parameters", "none",
                  origin(actor + "fsdp_config.param_offload", "param_offload false") + between);
        draft.set("parallelism.offload_optimizer", "none",
                  origin(actor + "fsdp_config.optimizer_offload", "optimizer_offload false") +
                      between);
        draft.set("rl.offload.policy_parameters", params,
                  origin(actor + "fsdp_config.param_offload", "param_offload false"));
        draft.set("rl.offload.policy_optimizer", optim,
                  origin(actor + "fsdp_config.optimizer_offload", "optimizer_offload false"));
        // FSDP's MixedPrecision: fp32 sharded parameters (model_dtype), bf16 compute (dtype).
        const std::string master = doc.takeString(actor + "fsdp_config.model_dtype").value_or("fp32");
        draft.set("training.precision", master == "fp32" ? "bf16_mixed" : "bf16",
                  origin(actor + "fsdp_config.model_dtype", "fsdp_config model_dtype fp32, dtype bfloat16") +
                      " (bf16 compute over " + master + " parameters)");
    } else {
        doc.fail(actor + "strategy", "must be fsdp, fsdp2 or megatron, got '" + strategy + "'");
    }

    const int64_t prompt = doc.takeInt("data.max_prompt_length", 1, int64_t(1) << 24).value_or(512);
    const int64_t response = doc.takeInt("data.max_response_length", 1, int64_t(1) << 24).value_or(512);
    const bool removePadding = doc.takeBool(model + "use_remove_padding").value_or(true);
    draft.set("training.sequence_length", prompt + response,
              origin("data.max_prompt_length", "max_prompt_length 512") + " + " +
                  origin("data.max_response_length", "max_response_length 512") +
                  (removePadding ? " (an upper bound: use_remove_padding packs the samples)" : ""));

    const int64_t n = doc.takeInt(rollout + "n", 1, 1 << 16).value_or(1);
    const bool dynamic = doc.takeBool(actor + "use_dynamic_bsz").value_or(false);
    std::optional<int64_t> micro = doc.takeInt(actor + "ppo_micro_batch_size_per_gpu", 1, 1 << 20);
    if (dynamic) {
        // A token budget per GPU instead of a sample count: as many samples of the longest
        // length as fit in it.
        const int64_t tokens =
            doc.takeInt(actor + "ppo_max_token_len_per_gpu", 1, int64_t(1) << 30).value_or(16384);
        micro = std::max<int64_t>(1, tokens / (prompt + response));
        draft.set("training.micro_batch_size", *micro,
                  origin(actor + "ppo_max_token_len_per_gpu", "ppo_max_token_len_per_gpu 16384") +
                      " tokens / " + std::to_string(prompt + response) +
                      " per sample (" + doc.origin(actor + "use_dynamic_bsz") + ")");
    } else if (micro) {
        draft.set("training.micro_batch_size", *micro, doc.origin(actor + "ppo_micro_batch_size_per_gpu"));
    } else {
        throw ImportError(where + ": " + actor + "ppo_micro_batch_size_per_gpu is not set (nor " +
                          actor + "use_dynamic_bsz); verl requires one of them");
    }
    const int64_t ulysses =
        doc.takeInt(actor + "ulysses_sequence_parallel_size", 1, 1 << 16).value_or(1);
    if (ulysses > 1) {
        draft.set("parallelism.context_parallel", ulysses,
                  doc.origin(actor + "ulysses_sequence_parallel_size") +
                      " (Ulysses sequence parallelism, planned as context parallelism)");
    }
    const int64_t mini = doc.takeInt(actor + "ppo_mini_batch_size", 1, 1 << 24).value_or(256);
    if (gpus > 0 && !dynamic) {
        const int64_t dp = gpus / ulysses;
        const int64_t perGpu = mini * n / std::max<int64_t>(1, dp);
        if (perGpu < *micro || perGpu % *micro != 0)
            doc.fail(actor + "ppo_micro_batch_size_per_gpu",
                     std::to_string(*micro) + " does not divide the mini-batch per GPU (" +
                         std::to_string(mini) + " x rollout.n " + std::to_string(n) + " / " +
                         std::to_string(dp) + " = " + std::to_string(perGpu) + ")");
        draft.set("training.gradient_accumulation_steps", perGpu / *micro,
                  origin(actor + "ppo_mini_batch_size", "ppo_mini_batch_size 256") + " x " +
                      origin(rollout + "n", "rollout.n 1") + " / " + std::to_string(dp) +
                      " GPUs / micro-batch " + std::to_string(*micro) +
                      " (verl/workers/fsdp_workers.py)");
    }

    const bool checkpointing = doc.takeBool(model + "enable_gradient_checkpointing").value_or(true);
    draft.set("training.activation_recompute", checkpointing ? "full" : "none",
              origin(model + "enable_gradient_checkpointing", "enable_gradient_checkpointing true"));
    if (doc.takeBool(model + "enable_activation_offload").value_or(false))
        draft.warn(doc.origin(model + "enable_activation_offload") +
                   ": activations moved to the CPU are not modelled");
    if (const auto rank = doc.takeInt(model + "lora_rank", 0, 1 << 16); rank && *rank > 0) {
        draft.set("training.finetune.method", "lora", doc.origin(model + "lora_rank"));
        draft.set("training.finetune.lora_rank", *rank, doc.origin(model + "lora_rank"));
        if (const nlohmann::json *t = doc.take(model + "target_modules"))
            draft.set("training.finetune.lora_targets",
                      loraTargetsFrom(*t, doc, model + "target_modules"), doc.origin(model + "target_modules"));
        else
            draft.set("training.finetune.lora_targets", loraTargetsFrom("all-linear", doc, "target_modules"),
                      generated + ": target_modules all-linear");
        doc.use(model + "lora_alpha");
    }
    if (const auto optim = doc.takeString(actor + "optim.optimizer"); optim && *optim != "AdamW")
        draft.warn(doc.origin(actor + "optim.optimizer") + ": '" + *optim +
                   "' is planned as AdamW");
    draft.set("training.optimizer", "adamw", origin(actor + "optim.optimizer", "AdamW"));

    // The rl section (SPEC §3 "Reinforcement learning"; core/rl_config.h): what the rollout adds
    // to the policy's step. The release is not in the script: framework_version is left to the
    // planner's verl default.
    draft.set("rl.framework", "verl", where + ": verl.trainer.main_ppo");
    const std::string estimator = doc.takeString("algorithm.adv_estimator").value_or("gae");
    const std::string eOrigin = origin("algorithm.adv_estimator", "adv_estimator gae");
    static const std::pair<const char *, const char *> algorithms[] = {
        {"gae", "ppo"}, {"grpo", "grpo"}, {"rloo", "rloo"}, {"reinforce_plus_plus", "reinforce_pp"}};
    std::string algorithm;
    for (const auto &[name, value] : algorithms)
        if (estimator == name)
            algorithm = value;
    if (algorithm.empty()) {
        algorithm = "grpo";
        draft.warn(eOrigin + ": the estimator '" + printableLine(estimator, 40) +
                   "' is planned as GRPO (a group of responses per prompt, no critic)");
    }
    draft.set("rl.algorithm", algorithm,
              eOrigin + (estimator == "gae" ? " (GAE: PPO with a critic)" : ""));
    draft.set("rl.critic", estimator == "gae", eOrigin + (estimator == "gae" ? " (a critic model)" : ""));
    draft.set("rl.group_size", n, origin(rollout + "n", "rollout.n 1"));
    draft.set("rl.prompt_tokens", prompt, origin("data.max_prompt_length", "max_prompt_length 512"));
    draft.set("rl.response_tokens", response,
              origin("data.max_response_length", "max_response_length 512"));
    const bool klLoss = doc.takeBool(actor + "use_kl_loss").value_or(false);
    const bool klReward = doc.takeBool("algorithm.use_kl_in_reward").value_or(false);
    draft.set("rl.reference_model", klLoss || klReward,
              origin(actor + "use_kl_loss", "use_kl_loss false") + ", " +
                  origin("algorithm.use_kl_in_reward", "use_kl_in_reward false") +
                  " (the reference model computes the KL term)");
    if (klLoss)
        if (const nlohmann::json *coef = doc.take(actor + "kl_loss_coef"); coef && coef->is_number())
            draft.set("rl.beta", coef->get<double>(), doc.origin(actor + "kl_loss_coef"));
    const std::string engine = doc.takeString(rollout + "name").value_or("");
    if (engine == "vllm" || engine == "sglang")
        draft.set("rl.rollout.engine", engine, doc.origin(rollout + "name"));
    else if (!engine.empty())
        draft.warn(doc.origin(rollout + "name") + ": the rollout engine '" +
                   printableLine(engine, 40) + "' is not modelled; planned as vLLM");
    else
        draft.warn(where + ": " + rollout + "name is not set (verl requires it); planned as vLLM");
    draft.set("rl.rollout.placement", "colocated",
              where + ": verl's hybrid engine shares the training GPUs");
    if (const nlohmann::json *util = doc.take(rollout + "gpu_memory_utilization")) {
        if (!util->is_number())
            doc.fail(rollout + "gpu_memory_utilization", "must be a number, got " + describeJson(*util));
        draft.set("rl.rollout.gpu_memory_utilization", util->get<double>(),
                  doc.origin(rollout + "gpu_memory_utilization"));
    }
    if (const auto tp = doc.takeInt(rollout + "tensor_model_parallel_size", 1, 1 << 10))
        draft.set("rl.rollout.tensor_parallel", *tp, doc.origin(rollout + "tensor_model_parallel_size"));
    if (const auto seqs = doc.takeInt(rollout + "max_num_seqs", 1, 1 << 20))
        draft.set("rl.rollout.max_num_seqs", *seqs, doc.origin(rollout + "max_num_seqs"));
    if (const auto lp = doc.takeInt(rollout + "log_prob_micro_batch_size_per_gpu", 1, 1 << 20))
        draft.set("rl.log_prob_micro_batch_size", *lp,
                  doc.origin(rollout + "log_prob_micro_batch_size_per_gpu"));
    doc.use("actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu");
    if (const auto mode = doc.takeString(rollout + "mode"); mode && *mode != "sync")
        draft.warn(doc.origin(rollout + "mode") + ": the " + *mode +
                   " rollout server is planned as the colocated engine");
    const auto ref = doc.takeBool("actor_rollout_ref.ref.fsdp_config.param_offload");
    draft.set("rl.offload.reference", ref.value_or(false),
              origin("actor_rollout_ref.ref.fsdp_config.param_offload", "param_offload false"));

    for (auto &w : launchWarnings(launch))
        draft.warn(std::move(w));
    for (auto &note : launch.notes)
        draft.warn(std::move(note));
}

} // namespace vramplan::imports
