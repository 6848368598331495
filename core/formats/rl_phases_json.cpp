// rl_phases in the estimate JSON and the per-phase blocks of the table (rl_phases_json.h).

#include "formats/rl_phases_json.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace vramplan {
namespace {

int64_t bytesOf(double v)
{
    return static_cast<int64_t>(std::llround(std::clamp(v, 0.0, 4.0e18)));
}

} // namespace

nlohmann::json rlPhasesJson(const RlPlan &plan)
{
    using nlohmann::json;
    json phases = json::array();
    for (const RlPhase &p : plan.phases) {
        if (!p.present)
            continue;
        json parts = json::object();
        for (int i = 0; i < componentCount; ++i)
            parts[std::string(componentKey(static_cast<Component>(i)))] =
                bytesOf(p.byComponent[i]);
        json items = json::array();
        for (const auto &item : p.items)
            items.push_back({{"component", componentKey(item.component)},
                             {"name", item.name},
                             {"bytes", bytesOf(item.bytes())},
                             {"formula", item.formula},
                             {"source", item.source},
                             {"outside_allocator", item.outsideAllocator}});
        phases.push_back({{"name", rlPhaseKey(p.kind)},
                          {"allocated_bytes", bytesOf(p.allocated)},
                          {"reserved_bytes", bytesOf(p.reserved)},
                          {"device_bytes", bytesOf(p.device)},
                          {"per_component_bytes", parts},
                          {"holder", {{"name", p.holder}, {"bytes", bytesOf(p.holderBytes)}}},
                          {"peak", p.kind == plan.peak},
                          {"items", items}});
    }
    return phases;
}

nlohmann::json rlSummaryJson(const RlPlan &plan)
{
    return {{"peak_phase", rlPhaseKey(plan.peak)},
            {"peak_holder", plan.phase(plan.peak).holder},
            {"engine_budget_bytes", bytesOf(plan.engineBudgetBytes)},
            {"sleep_freed_bytes", bytesOf(plan.sleepFreedBytes)},
            {"sleep_cpu_bytes", bytesOf(plan.sleepCpuBytes)},
            {"engine_starts", plan.engineStarts}};
}

std::string rlPhasesTable(const RlPlan &plan, SizeUnit unit)
{
    std::string out = "\nRL phases (per trainer GPU)\n";
    char line[256];
    for (const RlPhase &p : plan.phases) {
        if (!p.present)
            continue;
        std::snprintf(line, sizeof line,
                      "\n%s%s: allocated %s, reserved %s, device %s; most held by the %s (%s)\n",
                      std::string(rlPhaseKey(p.kind)).c_str(),
                      p.kind == plan.peak ? " (peak)" : "", formatBytes(p.allocated, unit).c_str(),
                      formatBytes(p.reserved, unit).c_str(), formatBytes(p.device, unit).c_str(),
                      std::string(p.holder).c_str(), formatBytes(p.holderBytes, unit).c_str());
        out += line;
        for (const auto &item : p.items) {
            if (item.bytes() < 1)
                continue;
            std::snprintf(line, sizeof line, "  %-17s %-58.58s %12s\n",
                          std::string(componentKey(item.component)).c_str(),
                          std::string(item.name).c_str(), formatBytes(item.bytes(), unit).c_str());
            out += line;
        }
    }
    if (plan.sleepFreedBytes > 0) {
        std::snprintf(line, sizeof line, "\nengine sleep frees %s per GPU%s%s\n",
                      formatBytes(plan.sleepFreedBytes, unit).c_str(),
                      plan.sleepCpuBytes > 0 ? "; keeps in CPU memory " : "",
                      plan.sleepCpuBytes > 0 ? formatBytes(plan.sleepCpuBytes, unit).c_str() : "");
        out += line;
    }
    if (!plan.engineStarts)
        out += "the rollout engine does not start: its budget leaves no room for one request\n";
    return out;
}

} // namespace vramplan
