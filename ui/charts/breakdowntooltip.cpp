#include "charts/breakdowntooltip.h"

#include "charts/componentstyle.h"
#include "charts/ticklabels.h"

#include <QCoreApplication>
#include <QStringList>

#include <algorithm>
#include <cmath>
#include <vector>

namespace vramplan::ui {
namespace {

struct Words
{
    Q_DECLARE_TR_FUNCTIONS(vramplan::ui::BreakdownToolTip)
};

constexpr int shownItems = 10; // plus a heading and a "more" line: about 12 lines
constexpr int lineLength = 72; // characters of a formula line before it wraps
const QString indent = QStringLiteral("        ");

double sanitized(double v)
{
    return std::isfinite(v) && v > 0 ? v : 0.0;
}

QString fromView(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

// Sizes in a tooltip range from kilobytes (a norm weight) to terabytes; "0.00 GiB" says
// nothing, so small ones drop to MiB/MB.
QString itemSize(double bytes, Unit unit)
{
    if (toUnit(bytes, unit) >= 0.1)
        return formatSize(bytes, unit, 2);
    const bool binary = unit == Unit::GiB;
    const double mega = binary ? 1048576.0 : 1.0e6;
    return QString::number(bytes / mega, 'f', 2) +
           (binary ? QStringLiteral(" MiB") : QStringLiteral(" MB"));
}

QString itemCount(double count)
{
    return count == std::floor(count) && std::abs(count) < 1e15 ? QString::number(qint64(count))
                                                                : QString::number(count, 'g', 4);
}

// A long formula (some spell out every optimizer's case) goes on as indented lines, whole: a
// tooltip line as wide as the screen is unreadable, and a cut one says less than it should.
QStringList wrapped(const QString &text, int width)
{
    QStringList lines;
    QString line;
    for (const QString &word : text.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        if (!line.isEmpty() && line.size() + 1 + word.size() > width) {
            lines << line;
            line.clear();
        }
        line += (line.isEmpty() ? QString() : QStringLiteral(" ")) + word;
    }
    if (!line.isEmpty())
        lines << line;
    return lines;
}

} // namespace

QString breakdownToolTip(const Estimate &estimate, Component component, Unit unit)
{
    const Phase peak = estimate.peak.phase;
    std::vector<const Item *> items;
    for (const Item &item : estimate.items) {
        if (item.component == component && item.aliveIn(peak) && sanitized(item.bytes()) > 0)
            items.push_back(&item);
    }
    std::sort(items.begin(), items.end(),
              [](const Item *a, const Item *b) { return a->bytes() > b->bytes(); });

    QStringList lines;
    lines << Words::tr("%1: %2 at %3")
                 .arg(componentName(component),
                      formatSize(sanitized(estimate.componentBytes(component)), unit),
                      phaseName(peak));
    const int shown = std::min(int(items.size()), shownItems);
    for (int i = 0; i < shown; ++i) {
        const Item &item = *items[size_t(i)];
        QString text = fromView(item.name);
        if (!item.formula.empty()) {
            text += QStringLiteral(" — ") + fromView(item.formula);
            // The same formula with this scenario's numbers put in, where it has symbols.
            const std::string worked = formulaWithNumbers(item.formula, estimate.symbols);
            if (const auto eq = worked.find(" = "); eq != std::string::npos)
                text += QStringLiteral(" = ") + QString::fromStdString(worked.substr(eq + 3));
        }
        text += QStringLiteral(" — ") + itemSize(sanitized(item.perUnit), unit);
        if (item.count != 1)
            text += QStringLiteral(" ×") + itemCount(item.count);
        const QStringList parts = wrapped(text, lineLength);
        for (int p = 0; p < parts.size(); ++p)
            lines << (p == 0 ? parts[p] : indent + parts[p]);
    }
    if (int(items.size()) > shown) {
        double rest = 0;
        for (size_t i = size_t(shown); i < items.size(); ++i)
            rest += sanitized(items[i]->bytes());
        lines << Words::tr("… %1 more, %2 together")
                     .arg(int(items.size()) - shown)
                     .arg(itemSize(rest, unit));
    }
    return lines.join(QLatin1Char('\n'));
}

} // namespace vramplan::ui
