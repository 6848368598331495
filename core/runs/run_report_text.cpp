// The run report for people: written from the report's JSON, so that the table can say nothing
// the JSON does not.

#include "runs/run_report.h"

#include <cmath>
#include <cstdio>

namespace vramplan {

namespace {

std::string sizeOf(const nlohmann::json &v, SizeUnit unit)
{
    return v.is_number() ? formatBytes(v.get<double>(), unit) : "n/a";
}

std::string padded(std::string text, std::size_t width)
{
    if (text.size() < width)
        text.append(width - text.size(), ' ');
    return text;
}

// "3.10 GiB more than planned", "0.20 GiB less than planned", "as planned".
std::string differenceWords(const nlohmann::json &diff, SizeUnit unit)
{
    const double d = diff.get<double>();
    if (std::fabs(d) < 0.5)
        return "as planned";
    return formatBytes(std::fabs(d), unit) + (d > 0 ? " more" : " less") + " than planned";
}

} // namespace

std::string runReportTable(const nlohmann::json &report, SizeUnit unit)
{
    std::string out =
        "Measured run, device " + report.value("device", nlohmann::json(0)).dump() + "\n";
    for (const auto &s : report["sources"]) {
        out += "  " + s.value("file", std::string()) + ": " + s.value("kind", std::string());
        if (s.contains("trace_entries"))
            out += ", " + s["trace_entries"].dump() + " trace entries";
        if (s.contains("phases_from"))
            out += ", phases from " + s["phases_from"].get<std::string>();
        out += "\n";
    }
    const nlohmann::json &peak = report["peak"];
    out += "\nPeak\n";
    out += "  allocated  " + sizeOf(peak["allocated_bytes"], unit) + "\n";
    out += "  reserved   " + sizeOf(peak["reserved_bytes"], unit) + "\n";
    out += "  device     " + sizeOf(peak["device_bytes"], unit) + "\n";
    out += "  phase      " +
           (peak["phase"].is_string() ? peak["phase"].get<std::string>() : std::string("n/a")) +
           "\n";

    const nlohmann::json &components = report["per_component_bytes"];
    out += "\nComponents at the peak\n";
    for (int c = 0; c < runComponentCount; ++c) { // in the estimate's order
        const std::string key(runComponentKey(RunComponent(c)));
        const nlohmann::json &bytes = components[key];
        std::string rules;
        for (const auto &r : report["component_rules"])
            if (r["component"] == key)
                rules += (rules.empty() ? "" : "; ") + r["rule"].get<std::string>();
        out += "  " + padded(key, 18) + padded(sizeOf(bytes, unit), 12) +
               (bytes.is_null() ? std::string("not told by these files")
                : rules.empty() ? std::string("none alive at the peak")
                                : rules) +
               "\n";
    }
    if (report["unknown_bytes"].is_number()) {
        std::string rule;
        for (const auto &r : report["component_rules"])
            if (r["component"] == "unknown")
                rule = r["rule"].get<std::string>();
        out += "  " + padded("unknown", 18) + padded(sizeOf(report["unknown_bytes"], unit), 12) +
               rule + "\n";
    }

    const nlohmann::json &comparison = report["comparison"];
    if (comparison.is_object()) {
        const nlohmann::json &diff = comparison["difference_bytes"];
        const nlohmann::json &plan = comparison["estimate"];
        out += "\nAgainst the plan\n";
        const std::pair<const char *, const char *> peaks[] = {{"allocated", "allocated_bytes"},
                                                               {"reserved", "reserved_bytes"},
                                                               {"device", "device_bytes"}};
        for (const auto &[name, key] : peaks) {
            out += "  " + std::string(name) + " ";
            if (!diff[name].is_number()) {
                out += "not measured (planned " + sizeOf(plan["peak"][key], unit) + ")\n";
                continue;
            }
            out += differenceWords(diff[name], unit) + " (measured " + sizeOf(peak[key], unit) +
                   ", planned " + sizeOf(plan["peak"][key], unit) + ")\n";
        }
        for (int c = 0; c < runComponentCount; ++c) {
            const std::string key(runComponentKey(RunComponent(c)));
            if (diff["per_component"][key].is_number())
                out += "  " + key + " " + differenceWords(diff["per_component"][key], unit) + "\n";
        }
    }
    return out;
}

} // namespace vramplan
