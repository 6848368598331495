#include "formats/breakdown_table.h"

#include "formats/enum_names.h"
#include "formats/estimate_json.h"

#include <cstdio>

namespace vramplan {
namespace {

// RFC 4180: quote a field that holds a comma, a quote or a line break; double the quotes.
std::string csvField(std::string_view text)
{
    if (text.find_first_of(",\"\n\r") == std::string_view::npos)
        return std::string(text);
    std::string out = "\"";
    for (char ch : text)
        out += ch == '"' ? std::string("\"\"") : std::string(1, ch);
    return out + "\"";
}

std::string markdownCell(std::string_view text)
{
    std::string out;
    for (char ch : text)
        out += ch == '|' ? std::string("\\|") : std::string(1, ch);
    return out;
}

std::string integer(double v)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.0f", v < 0 ? 0.0 : v);
    return text;
}

} // namespace

std::optional<TableFormat> tableFormatFromExtension(std::string_view extension)
{
    if (extension == "csv")
        return TableFormat::Csv;
    if (extension == "json")
        return TableFormat::Json;
    if (extension == "md" || extension == "markdown")
        return TableFormat::Markdown;
    return std::nullopt;
}

std::string scenarioSummary(const Estimate &e, const Scenario &s)
{
    const std::string model = !s.model.preset.empty()
                                  ? s.model.preset
                                  : std::to_string(e.parameters.total / 1000000) + "M-parameter " +
                                        std::string(toString(s.model.family));
    char text[512];
    std::snprintf(
        text, sizeof text, "%s, b=%lld, s=%lld, %s, %s, ZeRO %lld, %lld x %s: peak %s, %s",
        model.c_str(), (long long)s.training.microBatchSize, (long long)s.training.sequenceLength,
        std::string(toString(s.training.precision)).c_str(),
        std::string(toString(s.training.optimizer)).c_str(), (long long)s.parallelism.zeroStage,
        (long long)s.parallelism.gpus, s.gpu.name.c_str(), formatBytes(e.peak.device).c_str(),
        e.fits ? "fits" : "does not fit");
    return text;
}

std::string breakdownTable(const Estimate &e, const Scenario &s, TableFormat format)
{
    if (format == TableFormat::Json)
        return estimateToJson(e, s).dump(2) + "\n";
    std::string out;
    if (format == TableFormat::Csv) {
        out = "component,item,bytes,count,bytes_per_unit,formula,at_peak\n";
        for (const auto &item : e.items)
            out += std::string(componentKey(item.component)) + "," + csvField(item.name) + "," +
                   integer(item.bytes()) + "," + integer(item.count) + "," + integer(item.perUnit) +
                   "," + csvField(item.formula) + "," +
                   (item.aliveIn(e.peak.phase) ? "true" : "false") + "\n";
        return out;
    }
    out = "# " + markdownCell(s.name.empty() ? std::string("vramplan estimate") : s.name) + "\n\n" +
          markdownCell(scenarioSummary(e, s)) + "\n\n| component | per GPU (GiB) |\n|---|---:|\n";
    char number[32];
    for (int i = 0; i < componentCount; ++i) {
        if (Component(i) == Component::KvCache && !e.serving.present)
            continue; // a serving plan's component only
        std::snprintf(number, sizeof number, "%.2f", e.perGpu[i] / 1073741824.0);
        out += "| " + std::string(componentLabel(Component(i))) + " | " + number + " |\n";
    }
    std::snprintf(number, sizeof number, "%.2f", e.peak.device / 1073741824.0);
    out += std::string("| **total (device)** | **") + number + "** |\n\n";
    out += "| component | item | formula | count | GiB |\n|---|---|---|---:|---:|\n";
    for (const auto &item : e.items) {
        if (!item.aliveIn(e.peak.phase))
            continue;
        std::snprintf(number, sizeof number, "%.3f", item.bytes() / 1073741824.0);
        out += "| " + std::string(componentKey(item.component)) + " | " + markdownCell(item.name) +
               " | " + markdownCell(item.formula) + " | " + integer(item.count) + " | " + number +
               " |\n";
    }
    return out;
}

} // namespace vramplan
