#include "runs/run_report.h"

#include <cmath>

namespace vramplan {

namespace {

nlohmann::json orNull(const std::optional<int64_t> &v)
{
    return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

// The largest of the figures the files give, or none.
std::optional<int64_t> largest(const std::vector<RunSource> &sources,
                               std::optional<int64_t> RunSource::*figure)
{
    std::optional<int64_t> best;
    for (const auto &s : sources)
        if (s.*figure && (!best || *(s.*figure) > *best))
            best = s.*figure;
    return best;
}

nlohmann::json sourceJson(const RunSource &s)
{
    nlohmann::json j = {{"file", s.file}, {"kind", s.kind}};
    for (auto it = s.details.begin(); it != s.details.end(); ++it)
        j[it.key()] = it.value();
    j["peak"] = {{"allocated_bytes", orNull(s.allocated)},
                 {"reserved_bytes", orNull(s.reserved)},
                 {"device_bytes", orNull(s.device)}};
    return j;
}

bool hasComponents(const RunSource &s)
{
    for (const auto &c : s.components)
        if (c)
            return true;
    return !s.rules.empty();
}

// measured - planned, where both are known.
nlohmann::json difference(const nlohmann::json &measured, const nlohmann::json &planned)
{
    if (!measured.is_number() || !planned.is_number())
        return nullptr;
    return std::llround(measured.get<double>() - planned.get<double>());
}

nlohmann::json comparison(const nlohmann::json &report, const nlohmann::json &estimate)
{
    const nlohmann::json &measured = report["peak"];
    const nlohmann::json planned = estimate.value("peak", nlohmann::json::object());
    nlohmann::json diff = {
        {"allocated", difference(measured["allocated_bytes"],
                                 planned.value("allocated_bytes", nlohmann::json()))},
        {"reserved",
         difference(measured["reserved_bytes"], planned.value("reserved_bytes", nlohmann::json()))},
        {"device",
         difference(measured["device_bytes"], planned.value("device_bytes", nlohmann::json()))}};
    // Per component: a measurement sees logits and the loss as activations (made in forward,
    // alive into backward), so the plan's activations include its logits_and_loss here.
    const nlohmann::json perGpu = estimate.value("per_gpu_bytes", nlohmann::json::object());
    nlohmann::json components = nlohmann::json::object();
    for (int c = 0; c < runComponentCount; ++c) {
        const std::string key(runComponentKey(RunComponent(c)));
        nlohmann::json plan = perGpu.value(key, nlohmann::json());
        if (key == "activations" && plan.is_number() && perGpu.contains("logits_and_loss") &&
            perGpu["logits_and_loss"].is_number())
            plan = plan.get<double>() + perGpu["logits_and_loss"].get<double>();
        components[key] = difference(report["per_component_bytes"][key], plan);
    }
    diff["per_component"] = components;
    return {{"estimate", estimate}, {"difference_bytes", diff}};
}

} // namespace

nlohmann::json runReportJson(const std::vector<RunSource> &sources, int device,
                             const nlohmann::json *estimate)
{
    nlohmann::json report = {{"format", "vramplan-run"}, {"version", 1}, {"device", device}};
    nlohmann::json list = nlohmann::json::array();
    for (const auto &s : sources)
        list.push_back(sourceJson(s));
    report["sources"] = list;

    const auto allocated = largest(sources, &RunSource::allocated);
    // The snapshot that saw the allocated peak gives its phase, components and timeline.
    const RunSource *snapshot = nullptr;
    for (const auto &s : sources)
        if (s.kind == "torch_snapshot" && (!snapshot || (allocated && s.allocated == allocated &&
                                                         snapshot->allocated != allocated)))
            snapshot = &s;
    const RunSource *components = nullptr;
    for (const auto &s : sources)
        if (s.kind == "mem_tracker" && !components)
            components = &s;
    if (!components && snapshot && hasComponents(*snapshot))
        components = snapshot;
    for (const auto &s : sources)
        if (!components && hasComponents(s))
            components = &s;

    const bool phaseHolds = snapshot && snapshot->phase && snapshot->allocated == allocated;
    report["peak"] = {{"allocated_bytes", orNull(allocated)},
                      {"reserved_bytes", orNull(largest(sources, &RunSource::reserved))},
                      {"device_bytes", orNull(largest(sources, &RunSource::device))},
                      {"phase", phaseHolds ? nlohmann::json(*snapshot->phase) : nlohmann::json()}};

    nlohmann::json perComponent = nlohmann::json::object();
    for (int c = 0; c < runComponentCount; ++c)
        perComponent[std::string(runComponentKey(RunComponent(c)))] =
            components ? orNull(components->components[size_t(c)]) : nlohmann::json();
    report["per_component_bytes"] = perComponent;
    nlohmann::json rules = nlohmann::json::array();
    if (components)
        for (const auto &r : components->rules) {
            nlohmann::json rule = {
                {"component", runComponentKey(r.component)}, {"rule", r.rule}, {"bytes", r.bytes}};
            if (r.allocations > 0)
                rule["allocations"] = r.allocations;
            rules.push_back(rule);
        }
    report["component_rules"] = rules;
    report["components_from"] = components ? nlohmann::json(components->file) : nlohmann::json();
    report["unknown_bytes"] = components ? orNull(components->unknownBytes) : nlohmann::json();

    nlohmann::json timeline = nlohmann::json::array();
    if (snapshot)
        for (const auto &p : snapshot->timeline)
            timeline.push_back({{"t_us", p.tUs},
                                {"allocated_bytes", orNull(p.allocated)},
                                {"reserved_bytes", orNull(p.reserved)}});
    report["timeline"] = timeline;
    nlohmann::json deviceTimeline = nlohmann::json::array();
    for (const auto &s : sources)
        if (s.kind == "nvidia_smi" && deviceTimeline.empty())
            for (const auto &p : s.timeline)
                deviceTimeline.push_back({{"t_us", p.tUs}, {"device_bytes", orNull(p.device)}});
    report["device_timeline"] = deviceTimeline;
    report["comparison"] = estimate ? comparison(report, *estimate) : nlohmann::json();
    return report;
}

} // namespace vramplan
