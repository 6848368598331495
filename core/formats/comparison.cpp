#include "formats/comparison.h"

#include "formats/breakdown_table.h"
#include "estimate.h"
#include "formats/estimate_json.h"
#include "formats/json_reader.h"
#include "formats/scenario_json.h"

#include <algorithm>
#include <map>

namespace vramplan {
namespace {

using nlohmann::json;

// Leaves of a JSON object as "a.b.c" -> value (arrays are leaves).
void flatten(const json &value, const std::string &prefix,
             std::vector<std::pair<std::string, json>> &out)
{
    if (value.is_object()) {
        for (const auto &[key, child] : value.items())
            flatten(child, prefix.empty() ? key : prefix + "." + key, out);
        return;
    }
    out.emplace_back(prefix, value);
}

std::string text(const json &value)
{
    if (value.is_string())
        return value.get<std::string>();
    if (value.is_null())
        return "-";
    return value.dump();
}

} // namespace

Parsed<Comparison> comparisonFromText(std::string_view input)
{
    auto document = jsonFromText(input);
    if (!document)
        return Parsed<Comparison>::fail(document.error);
    std::string error;
    JsonReader top(*document.value, "", error);
    std::string format;
    if (!top.string("format", format, 64) && top.ok())
        top.fail("format", "is missing (expected \"vramplan-comparison\")");
    if (top.ok() && format != "vramplan-comparison")
        top.fail("format",
                 "expected \"vramplan-comparison\", got \"" + printableLine(format, 40) + "\"");
    int64_t version = 1;
    if (top.integer("version", version, 1, int64_t(1) << 30) && version > 1)
        top.fail("version", std::to_string(version) +
                                " is newer than this vramplan reads (1); update vramplan");
    top.accept("scenarios");
    top.finish();
    if (!top.ok())
        return Parsed<Comparison>::fail(error);
    const json &list =
        (*document.value).contains("scenarios") ? (*document.value)["scenarios"] : json();
    if (!list.is_array())
        return Parsed<Comparison>::fail(
            "scenarios: must be a list of {\"label\", \"scenario\"} entries");
    if (list.size() > maxComparedScenarios)
        return Parsed<Comparison>::fail("scenarios: more than " +
                                        std::to_string(maxComparedScenarios) + " scenarios");
    Comparison out;
    for (size_t i = 0; i < list.size(); ++i) {
        const std::string where = "scenarios[" + std::to_string(i) + "]";
        JsonReader entry(list[i], where, error);
        ComparisonEntry e;
        entry.string("label", e.label, 256);
        entry.accept("scenario");
        entry.finish();
        if (!error.empty())
            return Parsed<Comparison>::fail(error);
        if (!list[i].contains("scenario"))
            return Parsed<Comparison>::fail(where + ".scenario: is missing");
        auto scenario = scenarioFromJson(list[i]["scenario"]);
        if (!scenario)
            return Parsed<Comparison>::fail(where + ".scenario." + scenario.error);
        e.scenario = *scenario.value;
        if (e.label.empty())
            e.label =
                e.scenario.name.empty() ? "Scenario " + std::to_string(i + 1) : e.scenario.name;
        out.entries.push_back(std::move(e));
    }
    return Parsed<Comparison>::ok(std::move(out));
}

json comparisonToJson(const Comparison &c)
{
    json list = json::array();
    for (const auto &e : c.entries)
        list.push_back({{"label", e.label}, {"scenario", scenarioToJson(e.scenario)}});
    return {{"format", "vramplan-comparison"}, {"version", 1}, {"scenarios", list}};
}

std::vector<DifferingInput> differingInputs(const std::vector<Scenario> &scenarios)
{
    std::vector<DifferingInput> out;
    if (scenarios.size() < 2)
        return out;
    std::vector<std::vector<std::pair<std::string, json>>> leaves(scenarios.size());
    std::vector<std::map<std::string, json>> byPath(scenarios.size());
    for (size_t i = 0; i < scenarios.size(); ++i) {
        flatten(scenarioToJson(scenarios[i]), "", leaves[i]);
        for (const auto &[path, value] : leaves[i])
            byPath[i][path] = value;
    }
    // Paths in the first scenario's order, then any the others add.
    std::vector<std::string> paths;
    std::map<std::string, bool> seen;
    for (const auto &list : leaves)
        for (const auto &[path, value] : list)
            if (!seen[path]) {
                seen[path] = true;
                paths.push_back(path);
            }
    for (const auto &path : paths) {
        if (path == "name" || path == "format" || path == "version")
            continue;
        DifferingInput d{path, {}};
        bool differs = false;
        for (size_t i = 0; i < scenarios.size(); ++i) {
            const auto it = byPath[i].find(path);
            const json value = it == byPath[i].end() ? json() : it->second;
            d.values.push_back(text(value));
            differs = differs || (i > 0 && d.values[i] != d.values[0]);
        }
        if (differs)
            out.push_back(std::move(d));
    }
    return out;
}

std::vector<std::string> uniqueLabels(const Comparison &c)
{
    std::vector<std::string> out;
    std::map<std::string, int> seen;
    for (const auto &e : c.entries)
        ++seen[e.label];
    std::map<std::string, int> numbered;
    for (const auto &e : c.entries) {
        std::string label = e.label;
        if (seen[e.label] > 1) {
            // The first keeps its name; the others get the next number no entry has taken.
            int &n = numbered[e.label];
            ++n;
            while (n > 1 && seen.count(e.label + " (" + std::to_string(n) + ")"))
                ++n;
            if (n > 1)
                label += " (" + std::to_string(n) + ")";
        }
        out.push_back(label);
    }
    return out;
}

std::string comparisonTable(const Comparison &c, TableFormat format)
{
    std::vector<Estimate> estimates;
    std::vector<Scenario> scenarios;
    for (const auto &e : c.entries) {
        estimates.push_back(estimate(e.scenario));
        scenarios.push_back(e.scenario);
    }
    auto cell = [](std::string text, char forbidden) {
        for (char &ch : text)
            if (ch == forbidden || ch == '\n')
                ch = ' ';
        return text;
    };
    if (format == TableFormat::Json) {
        json list = json::array();
        for (size_t i = 0; i < c.entries.size(); ++i)
            list.push_back({{"label", c.entries[i].label},
                            {"estimate", estimateToJson(estimates[i], scenarios[i])}});
        return json({{"format", "vramplan-comparison-estimates"},
                     {"version", 1},
                     {"scenarios", list}})
                   .dump(2) +
               "\n";
    }
    char number[48];
    std::string out;
    const std::vector<std::string> labels = uniqueLabels(c);
    const bool servers = std::any_of(estimates.begin(), estimates.end(),
                                     [](const Estimate &e) { return e.serving.present; });
    if (format == TableFormat::Csv) {
        out = "row";
        for (const auto &label : labels)
            out += ",\"" + cell(label, '"') + "\"";
        out += "\n";
        for (int k = 0; k < componentCount; ++k) {
            out += std::string(componentKey(Component(k))) + "_bytes";
            for (const auto &e : estimates) {
                std::snprintf(number, sizeof number, ",%.0f", e.perGpu[size_t(k)]);
                out += number;
            }
            out += "\n";
        }
        out += "device_bytes";
        for (const auto &e : estimates) {
            std::snprintf(number, sizeof number, ",%.0f", e.peak.device);
            out += number;
        }
        out += "\nfits";
        for (const auto &e : estimates)
            out += e.fits ? ",true" : ",false";
        if (servers) {
            // Rows of a server's plan (serving.h), after the rows every comparison has.
            out += "\nkv_cache_tokens";
            for (const auto &e : estimates)
                out += e.serving.present ? "," + std::to_string(e.serving.kvCacheTokens) : ",";
            out += "\nmax_concurrency";
            for (const auto &e : estimates) {
                std::snprintf(number, sizeof number, ",%.4f", e.serving.maxConcurrency);
                out += e.serving.present ? number : ",";
            }
        }
        return out + "\n";
    }
    out = "| | ";
    std::string rule = "|---|";
    for (const auto &label : labels) {
        out += cell(label, '|') + " | ";
        rule += "---:|";
    }
    out += "\n" + rule + "\n";
    for (const auto &d : differingInputs(scenarios)) {
        out += "| " + d.path + " | ";
        for (const auto &v : d.values)
            out += cell(v, '|') + " | ";
        out += "\n";
    }
    for (int k = 0; k < componentCount; ++k) {
        out += "| " + std::string(componentLabel(Component(k))) + " (GiB) | ";
        for (const auto &e : estimates) {
            std::snprintf(number, sizeof number, "%.2f | ", e.perGpu[size_t(k)] / 1073741824.0);
            out += number;
        }
        out += "\n";
    }
    out += "| **peak per GPU (GiB)** | ";
    for (const auto &e : estimates) {
        std::snprintf(number, sizeof number, "**%.2f** | ", e.peak.device / 1073741824.0);
        out += number;
    }
    out += "\n| fits | ";
    for (const auto &e : estimates)
        out += std::string(e.fits ? "yes" : "no") + " | ";
    if (servers) {
        out += "\n| KV-cache tokens | ";
        for (const auto &e : estimates)
            out += (e.serving.present ? std::to_string(e.serving.kvCacheTokens) : "-") + " | ";
        out += "\n| max concurrency (requests of max_model_len) | ";
        for (const auto &e : estimates) {
            std::snprintf(number, sizeof number, "%.2f | ", e.serving.maxConcurrency);
            out += e.serving.present ? number : "- | ";
        }
    }
    return out + "\n";
}

} // namespace vramplan
