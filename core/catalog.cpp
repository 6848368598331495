#include "catalog.h"

#include "embedded_resources.h"

#include <algorithm>

namespace vramplan {
namespace {

constexpr std::string_view modelsPrefix = "models/";

void loadBuiltin(std::vector<ModelPreset> &presets, std::vector<GpuSpec> &gpus)
{
    for (const auto &file : embeddedResources()) {
        // A resource that does not parse is a build-time mistake; the tests catch it, and the
        // catalog skips it instead of taking the program down.
        auto json = nlohmann::json::parse(file.content, nullptr, false);
        if (json.is_discarded())
            continue;
        if (file.path.starts_with(modelsPrefix) && json.is_object()) {
            ModelPreset preset;
            preset.id = std::string(file.path.substr(modelsPrefix.size()));
            preset.id.resize(preset.id.size() - std::string_view(".json").size());
            preset.name = preset.id;
            if (auto meta = json.find("_vramplan"); meta != json.end() && meta->is_object()) {
                if (meta->contains("name") && (*meta)["name"].is_string())
                    preset.name = (*meta)["name"].get<std::string>();
                if (meta->contains("params") && (*meta)["params"].is_number_integer())
                    preset.officialParameters = (*meta)["params"].get<int64_t>();
                json.erase(meta);
            }
            preset.hfConfig = std::move(json);
            presets.push_back(std::move(preset));
        } else if (file.path == "gpus.json" && json.contains("gpus") && json["gpus"].is_array()) {
            for (const auto &g : json["gpus"]) {
                if (!g.is_object() || !g.contains("id") || !g.contains("memory_mib") ||
                    !g["memory_mib"].is_number())
                    continue;
                GpuSpec spec;
                spec.id = g["id"].get<std::string>();
                spec.name = g.value("name", spec.id);
                spec.vendor = g.value("vendor", "");
                spec.architecture = g.value("architecture", "");
                spec.memoryMiB = g["memory_mib"].get<double>();
                const auto number = [&g](const char *key) {
                    const auto it = g.find(key);
                    return it != g.end() && it->is_number() ? it->get<double>() : 0.0;
                };
                spec.bf16Tflops = number("bf16_tflops");
                spec.fp8Tflops = number("fp8_tflops");
                spec.memoryBandwidthGBs = number("memory_bandwidth_gbs");
                spec.nodeLinkGBs = number("node_link_gbs");
                spec.hostLinkGBs = number("host_link_gbs");
                gpus.push_back(std::move(spec));
            }
        }
    }
    std::sort(presets.begin(), presets.end(),
              [](const auto &a, const auto &b) { return a.id < b.id; });
}

} // namespace

const Catalog &Catalog::builtin()
{
    static const Catalog catalog = [] {
        Catalog c;
        loadBuiltin(c.m_presets, c.m_gpus);
        return c;
    }();
    return catalog;
}

const ModelPreset *Catalog::preset(std::string_view id) const
{
    for (const auto &p : m_presets)
        if (p.id == id)
            return &p;
    return nullptr;
}

const GpuSpec *Catalog::gpu(std::string_view id) const
{
    for (const auto &g : m_gpus)
        if (g.id == id)
            return &g;
    return nullptr;
}

std::string_view Catalog::defaultScenarioText() const
{
    for (const auto &file : embeddedResources())
        if (file.path == "scenarios/default.vramplan.json")
            return file.content;
    return {};
}

std::string Catalog::presetIds() const
{
    std::string out;
    for (const auto &p : m_presets)
        out += (out.empty() ? "" : ", ") + p.id;
    return out;
}

std::string Catalog::gpuIds() const
{
    std::string out;
    for (const auto &g : m_gpus)
        out += (out.empty() ? "" : ", ") + g.id;
    return out;
}

} // namespace vramplan
