// torchtitan's train config TOML (pytorch/torchtitan torchtitan/models/*/train_configs/*.toml,
// the releases before the Python config registry of 2026-02; v0.2.2 = 73a0e69 read here).
// Defaults from torchtitan/config/job_config.py at v0.2.2: training.local_batch_size 8,
// global_batch_size -1 (local x data-parallel degree), seq_len 2048, mixed_precision_param
// bfloat16, parallelism.data_parallel_shard_degree -1 (the GPUs left after replicate, TP, PP,
// CP), the other degrees 1, activation_checkpoint.mode selective with selective_ac_option "2".
// Mixed precision is applied by fully_shard when the model is sharded, by torch.autocast under
// DDP or on one GPU, and not at all with TP or PP without FSDP
// (torchtitan/distributed/utils.py, maybe_enable_amp).

#include "imports/import_draft.h"

#include "formats/scenario_json.h"
#include "json_value_text.h"

namespace vramplan::imports {
namespace {

const std::string jobConfig = "torchtitan default (torchtitan/config/job_config.py)";

// torchtitan's model name and flavor (torchtitan/models/<name>/__init__.py) with a bundled
// preset of the same shapes.
std::string presetOf(const std::string &name, const std::string &flavor)
{
    static const std::tuple<const char *, const char *, const char *> table[] = {
        {"llama3", "8B", "llama-3.1-8b"},     {"llama3", "70B", "llama-3.1-70b"},
        {"llama3", "405B", "llama-3.1-405b"}, {"qwen3", "0.6B", "qwen3-0.6b"},
        {"qwen3", "1.7B", "qwen3-1.7b"},      {"qwen3", "4B", "qwen3-4b"},
        {"qwen3", "8B", "qwen3-8b"},          {"qwen3", "14B", "qwen3-14b"},
        {"qwen3", "32B", "qwen3-32b"},        {"deepseek_v3", "671B", "deepseek-v3"},
    };
    for (const auto &[n, f, preset] : table)
        if (name == n && flavor == f)
            return preset;
    return "";
}

} // namespace

void importTorchtitan(ConfigDoc &doc, Draft &draft)
{
    if (!doc.find("training") && !doc.find("parallelism") && !doc.find("model"))
        throw ImportError(doc.file() + ": a TOML file without [training], [parallelism] or "
                                       "[model]; not a torchtitan train config");
    draft.set("framework", "torchtitan", doc.file() + " (a torchtitan train config)");
    const std::string name = doc.takeString("model.name").value_or("llama3");
    const std::string flavor = doc.takeString("model.flavor").value_or("debugmodel");
    draft.modelName = name + " " + flavor;
    draft.modelOrigin = doc.origin("model.flavor");
    draft.modelWhere = doc.where(doc.find("model.flavor") ? "model.flavor" : "model.name");
    draft.modelPreset = presetOf(name, flavor);
    doc.use("model.hf_assets_path");
    doc.use("model.tokenizer_path");
    if (const nlohmann::json *converters = doc.take("model.converters"))
        if (converters->is_array() && !converters->empty())
            draft.warn(doc.origin("model.converters") + ": " + converters->dump() +
                       " (float8 or MX training) is not modelled; planned without it");

    const nlohmann::json *localKey = doc.find("training.local_batch_size");
    const char *batchKey = localKey ? "training.local_batch_size" : "training.batch_size";
    const int64_t local = doc.takeInt(batchKey, 1, 1 << 20).value_or(8);
    draft.set("training.micro_batch_size", local,
              doc.find(batchKey) ? doc.origin(batchKey) : jobConfig + ": local_batch_size 8");
    const int64_t seq = doc.takeInt("training.seq_len", 1, int64_t(1) << 30).value_or(2048);
    draft.set("training.sequence_length", seq,
              doc.find("training.seq_len") ? doc.origin("training.seq_len")
                                           : jobConfig + ": seq_len 2048");

    const auto degree = [&doc](const char *key, int64_t min) {
        return doc.takeInt(std::string("parallelism.") + key, min, 1 << 20).value_or(1);
    };
    const int64_t replicate = degree("data_parallel_replicate_degree", 1);
    int64_t shard = degree("data_parallel_shard_degree", -1);
    const int64_t tp = degree("tensor_parallel_degree", 1);
    const int64_t pp = degree("pipeline_parallel_degree", 1);
    const int64_t cp = degree("context_parallel_degree", 1);
    const int64_t ep = degree("expert_parallel_degree", 1);
    if (shard == 0)
        doc.fail("parallelism.data_parallel_shard_degree", "must be -1 or at least 1, got 0");
    for (const auto &[key, path, value] :
         {std::tuple{"tensor_parallel_degree", "parallelism.tensor_parallel", tp},
          std::tuple{"pipeline_parallel_degree", "parallelism.pipeline_parallel", pp},
          std::tuple{"context_parallel_degree", "parallelism.context_parallel", cp},
          std::tuple{"expert_parallel_degree", "parallelism.expert_parallel", ep}})
        if (doc.find(std::string("parallelism.") + key))
            draft.set(path, value, doc.origin(std::string("parallelism.") + key));
    std::string shardOrigin = doc.origin("parallelism.data_parallel_shard_degree");
    if (!doc.find("parallelism.data_parallel_shard_degree"))
        shardOrigin = jobConfig + ": data_parallel_shard_degree -1";
    const int64_t gpus = draft.gpuCount();
    if (shard == -1 && gpus > 0) {
        // -1: the GPUs left over (torchtitan/distributed/parallel_dims.py).
        const int64_t other = replicate * tp * pp * cp;
        if (gpus % other != 0)
            doc.fail("parallelism.data_parallel_replicate_degree",
                     std::to_string(gpus) + " GPUs are not a multiple of replicate x TP x PP x CP = " +
                         std::to_string(other));
        shard = gpus / other;
        shardOrigin += " (-1: the " + std::to_string(shard) + " GPUs left)";
    } else if (gpus > 0 && replicate * shard * tp * pp * cp != gpus) {
        doc.fail("parallelism.data_parallel_shard_degree",
                 "replicate x shard x TP x PP x CP = " +
                     std::to_string(replicate * shard * tp * pp * cp) + ", not the " +
                     std::to_string(gpus) + " GPUs");
    }
    const bool fsdp = shard > 1 || cp > 1;
    if (fsdp) {
        const std::string reshard =
            doc.takeString("parallelism.fsdp_reshard_after_forward").value_or("default");
        // "default" reshards except where pipeline parallelism keeps the parameters
        // (torchtitan/models/llama3/infra/parallelize.py, apply_fsdp).
        const bool keep = reshard == "never" || (reshard == "default" && pp > 1);
        draft.set("parallelism.zero_stage", keep ? 2 : 3,
                  shardOrigin + (keep ? ", parameters kept after forward" : "") + " (FSDP2)");
        draft.set("parallelism.fsdp_version", 2, shardOrigin + " (fully_shard)");
        if (replicate > 1)
            draft.warn(doc.origin("parallelism.data_parallel_replicate_degree") +
                       ": HSDP replica groups are planned as FSDP over all " +
                       std::to_string(replicate * shard) + " data-parallel ranks");
    } else {
        doc.use("parallelism.fsdp_reshard_after_forward");
    }

    const int64_t dp = replicate * (shard > 0 ? shard : 0);
    if (const auto global = doc.takeInt("training.global_batch_size", -1, int64_t(1) << 30);
        global && *global > 0 && dp > 0) {
        if (*global % (local * dp) != 0)
            doc.fail("training.global_batch_size",
                     std::to_string(*global) + " is not a multiple of local_batch_size x " +
                         std::to_string(dp) + " data-parallel ranks");
        draft.set("training.gradient_accumulation_steps", *global / (local * dp),
                  doc.origin("training.global_batch_size") + " / (local_batch_size x " +
                      std::to_string(dp) + " data-parallel ranks)");
    }

    const std::string param =
        doc.takeString("training.mixed_precision_param").value_or("bfloat16");
    const std::string paramOrigin = doc.find("training.mixed_precision_param")
                                        ? doc.origin("training.mixed_precision_param")
                                        : jobConfig + ": mixed_precision_param bfloat16";
    doc.use("training.mixed_precision_reduce");
    if (param == "float32")
        draft.set("training.precision", "fp32", paramOrigin);
    else if (param != "bfloat16")
        doc.fail("training.mixed_precision_param", "must be bfloat16 or float32, got '" + param + "'");
    else if (fsdp)
        draft.set("training.precision", "bf16_mixed",
                  paramOrigin + " (applied by fully_shard: bf16 compute, fp32 sharded parameters)");
    else if (tp > 1 || pp > 1)
        draft.set("training.precision", "fp32",
                  paramOrigin + " is not applied with TP or PP without FSDP "
                                "(torchtitan/distributed/utils.py): fp32");
    else
        draft.set("training.precision", "amp_bf16",
                  paramOrigin + " (torch.autocast under DDP or on one GPU)");

    const std::string mode = doc.takeString("activation_checkpoint.mode").value_or("selective");
    const std::string acOrigin = doc.find("activation_checkpoint.mode")
                                     ? doc.origin("activation_checkpoint.mode")
                                     : jobConfig + ": activation_checkpoint.mode selective";
    if (mode == "full" || mode == "none") {
        draft.set("training.activation_recompute", mode, acOrigin);
        doc.use("activation_checkpoint.selective_ac_option");
    } else if (mode == "selective") {
        const nlohmann::json *option = doc.take("activation_checkpoint.selective_ac_option");
        const std::string value = option ? (option->is_string() ? option->get<std::string>()
                                                                : option->dump())
                                         : "2";
        if (value == "op") {
            draft.set("training.activation_recompute", "selective",
                      acOrigin + ", selective_ac_option op (matmul outputs kept, the rest "
                                 "recomputed)");
        } else {
            draft.set("training.activation_recompute", "full",
                      acOrigin + ", selective_ac_option " + value + " (every " + value +
                          "th layer checkpointed)");
            draft.warn((option ? doc.origin("activation_checkpoint.selective_ac_option")
                               : jobConfig + ": selective_ac_option \"2\"") +
                       ": every " + value + "th layer is checkpointed; planned as all layers");
        }
    } else {
        doc.fail("activation_checkpoint.mode", "must be none, selective or full, got '" + mode + "'");
    }

    if (const auto compile = doc.takeBool("compile.enable")) {
        draft.set("training.compile", *compile, doc.origin("compile.enable"));
        if (*compile) {
            const nlohmann::json *components = doc.take("compile.components");
            bool loss = true; // the default components are model and loss
            if (components && components->is_array())
                loss = std::find(components->begin(), components->end(), "loss") != components->end();
            draft.set("training.compile_loss", loss,
                      components ? doc.origin("compile.components") : jobConfig);
        } else {
            doc.use("compile.components");
        }
    }

    if (const auto opt = doc.takeString("optimizer.name")) {
        if (*opt == "AdamW")
            draft.set("training.optimizer", "adamw", doc.origin("optimizer.name"));
        else if (*opt == "Adam")
            draft.set("training.optimizer", "adam", doc.origin("optimizer.name"));
        else
            draft.warn(doc.origin("optimizer.name") + ": '" + *opt +
                       "' is not an optimizer the planner models; the optimizer is not imported");
        const auto impl = doc.takeString("optimizer.implementation");
        const std::string value = impl.value_or("fused");
        if (value != "fused" && value != "foreach" && value != "for-loop")
            doc.fail("optimizer.implementation",
                     "must be fused, foreach or for-loop, got '" + value + "'");
        draft.set("training.optimizer_implementation", value == "for-loop" ? "for_loop" : value,
                  impl ? doc.origin("optimizer.implementation")
                       : jobConfig + ": optimizer.implementation fused");
    }
}

} // namespace vramplan::imports
