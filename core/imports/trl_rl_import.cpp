// The `rl` section of a TRL config (`trl grpo --config`, `trl dpo --config`): GRPOConfig's and
// DPOConfig's keys beside the TrainingArguments that trainer_import.cpp reads. Defaults of what a
// file leaves out, TRL v0.23: trl/trainer/grpo_config.py (num_generations 8, max_prompt_length
// 512, max_completion_length 256, beta 0.0, use_vllm false, vllm_mode "server",
// vllm_gpu_memory_utilization 0.3, vllm_tensor_parallel_size 1, vllm_enable_sleep_mode false)
// and trl/trainer/dpo_config.py (beta 0.1, max_prompt_length 512, max_length 1024,
// precompute_ref_log_probs false).

#include "imports/import_draft.h"

#include <algorithm>

namespace vramplan::imports {
namespace {

const char *grpoConfig = "trl/trainer/grpo_config.py";
const char *dpoConfig = "trl/trainer/dpo_config.py";

std::string trlDefault(const std::string &what, const char *file)
{
    return "TRL default " + what + " (" + file + ", v0.23)";
}

// Keys only GRPOConfig has: a file with one of them is a GRPO run's.
bool isGrpo(const ConfigDoc &doc)
{
    for (const char *key : {"num_generations", "max_completion_length", "use_vllm", "vllm_mode",
                            "vllm_gpu_memory_utilization", "vllm_enable_sleep_mode",
                            "steps_per_generation", "num_iterations"})
        if (doc.find(key))
            return true;
    return false;
}

// DPOConfig's own keys, or `max_prompt_length` without GRPO's: SFTConfig has no prompt length,
// the preference trainers (DPO, ORPO, KTO, CPO) have one; DPO is planned.
bool isDpo(const ConfigDoc &doc)
{
    for (const char *key : {"precompute_ref_log_probs", "rpo_alpha", "ref_model_init_kwargs",
                            "reference_free", "max_prompt_length"})
        if (doc.find(key))
            return true;
    return false;
}

std::optional<double> takeNumber(ConfigDoc &doc, const char *key, double min, double max)
{
    const nlohmann::json *v = doc.take(key);
    if (!v)
        return std::nullopt;
    if (!v->is_number() || v->get<double>() < min || v->get<double>() > max)
        doc.fail(key, "must be a number from " + std::to_string(min) + " to " + std::to_string(max));
    return v->get<double>();
}

void importGrpo(ConfigDoc &doc, Draft &draft)
{
    const std::string where = doc.file();
    draft.set("rl.algorithm", "grpo", where + ": GRPOConfig keys (" + grpoConfig + ")");
    const auto group = doc.takeInt("num_generations", 1, 1 << 16);
    draft.set("rl.group_size", group.value_or(8),
              group ? doc.origin("num_generations") : trlDefault("num_generations 8", grpoConfig));
    const auto prompt = doc.takeInt("max_prompt_length", 1, int64_t(1) << 24);
    draft.set("rl.prompt_tokens", prompt.value_or(512),
              prompt ? doc.origin("max_prompt_length")
                     : trlDefault("max_prompt_length 512", grpoConfig));
    const auto completion = doc.takeInt("max_completion_length", 1, int64_t(1) << 24);
    draft.set("rl.response_tokens", completion.value_or(256),
              completion ? doc.origin("max_completion_length")
                         : trlDefault("max_completion_length 256", grpoConfig));
    const auto beta = takeNumber(doc, "beta", 0, 1e6);
    const std::string betaOrigin =
        beta ? doc.origin("beta")
             : trlDefault("beta 0.0 (no reference model, since v0.18)", grpoConfig);
    draft.set("rl.beta", beta.value_or(0.0), betaOrigin);
    draft.set("rl.reference_model", beta.value_or(0.0) > 0,
              betaOrigin + (beta.value_or(0.0) > 0 ? " (a KL term: the reference is kept)"
                                                    : " (no KL term: no reference model)"));

    // The rollout: vLLM beside the trainer (colocate) or as a server on GPUs of its own, or
    // transformers' generate inside the training process (use_vllm false).
    const auto vllm = doc.takeBool("use_vllm");
    if (!vllm.value_or(false)) {
        draft.set("rl.rollout.engine", "transformers",
                  vllm ? doc.origin("use_vllm")
                       : trlDefault("use_vllm false: generate() in the trainer", grpoConfig));
        draft.set("rl.rollout.placement", "colocated",
                  where + ": transformers' generate runs in the training process");
        doc.use("vllm_mode");
        return;
    }
    draft.set("rl.rollout.engine", "vllm", doc.origin("use_vllm"));
    const std::string mode = doc.takeString("vllm_mode").value_or("server");
    const std::string modeOrigin = doc.find("vllm_mode")
                                       ? doc.origin("vllm_mode")
                                       : trlDefault("vllm_mode server", grpoConfig);
    if (mode != "colocate" && mode != "server")
        doc.fail("vllm_mode", "expected colocate or server, got " + mode);
    draft.set("rl.rollout.placement", mode == "colocate" ? "colocated" : "separate", modeOrigin);
    if (const auto util = takeNumber(doc, "vllm_gpu_memory_utilization", 0.0, 1.0);
        util && *util > 0)
        draft.set("rl.rollout.gpu_memory_utilization", *util,
                  doc.origin("vllm_gpu_memory_utilization"));
    if (const auto tp = doc.takeInt("vllm_tensor_parallel_size", 1, 1 << 14))
        draft.set("rl.rollout.tensor_parallel", *tp, doc.origin("vllm_tensor_parallel_size"));
    const auto sleep = doc.takeBool("vllm_enable_sleep_mode");
    draft.set("rl.rollout.sleep_level", sleep.value_or(false) ? 1 : 0,
              sleep ? doc.origin("vllm_enable_sleep_mode") + " (TRL sleeps vLLM at level 1)"
                    : trlDefault("vllm_enable_sleep_mode false", grpoConfig));
    if (mode == "server") {
        // The server is launched apart (`trl vllm-serve`), on one GPU unless its own
        // --tensor_parallel_size / --data_parallel_size say more (trl/scripts/vllm_serve.py).
        draft.set("rl.rollout.gpus", 1,
                  modeOrigin + ": trl vllm-serve's defaults, tensor_parallel_size 1 and "
                               "data_parallel_size 1 (trl/scripts/vllm_serve.py)");
        draft.warn(modeOrigin + ": the vLLM server runs on GPUs of its own (`trl vllm-serve`), "
                                "planned as one; set rl.rollout.gpus if it has more");
    }
}

void importDpo(ConfigDoc &doc, Draft &draft)
{
    const std::string where = doc.file();
    draft.set("rl.algorithm", "dpo", where + ": DPOConfig keys (" + dpoConfig + ")");
    if (doc.find("desirable_weight") || doc.find("undesirable_weight"))
        draft.warn(where + ": KTOConfig keys; planned as DPO (set rl.algorithm to kto)");
    draft.set("rl.group_size", 1, where + ": DPO trains on (chosen, rejected) pairs");
    const auto prompt = doc.takeInt("max_prompt_length", 1, int64_t(1) << 24);
    const int64_t p = prompt.value_or(512);
    draft.set("rl.prompt_tokens", p,
              prompt ? doc.origin("max_prompt_length")
                     : trlDefault("max_prompt_length 512", dpoConfig));
    // max_length bounds prompt + completion (read as training.sequence_length beside this).
    const DraftField *length = draft.field("training.sequence_length");
    const int64_t total = length && length->value.is_number_integer()
                              ? length->value.get<int64_t>()
                              : 1024;
    draft.set("rl.response_tokens", std::max<int64_t>(1, total - p),
              (length ? length->origin : trlDefault("max_length 1024", dpoConfig)) +
                  " minus the prompt's " + std::to_string(p));
    const auto beta = takeNumber(doc, "beta", 0, 1e6);
    draft.set("rl.beta", beta.value_or(0.1),
              beta ? doc.origin("beta") : trlDefault("beta 0.1", dpoConfig));
    if (const auto pre = doc.takeBool("precompute_ref_log_probs"))
        draft.set("rl.precompute_ref_log_probs", *pre, doc.origin("precompute_ref_log_probs"));
    doc.use("loss_type");
}

} // namespace

void importTrlRl(ConfigDoc &doc, Draft &draft)
{
    const bool grpo = isGrpo(doc);
    if (!grpo && !isDpo(doc))
        return;
    draft.set("rl.framework", "trl", doc.file() + ": a TRL trainer's config");
    if (grpo)
        importGrpo(doc, draft);
    else
        importDpo(doc, draft);
}

} // namespace vramplan::imports
