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

// "151936" -> "151,936": a dimension of four digits stays as written ("8192").
QString grouped(double v)
{
    if (!(std::abs(v) < 1e15) || v != std::floor(v))
        return QString::number(v, 'g', 4);
    QString digits = QString::number(qint64(std::abs(v)));
    if (digits.size() > 4)
        for (int at = int(digits.size()) - 3; at > 0; at -= 3)
            digits.insert(at, QLatin1Char(','));
    return (v < 0 ? QStringLiteral("-") : QString()) + digits;
}

// A value solved from the item's bytes is shown only when it is one a dtype or a count of
// copies gives (a multiple of 1/8): anything else would mean the formula does not cover
// every factor, and a made-up number would mislead.
bool plausible(double v)
{
    return std::isfinite(v) && v > 0 && std::abs(v * 8 - std::round(v * 8)) < 1e-6 * v * 8;
}

// The worked formula as a product of this run's numbers: "b*s*V*bytes" -> "1 × 8192 ×
// 151,936 × 4 bytes", the one word left ("bytes") solved from the item's size. Empty when the
// formula is not a plain product of known symbols and at most one such word.
QString workedProduct(const Item &item, const FormulaSymbols &symbols)
{
    const std::string worked = formulaWithNumbers(item.formula, symbols);
    const auto eq = worked.find(" = ");
    if (eq == std::string::npos)
        return {};
    const QString expression = QString::fromStdString(worked.substr(eq + 3));
    QStringList factors = expression.split(QLatin1Char('*'));
    double product = 1;
    int unknown = -1;
    for (int i = 0; i < factors.size(); ++i) {
        factors[i] = factors[i].trimmed();
        bool number = false;
        const double v = factors[i].toDouble(&number);
        if (number) {
            product *= v;
            continue;
        }
        const bool word = !factors[i].isEmpty() && factors[i].at(0).isLetter() &&
                          std::all_of(factors[i].begin(), factors[i].end(),
                                      [](QChar c) { return c.isLetterOrNumber() || c == '_'; });
        if (!word || unknown >= 0)
            return {};
        unknown = i;
    }
    QStringList shown;
    for (int i = 0; i < factors.size(); ++i) {
        if (i != unknown) {
            shown << grouped(factors[i].toDouble());
            continue;
        }
        const double solved = sanitized(item.perUnit) / product;
        shown << (plausible(solved) ? grouped(solved) + QLatin1Char(' ') + factors[i]
                                    : factors[i]);
    }
    return shown.join(QStringLiteral(" \u00d7 "));
}

// Formulas over the trainable parameters ("trainable elements * bytes per weight / shards",
// and the optimizer's list of every optimizer's states) worked for this run: the parameters
// times the bytes each one costs on this GPU, sharding and offload included.
QString workedPerParameter(const Item &item, const Estimate &e)
{
    const std::string_view f = item.formula;
    if (f.find("trainable element") == std::string_view::npos || e.trainableParameters <= 0)
        return {};
    const double each = sanitized(item.perUnit) / double(e.trainableParameters);
    if (!(each > 0))
        return {};
    return Words::tr("%1 trainable parameters \u00d7 %2 bytes each on this GPU")
        .arg(grouped(double(e.trainableParameters)), QString::number(each, 'g', 4));
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
            // The formula whole, then this run's arithmetic where it can be worked out: after
            // the optimizer's list of every optimizer's states, this one's bytes per parameter.
            text += QStringLiteral(" — ") + fromView(item.formula);
            const std::string worked = formulaWithNumbers(item.formula, estimate.symbols);
            if (const QString product = workedProduct(item, estimate.symbols); !product.isEmpty())
                text += QStringLiteral(" = ") + product;
            else if (const auto eq = worked.find(" = "); eq != std::string::npos)
                text += QStringLiteral(" = ") + QString::fromStdString(worked.substr(eq + 3));
            else if (const QString perParameter = workedPerParameter(item, estimate);
                     !perParameter.isEmpty())
                text += QStringLiteral(" = ") + perParameter;
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
