// What the Hugging Face Trainer's keys mean, for the tools built on it (TRL, Axolotl,
// LLaMA-Factory). Sources: transformers/src/transformers/training_args.py (OptimizerNames,
// `fsdp`, `deepspeed`), transformers/src/transformers/trainer.py (get_optimizer_cls_and_kwargs),
// Axolotl's src/axolotl/utils/schemas/training.py (`optimizer`).

#include "imports/import_draft.h"

#include "json_value_text.h"

#include <filesystem>
#include <utility>

namespace vramplan::imports {

std::optional<OptimizerChoice> optimizerFromHfName(const std::string &name)
{
    // OptimizerNames of transformers (training_args.py) and Axolotl's additions.
    static const std::pair<const char *, OptimizerChoice> table[] = {
        // torch.optim.AdamW without `fused`: torch's foreach implementation on CUDA
        // (torch/optim/optimizer.py _default_to_fused_or_foreach), whatever the Trainer's
        // own default is in that release.
        {"adamw_torch", {"adamw", "foreach"}},
        {"adamw_hf", {"adamw", "for_loop"}}, // transformers' own AdamW (removed in 4.48)
        {"adamw_torch_fused", {"adamw", "fused"}},
        {"adamw_apex_fused", {"adamw", "fused"}},
        {"adamw_torch_4bit", {"adamw", "auto"}},
        {"adamw_bnb_8bit", {"adamw_8bit", "auto"}},
        {"adamw_8bit", {"adamw_8bit", "auto"}},
        {"ao_adamw_8bit", {"adamw_8bit", "auto"}},
        {"paged_adamw_32bit", {"paged_adamw", "auto"}},
        {"paged_adamw", {"paged_adamw", "auto"}},
        {"paged_adamw_8bit", {"paged_adamw_8bit", "auto"}},
        {"adafactor", {"adafactor", "auto"}},
        {"sgd", {"sgd", "auto"}},
        {"lion_32bit", {"lion", "auto"}},
        {"paged_lion_32bit", {"lion", "auto"}},
        {"muon", {"muon", "auto"}},
    };
    for (const auto &[spelling, choice] : table)
        if (name == spelling)
            return choice;
    return std::nullopt;
}

std::vector<std::string> loraTargetsFrom(const nlohmann::json &value, const ConfigDoc &doc,
                                         std::string_view key)
{
    std::vector<std::string> out;
    const auto add = [&](std::string name) {
        while (!name.empty() && name.front() == ' ')
            name.erase(0, 1);
        while (!name.empty() && name.back() == ' ')
            name.pop_back();
        if (name == "all" || name == "all-linear" || name == "all_linear")
            name = "all-linear";
        if (!name.empty())
            out.push_back(name);
    };
    if (value.is_string()) {
        // "q_proj,v_proj" (LLaMA-Factory's lora_target) or one name; a Hydra list override
        // ("[q_proj,v_proj]", verl's target_modules) is the same list in brackets.
        std::string text = value.get<std::string>();
        if (text.size() >= 2 && text.front() == '[' && text.back() == ']')
            text = text.substr(1, text.size() - 2);
        std::size_t start = 0;
        while (start <= text.size()) {
            const std::size_t comma = text.find(',', start);
            add(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
            if (comma == std::string::npos)
                break;
            start = comma + 1;
        }
    } else if (value.is_array()) {
        for (const auto &item : value) {
            if (!item.is_string())
                doc.fail(key, "must list module names, got " + describeJson(item));
            add(item.get<std::string>());
        }
    } else {
        doc.fail(key, "must be a module name or a list of them, got " + describeJson(value));
    }
    if (out.empty())
        doc.fail(key, "names no module");
    if (out.size() > 64)
        doc.fail(key, "names more than 64 modules");
    return out;
}

void noteDeepSpeedReference(ConfigDoc &doc, std::string_view key, Draft &draft)
{
    const auto path = doc.takeString(key);
    if (!path || path->empty())
        return;
    draft.deepspeedPath = *path;
    draft.deepspeedWhere = doc.origin(key);
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::path written(*path);
    if (written.is_absolute()) {
        if (fs::is_regular_file(written, ec))
            draft.deepspeedResolved = written.string();
        return;
    }
    // The file's folder, then each folder above it: the tools resolve the path against the
    // working directory they were started in, usually the repository root above the file.
    fs::path folder = fs::path(doc.file()).parent_path();
    for (int up = 0; up < 8; ++up) {
        const fs::path candidate = folder / written;
        if (fs::is_regular_file(candidate, ec)) {
            draft.deepspeedResolved = candidate.lexically_normal().string();
            return;
        }
        if (folder.empty() || folder == folder.parent_path())
            break;
        folder = folder.parent_path();
    }
}

void noteTrainerFact(Draft &draft, const std::string &name, nlohmann::json value,
                     std::string origin)
{
    draft.trainer[name] = {std::move(value), std::move(origin)};
}

std::optional<bool> trainerFlag(ConfigDoc &doc, std::string_view key)
{
    const nlohmann::json *v = doc.take(key);
    if (!v)
        return std::nullopt;
    if (v->is_boolean())
        return v->get<bool>();
    if (v->is_string() && v->get<std::string>() == "auto")
        return true; // Axolotl: bf16 where the GPU supports it (every GPU since Ampere)
    doc.fail(key, "must be true, false or auto, got " + describeJson(*v));
}

void importFsdp(ConfigDoc &doc, std::string_view key, std::string_view configKey, Draft &draft)
{
    const nlohmann::json *v = doc.take(key);
    std::vector<std::string> options;
    if (v && v->is_string()) {
        // transformers: "full_shard auto_wrap offload" (space separated).
        const std::string text = v->get<std::string>();
        std::size_t start = 0;
        while (start < text.size()) {
            const std::size_t space = text.find(' ', start);
            const std::string word = text.substr(start, space - start);
            if (!word.empty())
                options.push_back(word);
            if (space == std::string::npos)
                break;
            start = space + 1;
        }
    } else if (v && v->is_array()) {
        for (const auto &item : *v)
            if (item.is_string())
                options.push_back(item.get<std::string>());
    } else if (v && !(v->is_boolean() && !v->get<bool>())) {
        doc.fail(key, "must be FSDP options (\"full_shard auto_wrap\" or a list), got " +
                          describeJson(*v));
    }
    const ConfigDoc &cdoc = doc;
    const nlohmann::json *config = configKey.empty() ? nullptr : cdoc.find(configKey);
    if (options.empty() && !config)
        return;
    const std::string origin = doc.origin(options.empty() ? configKey : key);
    int stage = 3;
    bool offload = false;
    for (const auto &o : options) {
        if (o == "shard_grad_op")
            stage = 2;
        else if (o == "offload")
            offload = true;
        else if (o == "hybrid_shard" || o == "hybrid_shard_zero2")
            draft.warn(doc.origin(key) + ": " + o +
                       ": HSDP replica groups are not modelled; planned as sharding over all GPUs");
        else if (o == "no_shard")
            stage = 0;
    }
    if (config && config->is_object()) {
        // Only the keys read are marked used: the rest of the section is listed as ignored.
        const auto found = [&](const char *name) {
            const auto it = config->find(name);
            if (it != config->end())
                doc.use(std::string(configKey) + "." + name);
            return it;
        };
        const auto boolAt = [&](const char *name) {
            const auto it = found(name);
            return it != config->end() && it->is_boolean() && it->get<bool>();
        };
        if (boolAt("fsdp_offload_params") || boolAt("offload_params"))
            offload = true;
        for (const char *name : {"fsdp_version", "version"}) {
            const auto it = found(name);
            if (it != config->end() && it->is_number_integer() &&
                (it->get<int>() == 1 || it->get<int>() == 2))
                draft.set("parallelism.fsdp_version", it->get<int>(),
                          doc.origin(std::string(configKey) + "." + name));
        }
        for (const char *name : {"fsdp_sharding_strategy", "sharding_strategy"}) {
            const auto it = found(name);
            if (it != config->end() && it->is_string()) {
                const std::string s = it->get<std::string>();
                if (s == "SHARD_GRAD_OP")
                    stage = 2;
                else if (s == "NO_SHARD")
                    stage = 0;
                else if (s.rfind("HYBRID", 0) == 0)
                    draft.warn(doc.origin(std::string(configKey) + "." + name) + ": " + s +
                               ": HSDP replica groups are not modelled; planned as sharding over "
                               "all GPUs");
            }
        }
        for (const char *name : {"fsdp_reshard_after_forward", "reshard_after_forward"}) {
            const auto it = found(name);
            if (it != config->end() && it->is_boolean() && !it->get<bool>())
                stage = 2; // FSDP2 without resharding keeps the gathered parameters: ZeRO-2
        }
    }
    draft.set("parallelism.zero_stage", stage, origin);
    if (offload) {
        draft.set("parallelism.offload_parameters", "cpu", origin);
        draft.set("parallelism.offload_optimizer", "cpu", origin);
    }
}

} // namespace vramplan::imports
