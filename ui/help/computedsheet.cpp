// The current estimate, item by item, as the "How this is computed" view shows it.

#include "help/computedsheet.h"

#include "charts/componentstyle.h"
#include "charts/ticklabels.h"

#include <QCoreApplication>
#include <QStringList>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <string>

namespace vramplan::ui {
namespace {

struct Words
{
    Q_DECLARE_TR_FUNCTIONS(vramplan::ui::ComputedSheet)
};

// No NaN, infinity or negative size reaches the page, whatever the scenario.
double sanitized(double v)
{
    return std::isfinite(v) && v > 0 ? v : 0.0;
}

QString fromView(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

QString countText(double count)
{
    return count == std::floor(count) && std::abs(count) < 1e15 ? QString::number(qint64(count))
                                                                : QString::number(count, 'g', 4);
}

// The phases an item is alive in, among those the step has (an item of the step's evaluation
// lists the validation pass, not phases that never happen).
QString alivePhases(const Estimate &e, const Item &item)
{
    QStringList names;
    for (const PhaseTotals &ph : e.phases)
        if (ph.present && item.aliveIn(ph.phase))
            names << phaseName(ph.phase);
    return names.isEmpty() ? Words::tr("none of this step's phases") : names.join(QStringLiteral(", "));
}

// The symbols formulas use, with their values for this run (FormulaSymbols, per GPU).
QString symbolsText(const FormulaSymbols &v)
{
    const std::pair<const char *, double> values[] = {
        {"b", v.b}, {"s", v.s}, {"h", v.h}, {"a", v.a}, {"kv", v.kv}, {"d", v.d},
        {"f", v.f}, {"V", v.V}, {"c", v.c}, {"r", v.r}, {"E", v.E}, {"k", v.k}};
    QStringList parts;
    for (const auto &[name, value] : values)
        if (std::isfinite(value) && value > 0)
            parts << QStringLiteral("%1 = %2").arg(QLatin1String(name), QString::number(value, 'g', 10));
    return parts.join(QStringLiteral(", "));
}

// "3h" is 3 times h: written out as "3*h", so that the numbers read 3*4096, not 34096. Only a
// number standing alone (not the 32 of "fp32") before a symbol formulas use.
std::string explicitProducts(std::string_view formula)
{
    static constexpr std::string_view symbols[] = {"kv", "b", "s", "h", "a", "d", "f",
                                                   "V", "c", "r", "E", "k"};
    const auto isAlnum = [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) != 0; };
    std::string out;
    size_t i = 0;
    while (i < formula.size()) {
        if (!std::isdigit(static_cast<unsigned char>(formula[i])) || (i > 0 && isAlnum(formula[i - 1]))) {
            // Copy a whole word (identifier or number glued to letters, as "fp32") at once.
            size_t j = i + 1;
            if (isAlnum(formula[i]))
                while (j < formula.size() && (isAlnum(formula[j]) || formula[j] == '.'))
                    ++j;
            out.append(formula.substr(i, j - i));
            i = j;
            continue;
        }
        size_t j = i;
        while (j < formula.size() &&
               (std::isdigit(static_cast<unsigned char>(formula[j])) || formula[j] == '.'))
            ++j;
        out.append(formula.substr(i, j - i));
        size_t end = j;
        while (end < formula.size() && isAlnum(formula[end]))
            ++end;
        const std::string_view word = formula.substr(j, end - j);
        for (const std::string_view symbol : symbols)
            if (word == symbol) {
                out += '*';
                break;
            }
        i = j;
    }
    return out;
}

ComputedRow rowOf(const Estimate &e, const Item &item)
{
    ComputedRow row;
    row.name = fromView(item.name);
    row.formula = fromView(item.formula);
    row.source = fromView(item.source);
    row.perUnit = sanitized(item.perUnit);
    row.count = std::isfinite(item.count) && item.count > 0 ? item.count : 0;
    row.bytes = sanitized(item.bytes());
    // The core's formulas for the model states say "trainable elements * bytes ..." or "per
    // trainable element": the bytes per parameter are what engineers compare (2 + 2 + 12).
    const double trainable = double(e.trainableParameters);
    if (row.formula.contains(QLatin1String("trainable element")) && trainable > 0)
        row.perTrainable = row.bytes / trainable;
    row.atPeak = item.aliveIn(e.peak.phase);
    row.outsideAllocator = item.outsideAllocator;
    if (!row.atPeak)
        row.phases = alivePhases(e, item);
    // formulaWithNumbers returns "formula = numbers" where the formula has known symbols.
    const std::string worked = formulaWithNumbers(explicitProducts(item.formula), e.symbols);
    if (const auto eq = worked.find(" = "); eq != std::string::npos) {
        row.worked = QString::fromStdString(worked.substr(eq + 3));
        // The numbers stop where the formula's prose starts; a bracket left open says the
        // formula goes on (its whole text is beside it).
        if (row.worked.count(QLatin1Char('(')) > row.worked.count(QLatin1Char(')')))
            row.worked += QStringLiteral(" …");
    }
    return row;
}

} // namespace

QString itemSizeText(double bytes, Unit unit)
{
    bytes = sanitized(bytes);
    if (toUnit(bytes, unit) >= 0.1 || bytes == 0)
        return formatSize(bytes, unit, 2);
    const bool binary = unit == Unit::GiB;
    return QString::number(bytes / (binary ? 1048576.0 : 1.0e6), 'f', 2) +
           (binary ? QStringLiteral(" MiB") : QStringLiteral(" MB"));
}

ComputedSheet computedSheet(const Estimate &e)
{
    ComputedSheet sheet;
    sheet.peak = e.peak.phase;
    sheet.symbols = symbolsText(e.symbols);
    sheet.trainable = std::max(0.0, double(e.trainableParameters));
    sheet.allocated = sanitized(e.peak.allocated);
    sheet.reserved = sanitized(e.peak.reserved);
    bool spilled = false, clamped = false;
    for (const Warning &w : e.warnings) {
        spilled |= w.code == WarningCode::PagedStatesSpill;
        clamped |= w.code == WarningCode::Clamped;
    }
    for (int i = 0; i < componentCount; ++i) {
        const auto component = static_cast<Component>(i);
        ComputedGroup group;
        group.component = component;
        group.totalBytes = sanitized(e.perGpu[size_t(i)]);
        double atPeak = 0;
        for (const Item &item : e.items) {
            if (item.component != component)
                continue;
            group.rows.push_back(rowOf(e, item));
            if (group.rows.back().atPeak)
                atPeak += group.rows.back().bytes;
        }
        if (group.rows.empty() && group.totalBytes == 0)
            continue;
        // Half a byte: the sums are of whole bytes but in doubles.
        const double rest = group.totalBytes - atPeak;
        if (std::abs(rest) > 0.5) {
            group.adjustmentBytes = rest;
            group.adjustment =
                spilled && component == Component::OptimizerStates && rest < 0
                    ? Words::tr("paged optimizer states the GPU cannot hold: they stay in host "
                                "memory (bitsandbytes paged optimizers, cudaMallocManaged)")
                : clamped ? Words::tr("clamped: the total is beyond what can be reported")
                          : Words::tr("not itemised by the estimator");
        }
        sheet.itemCount += int(group.rows.size());
        sheet.deviceBytes += group.totalBytes;
        sheet.groups.push_back(std::move(group));
    }
    return sheet;
}

namespace {

QString escaped(const QString &text)
{
    return text.toHtmlEscaped();
}

// From the bytes of one unit to the item's total, and per trainable parameter where the core
// counts the item so.
QString arithmeticOf(const ComputedRow &row, double trainable, Unit unit)
{
    QStringList lines;
    if (row.count != 1)
        lines << QStringLiteral("%1 × %2 = %3")
                     .arg(itemSizeText(row.perUnit, unit), countText(row.count),
                          itemSizeText(row.bytes, unit));
    if (row.perTrainable > 0)
        lines << Words::tr("%1 bytes per trainable parameter × %2 parameters = %3")
                     .arg(QString::number(row.perTrainable, 'f', 2), formatCount(trainable),
                          itemSizeText(row.bytes, unit));
    return lines.join(QStringLiteral("<br>"));
}

QString rowHtml(const ComputedRow &row, double trainable, Unit unit)
{
    QString name = QStringLiteral("<b>%1</b>").arg(escaped(row.name));
    if (row.outsideAllocator)
        name += QStringLiteral("<br><small>%1</small>")
                    .arg(Words::tr("beside the caching allocator (nvidia-smi counts it)"));
    if (!row.atPeak)
        name += QStringLiteral("<br><small>%1</small>")
                    .arg(Words::tr("not at the peak; alive in: %1").arg(escaped(row.phases)));
    QString worked = row.worked.isEmpty() ? QString() : QStringLiteral("<tt>%1</tt>").arg(escaped(row.worked));
    const QString arithmetic = arithmeticOf(row, trainable, unit);
    if (!arithmetic.isEmpty())
        worked += (worked.isEmpty() ? QString() : QStringLiteral("<br>")) + arithmetic;
    const QString size = row.atPeak ? itemSizeText(row.bytes, unit)
                                    : QStringLiteral("(%1)").arg(itemSizeText(row.bytes, unit));
    const QString colour = row.atPeak ? QString() : QStringLiteral(" style=\"color:gray\"");
    return QStringLiteral("<tr%1><td>%2</td><td><tt>%3</tt></td><td>%4</td>"
                          "<td align=\"right\" nowrap>%5</td><td><small>%6</small></td></tr>")
        .arg(colour, name, escaped(row.formula), worked, size, escaped(row.source));
}

} // namespace

QString computedSheetHtml(const ComputedSheet &sheet, Unit unit)
{
    QString html = QStringLiteral("<h2>%1</h2>").arg(Words::tr("How this is computed"));
    html += QStringLiteral("<p>%1</p>")
                .arg(Words::tr("Memory per GPU at the peak (%1): <b>device %2</b>, the sum of the "
                               "components below; allocated %3, reserved %4. Each item is the "
                               "estimator's own term: its formula, the formula with this run's "
                               "numbers, its size and its source. Items shown in grey are alive "
                               "in other phases of the step and not counted in the peak.")
                         .arg(phaseName(sheet.peak), formatSize(sheet.deviceBytes, unit),
                              formatSize(sheet.allocated, unit), formatSize(sheet.reserved, unit)));
    if (!sheet.symbols.isEmpty())
        html += QStringLiteral("<p>%1<br><tt>%2</tt></p>")
                    .arg(Words::tr("Symbols of this run, per GPU (after tensor, context and "
                                   "pipeline parallelism): b micro-batch, s tokens of a sequence, h "
                                   "hidden size, a attention heads, kv key/value heads, d head "
                                   "dimension, f feed-forward width, V vocabulary, c bytes per "
                                   "activation element, r LoRA rank, E experts, k experts per "
                                   "token."),
                         escaped(sheet.symbols));
    const QString header =
        // The same column widths in every component's table, so that they read as one.
        QStringLiteral("<tr style=\"background-color:#e8e8e8\"><th align=\"left\" width=\"22%\">%1</th>"
                       "<th align=\"left\" width=\"25%\">%2</th><th align=\"left\" width=\"28%\">%3</th>"
                       "<th align=\"right\" width=\"10%\">%4</th><th align=\"left\" width=\"15%\">%5</th></tr>")
            .arg(Words::tr("Item"), Words::tr("Formula"), Words::tr("With this run's numbers"),
                 Words::tr("Size"), Words::tr("Source"));
    for (const ComputedGroup &group : sheet.groups) {
        html += QStringLiteral("<h3><span style=\"color:%1\">&#9632;</span> %2: %3</h3>")
                    .arg(componentColor(group.component).name(), componentName(group.component),
                         formatSize(group.totalBytes, unit));
        // 99%: at 100% Qt's layout makes the bordered table one pixel wider than the page once
        // the vertical scroll bar takes its width, and a sideways scroll bar appears for it.
        html += QStringLiteral("<table width=\"99%\" border=\"1\" cellspacing=\"0\" "
                               "cellpadding=\"4\" style=\"border-collapse:collapse; "
                               "border-color:#c8c8c8\">") + header;
        for (const ComputedRow &row : group.rows)
            html += rowHtml(row, sheet.trainable, unit);
        if (!group.adjustment.isEmpty())
            html += QStringLiteral("<tr><td colspan=\"3\"><i>%1</i></td>"
                                   "<td align=\"right\">%2</td><td></td></tr>")
                        .arg(escaped(group.adjustment),
                             (group.adjustmentBytes < 0 ? QStringLiteral("−") : QString()) +
                                 itemSizeText(std::abs(group.adjustmentBytes), unit));
        html += QStringLiteral("<tr><td colspan=\"3\"><b>%1</b></td><td align=\"right\" nowrap>"
                               "<b>%2</b></td><td></td></tr></table>")
                    .arg(Words::tr("%1 at the peak").arg(componentName(group.component)),
                         formatSize(group.totalBytes, unit));
    }
    return html;
}

} // namespace vramplan::ui
