// The model of an imported setup. A hub id maps to a bundled preset only when the preset is that
// checkpoint (its resources/models file names the hub id it was copied from, or a checkpoint of
// the same shapes listed here); anything else asks for --model, never a guess.

#include "imports/import_draft.h"

#include "catalog.h"
#include "formats/scenario_json.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace vramplan::imports {
namespace {

std::string lower(std::string_view text)
{
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return out;
}

// Hub ids whose config.json is a preset's, or has its shapes (instruct and base releases of one
// architecture; mirrors). The config_source of each preset (resources/models/*.json) names the
// first; the others share every shape the estimate reads.
constexpr std::pair<std::string_view, std::string_view> hubPresets[] = {
    {"mistralai/mistral-7b-v0.1", "mistral-7b"},
    {"mistralai/mistral-7b-instruct-v0.1", "mistral-7b"},
    {"mistralai/mixtral-8x7b-v0.1", "mixtral-8x7b"},
    {"mistralai/mixtral-8x7b-instruct-v0.1", "mixtral-8x7b"},
    {"meta-llama/llama-2-7b-hf", "llama-2-7b"},
    {"meta-llama/llama-2-7b-chat-hf", "llama-2-7b"},
    {"meta-llama/llama-2-13b-hf", "llama-2-13b"},
    {"meta-llama/llama-2-70b-hf", "llama-2-70b"},
    {"meta-llama/llama-3.1-8b", "llama-3.1-8b"},
    {"meta-llama/llama-3.1-8b-instruct", "llama-3.1-8b"},
    {"meta-llama/meta-llama-3.1-8b", "llama-3.1-8b"},
    {"meta-llama/meta-llama-3.1-8b-instruct", "llama-3.1-8b"},
    {"nousresearch/meta-llama-3.1-8b", "llama-3.1-8b"},
    {"meta-llama/llama-3.1-70b", "llama-3.1-70b"},
    {"meta-llama/llama-3.1-70b-instruct", "llama-3.1-70b"},
    {"meta-llama/llama-3.1-405b", "llama-3.1-405b"},
    {"meta-llama/llama-3.2-1b", "llama-3.2-1b"},
    {"meta-llama/llama-3.2-1b-instruct", "llama-3.2-1b"},
    {"nousresearch/llama-3.2-1b", "llama-3.2-1b"},
    {"unsloth/llama-3.2-1b", "llama-3.2-1b"},
    {"meta-llama/llama-3.2-3b", "llama-3.2-3b"},
    {"meta-llama/llama-3.2-3b-instruct", "llama-3.2-3b"},
    {"meta-llama/llama-3.3-70b-instruct", "llama-3.3-70b-instruct"},
    {"qwen/qwen2.5-0.5b", "qwen2.5-0.5b"},
    {"qwen/qwen2.5-0.5b-instruct", "qwen2.5-0.5b"},
    {"qwen/qwen2.5-7b", "qwen2.5-7b"},
    {"qwen/qwen2.5-7b-instruct", "qwen2.5-7b"},
    {"qwen/qwen2.5-72b", "qwen2.5-72b"},
    {"qwen/qwen2.5-72b-instruct", "qwen2.5-72b"},
    // Qwen3-4B-Instruct-2507: Qwen3-4B's shapes; only max_position_embeddings (262144) and
    // rope_theta differ, which no memory term reads below the preset's 40960 positions.
    {"qwen/qwen3-4b-instruct-2507", "qwen3-4b"},
    {"qwen/qwen3-4b-base", "qwen3-4b"},
    {"qwen/qwen3-8b-base", "qwen3-8b"},
    {"google/gemma-2b", "gemma-2b"},
    {"google/gemma-7b", "gemma-7b"},
    {"microsoft/phi-3-mini-4k-instruct", "phi-3-mini"},
    {"tinyllama/tinyllama-1.1b-chat-v1.0", "tinyllama-1.1b"},
    {"openai-community/gpt2", "gpt2"},
    {"openai/gpt-oss-20b", "gpt-oss-20b"},
    {"openai/gpt-oss-120b", "gpt-oss-120b"},
    {"huggingfacetb/smollm3-3b", "smollm3-3b"},
};

// torchtune's builders (torchtune/models/<family>/_model_builders.py) with a bundled preset.
constexpr std::pair<std::string_view, std::string_view> torchtunePresets[] = {
    {"llama2_7b", "llama-2-7b"},         {"llama2_13b", "llama-2-13b"},
    {"llama2_70b", "llama-2-70b"},       {"llama3_1_8b", "llama-3.1-8b"},
    {"llama3_1_70b", "llama-3.1-70b"},   {"llama3_1_405b", "llama-3.1-405b"},
    {"llama3_2_1b", "llama-3.2-1b"},     {"llama3_2_3b", "llama-3.2-3b"},
    {"llama3_3_70b", "llama-3.3-70b-instruct"},
    {"mistral_7b", "mistral-7b"},        {"gemma_2b", "gemma-2b"},
    {"gemma_7b", "gemma-7b"},            {"gemma2_2b", "gemma-2-2b"},
    {"gemma2_9b", "gemma-2-9b"},         {"gemma2_27b", "gemma-2-27b"},
    {"phi3_mini", "phi-3-mini"},         {"phi4_14b", "phi-4"},
    {"qwen2_5_0_5b", "qwen2.5-0.5b"},    {"qwen2_5_7b_base", "qwen2.5-7b"},
    {"qwen2_5_7b_instruct", "qwen2.5-7b"}, {"qwen2_5_72b_instruct", "qwen2.5-72b"},
    {"qwen3_0_6b_base", "qwen3-0.6b"},   {"qwen3_0_6b_instruct", "qwen3-0.6b"},
    {"qwen3_1_7b_base", "qwen3-1.7b"},   {"qwen3_1_7b_instruct", "qwen3-1.7b"},
    {"qwen3_4b_base", "qwen3-4b"},       {"qwen3_4b_instruct", "qwen3-4b"},
    {"qwen3_8b_base", "qwen3-8b"},       {"qwen3_8b_instruct", "qwen3-8b"},
    {"qwen3_14b_base", "qwen3-14b"},     {"qwen3_14b_instruct", "qwen3-14b"},
    {"qwen3_32b", "qwen3-32b"},
};

} // namespace

std::string presetOfHubId(std::string_view id)
{
    const std::string key = lower(id);
    for (const auto &[hub, preset] : hubPresets)
        if (key == hub)
            return std::string(preset);
    // "Qwen/Qwen3-8B" is the preset "qwen3-8b": the presets are named after their checkpoints.
    const std::size_t slash = key.find('/');
    if (slash != std::string::npos && key.find('/', slash + 1) == std::string::npos &&
        Catalog::builtin().preset(key.substr(slash + 1)))
        return key.substr(slash + 1);
    return "";
}

std::string presetOfTorchtuneBuilder(const std::string &builder)
{
    for (const auto &[name, preset] : torchtunePresets)
        if (builder == name)
            return std::string(preset);
    return "";
}

std::string hubIdOfPreset(std::string_view preset)
{
    for (const auto &[hub, id] : hubPresets)
        if (id == preset)
            return std::string(hub);
    return "";
}

std::string torchtuneBuilderOfPreset(std::string_view preset)
{
    for (const auto &[builder, id] : torchtunePresets)
        if (id == preset)
            return std::string(builder);
    return "";
}

std::string torchtuneModuleOf(const std::string &builder)
{
    // torchtune/models/<module>/_model_builders.py
    for (const char *module : {"llama3_1", "llama3_2", "llama3_3", "llama2", "qwen2_5", "qwen3",
                               "gemma2", "gemma", "mistral", "phi3", "phi4"})
        if (builder.rfind(std::string(module) + "_", 0) == 0)
            return module;
    return builder.substr(0, builder.find('_'));
}

ModelChoice resolveModel(const Draft &draft)
{
    namespace fs = std::filesystem;
    const std::string &given = draft.options.model;
    if (!given.empty()) {
        if (Catalog::builtin().preset(given))
            return {{{"preset", given}}, "--model " + given};
        std::error_code ec;
        if (fs::is_directory(given, ec))
            return {{{"checkpoint", fs::absolute(given, ec).lexically_normal().string()}},
                    "--model " + given + " (a checkpoint folder)"};
        if (fs::is_regular_file(given, ec)) {
            std::ifstream in(given, std::ios::binary);
            std::string text;
            if (in && fs::file_size(given, ec) < (std::uintmax_t(16) << 20))
                text.assign(std::istreambuf_iterator<char>(in), {});
            auto config = hfJsonFromText(text);
            if (!config || !config.value->is_object())
                throw ImportError("--model: " + given + ": " +
                                  (config ? std::string("not a config.json object")
                                          : config.error));
            return {{{"hf_config", *config.value}}, "--model " + given + " (a config.json)"};
        }
        throw ImportError("--model: '" + printableLine(given, 80) +
                          "' is neither a preset (vramplan-cli presets) nor a config.json or "
                          "checkpoint folder");
    }
    if (!draft.modelPreset.empty())
        return {{{"preset", draft.modelPreset}},
                "preset " + draft.modelPreset + " (" + draft.modelOrigin + " " +
                    draft.modelName + ")"};
    if (draft.modelFromFields)
        return {nlohmann::json::object(), "not in the model flags (vramplan default)"};
    if (draft.modelName.empty())
        throw ImportError("--model: the files name no model; give --model PRESET|CONFIG|DIR");
    const std::string preset = presetOfHubId(draft.modelName);
    if (!preset.empty())
        return {{{"preset", preset}},
                "preset " + preset + " (" + draft.modelOrigin + " " + draft.modelName + ")"};
    throw ImportError(draft.modelWhere + ": '" + printableLine(draft.modelName, 120) +
                      "' is no bundled preset; give --model PRESET|CONFIG|DIR (its config.json "
                      "or checkpoint folder)");
}

} // namespace vramplan::imports
