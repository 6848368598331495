#include "runs/runcomparison.h"

#include "charts/componentstyle.h"
#include "runs/run_source.h"

#include <QCoreApplication>
#include <QStringList>

#include <cmath>

namespace vramplan::ui {
namespace {

struct Words
{
    Q_DECLARE_TR_FUNCTIONS(RunComparison)
};

std::optional<double> bytesOf(const nlohmann::json &v)
{
    return v.is_number() ? std::optional<double>(v.get<double>()) : std::nullopt;
}

QString sizeOr(const std::optional<double> &bytes, Unit unit, const QString &otherwise)
{
    return bytes ? formatSize(*bytes, unit) : otherwise;
}

QString text(const nlohmann::json &v)
{
    return v.is_string() ? QString::fromStdString(v.get<std::string>()) : QString();
}

const nlohmann::json &member(const nlohmann::json &object, const char *key)
{
    static const nlohmann::json null;
    return object.is_object() && object.contains(key) ? object[key] : null;
}

// The component a measurement's key names, in the window's words.
Component windowComponent(RunComponent c)
{
    switch (c) {
    case RunComponent::Parameters:
        return Component::Parameters;
    case RunComponent::Gradients:
        return Component::Gradients;
    case RunComponent::OptimizerStates:
        return Component::OptimizerStates;
    case RunComponent::Activations:
        return Component::Activations;
    case RunComponent::Temporary:
        return Component::Temporary;
    case RunComponent::Framework:
    case RunComponent::Unknown:
        break;
    }
    return Component::Framework;
}

// The files whose own peak is the merged one: the report takes the largest any file saw.
QString peakFrom(const nlohmann::json &report, const char *key, const nlohmann::json &peak)
{
    QStringList files;
    if (peak.is_number())
        for (const auto &s : member(report, "sources"))
            if (member(member(s, "peak"), key) == peak)
                files << text(member(s, "file"));
    return files.join(QStringLiteral(", "));
}

void addPlan(RunComparisonRow &row, const nlohmann::json &planned, const nlohmann::json &diff,
             Unit unit)
{
    row.planned = sizeOr(bytesOf(planned), unit, QString());
    if (diff.is_number())
        row.difference = differenceInWords(diff.get<double>(), unit);
    else if (!row.measuredBytes)
        row.difference = QStringLiteral("\u2014"); // nothing measured to compare
}

} // namespace

QString differenceInWords(double differenceBytes, Unit unit)
{
    // The core's run-report table: less than half a byte apart is "as planned".
    if (std::fabs(differenceBytes) < 0.5)
        return Words::tr("as planned");
    const QString size = formatSize(std::fabs(differenceBytes), unit);
    return differenceBytes > 0 ? Words::tr("%1 more than planned").arg(size)
                               : Words::tr("%1 less than planned").arg(size);
}

std::vector<RunComparisonRow> runComparisonRows(const nlohmann::json &report, Unit unit)
{
    std::vector<RunComparisonRow> rows;
    const QString notRecorded = Words::tr("not recorded");
    const nlohmann::json &peak = member(report, "peak");
    const nlohmann::json &comparison = member(report, "comparison");
    const nlohmann::json &plan = member(comparison, "estimate");
    const nlohmann::json &diff = member(comparison, "difference_bytes");
    const bool compared = comparison.is_object();

    const struct
    {
        const char *name, *key;
        QString what, tip;
    } peaks[] = {
        {"allocated", "allocated_bytes", Words::tr("Allocated peak"),
         Words::tr("torch.cuda.max_memory_allocated(): the tensors themselves")},
        {"reserved", "reserved_bytes", Words::tr("Reserved peak"),
         Words::tr("torch.cuda.max_memory_reserved(): what the caching allocator holds")},
        {"device", "device_bytes", Words::tr("Device peak"),
         Words::tr("What nvidia-smi shows: reserved, the CUDA context and memory beside the "
                   "allocator")},
    };
    for (const auto &p : peaks) {
        RunComparisonRow row;
        row.key = QStringLiteral("peak.") + QLatin1String(p.name);
        row.what = p.what;
        row.tooltip = p.tip;
        row.measuredBytes = bytesOf(member(peak, p.key));
        row.measured = sizeOr(row.measuredBytes, unit, notRecorded);
        row.from = peakFrom(report, p.key, member(peak, p.key));
        if (compared)
            addPlan(row, member(member(plan, "peak"), p.key), member(diff, p.name), unit);
        rows.push_back(row);
    }
    {
        RunComparisonRow row;
        row.key = QStringLiteral("peak.phase");
        row.what = Words::tr("Phase of the peak");
        row.tooltip = Words::tr("When the allocated peak came, in the words of the report");
        row.measured = member(peak, "phase").is_string() ? text(member(peak, "phase")) : notRecorded;
        if (compared)
            row.planned = text(member(member(plan, "peak"), "phase"));
        rows.push_back(row);
    }

    const nlohmann::json &components = member(report, "per_component_bytes");
    const nlohmann::json &perGpu = member(plan, "per_gpu_bytes");
    const QString componentsFrom = text(member(report, "components_from"));
    for (int c = 0; c < runComponentCount; ++c) {
        const std::string key(runComponentKey(RunComponent(c)));
        RunComparisonRow row;
        row.key = QStringLiteral("component.") + QString::fromStdString(key);
        row.what = componentName(windowComponent(RunComponent(c)));
        row.measuredBytes = bytesOf(member(components, key.c_str()));
        row.measured = sizeOr(row.measuredBytes, unit, notRecorded);
        QStringList rules;
        for (const auto &r : member(report, "component_rules"))
            if (member(r, "component") == key)
                rules << text(member(r, "rule"));
        if (row.measuredBytes)
            row.from = rules.isEmpty() ? Words::tr("none alive at the peak")
                                       : rules.join(QStringLiteral("; "));
        if (row.measuredBytes && !componentsFrom.isEmpty())
            row.tooltip = Words::tr("Placed by these rules, from %1").arg(componentsFrom);
        if (compared) {
            // As the report compares it: a run sees the logits and the loss as activations.
            nlohmann::json planned = member(perGpu, key.c_str());
            if (key == "activations" && planned.is_number() &&
                member(perGpu, "logits_and_loss").is_number()) {
                planned = planned.get<double>() + member(perGpu, "logits_and_loss").get<double>();
                row.tooltip += (row.tooltip.isEmpty() ? QString() : QStringLiteral("\n")) +
                               Words::tr("Planned: activations with the logits and the loss, "
                                         "which a run records as activations");
            }
            addPlan(row, planned, member(member(diff, "per_component"), key.c_str()), unit);
        }
        rows.push_back(row);
    }
    if (const auto unknown = bytesOf(member(report, "unknown_bytes"))) {
        RunComparisonRow row;
        row.key = QStringLiteral("component.unknown");
        row.what = Words::tr("Not placed");
        row.tooltip = Words::tr("Bytes of the peak that no rule placed in a component (made "
                                "before the trace began, or where no phase is known)");
        row.measuredBytes = unknown;
        row.measured = formatSize(*unknown, unit);
        for (const auto &r : member(report, "component_rules"))
            if (member(r, "component") == "unknown")
                row.from = text(member(r, "rule"));
        rows.push_back(row);
    }
    return rows;
}

QString runSourcesText(const nlohmann::json &report)
{
    QStringList files;
    for (const auto &s : member(report, "sources")) {
        // The kind by the report's own key (torch_snapshot, mem_tracker, memory_stats,
        // nvidia_smi): the name a script reading the JSON knows it by.
        QString line = text(member(s, "file")) + QStringLiteral(" (") + text(member(s, "kind"));
        if (member(s, "trace_entries").is_number())
            line += QStringLiteral(", ") +
                    Words::tr("%n trace entries", nullptr,
                              member(s, "trace_entries").get<int>());
        files << line + QLatin1Char(')');
    }
    return files.join(QStringLiteral(", "));
}

} // namespace vramplan::ui
