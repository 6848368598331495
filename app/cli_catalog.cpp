// `presets` and `gpus`: the built-in catalog, one model or GPU a line.

#include "cli_common.h"

#include "catalog.h"
#include "formats/scenario_json.h"
#include "model/hf_config.h"
#include "model/model_weights.h"

#include <cstdio>

namespace vramplan::cli_internal {

int commandList(const std::string &what)
{
    const auto &catalog = Catalog::builtin();
    if (what == "presets") {
        for (const auto &p : catalog.presets()) {
            auto fields = modelFieldsFromHfConfig(p.hfConfig, p.id);
            nlohmann::json scenario = {{"format", "vramplan-scenario"},
                                       {"model", {{"preset", p.id}}}};
            auto parsed = scenarioFromJson(scenario);
            const int64_t total = parsed ? countParameters(parsed.value->model).total : 0;
            std::printf("%-26s %-32s %8.2f B\n", p.id.c_str(), p.name.c_str(), double(total) / 1e9);
        }
    } else {
        for (const auto &g : catalog.gpus())
            std::printf("%-20s %-34s %9.0f MiB  %s\n", g.id.c_str(), g.name.c_str(), g.memoryMiB,
                        g.architecture.c_str());
    }
    return 0;
}

} // namespace vramplan::cli_internal
