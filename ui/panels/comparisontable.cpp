// ComparisonView, continued: the table under the chart. Inputs that differ, named by the
// controls that set them, then the components per GPU with each one's difference to the first
// scenario, the peak, whether it fits, and for servers the KV cache in tokens and the requests
// of max_model_len it holds at once (issue 21 #8, #13). What differs from the first scenario is
// highlighted; the CSV and JSON exports keep their field paths (comparison.h), this is for
// reading.

#include "panels/comparisonview.h"

#include "charts/componentstyle.h"
#include "charts/ticklabels.h"
#include "panels/fitwording.h"

#include <QHeaderView>
#include <QTableWidget>

#include <algorithm>
#include <cmath>
#include <functional>

namespace vramplan::ui {
namespace {

// A heading is wrapped to this width (three lines at most, the whole name in its tooltip), so a
// column is never wider than a long scenario name needs to be readable.
constexpr int headingWidth = 220;

// A value of differingInputs (JSON as text) as a person reads it: numbers rounded and grouped
// ("79.6474609375" -> "79.65", "131072" -> "131,072"), true/false as yes/no.
QString shownValue(const std::string &raw)
{
    const QString text = QString::fromStdString(raw);
    if (raw == "true")
        return ComparisonView::tr("yes");
    if (raw == "false")
        return ComparisonView::tr("no");
    bool number = false;
    const double v = text.toDouble(&number);
    if (!number || !std::isfinite(v))
        return text;
    if (v == std::round(v) && std::abs(v) < 9e15)
        return groupedNumber(int64_t(v));
    if (std::abs(v) < 0.01)
        return QString::number(v, 'g', 3);
    QString out = QString::number(v, 'f', 2);
    while (out.endsWith(QLatin1Char('0')))
        out.chop(1);
    return out;
}

// Differences stand out in bold on a tint of the palette's highlight, readable under a light
// or a dark palette.
void highlight(QTableWidgetItem *item, const QPalette &palette)
{
    QFont font = item->font();
    font.setBold(true);
    item->setFont(font);
    QColor tint = palette.color(QPalette::Highlight);
    tint.setAlpha(60);
    item->setBackground(tint);
}

} // namespace

void ComparisonView::fillTable()
{
    std::vector<Scenario> scenarios;
    for (const auto &e : m_comparison.entries)
        scenarios.push_back(e.scenario);
    const auto differing = differingInputs(scenarios);
    const bool servers = std::any_of(m_estimates.begin(), m_estimates.end(),
                                     [](const Estimate &e) { return e.serving.present; });
    const int rows = int(differing.size()) + componentCount + 2 + (servers ? 2 : 0);
    m_table->clear();
    m_table->setColumnCount(count());
    m_table->setRowCount(count() > 0 ? rows : 0);
    // An empty comparison has no rows: a header item made for one would belong to nobody.
    if (count() == 0)
        return;
    const QFontMetrics metrics(m_table->horizontalHeader()->font());
    const std::vector<std::string> labels = uniqueLabels(m_comparison);
    for (int i = 0; i < count(); ++i) {
        const QString label = QString::fromStdString(labels[size_t(i)]);
        auto *heading = new QTableWidgetItem(fittedLabel(label, metrics, headingWidth, 3));
        heading->setToolTip(label);
        m_table->setHorizontalHeaderItem(i, heading);
    }
    // A row: its name (the field path, where it has one, in its tooltip) and a cell per scenario,
    // those unlike the first scenario's highlighted.
    int row = 0;
    auto addRow = [&](const QString &name, const QString &path, const QStringList &cells,
                      const std::function<bool(int)> &differs) {
        auto *heading = new QTableWidgetItem(name);
        heading->setToolTip(path);
        m_table->setVerticalHeaderItem(row, heading);
        for (int i = 0; i < count(); ++i) {
            auto *item = new QTableWidgetItem(cells.value(i));
            if (i > 0 && differs(i))
                highlight(item, palette());
            m_table->setItem(row, i, item);
        }
        ++row;
    };
    for (const auto &d : differing) {
        const QString path = QString::fromStdString(d.path);
        QString name = m_fieldLabels ? m_fieldLabels(path) : QString();
        QStringList cells;
        for (const std::string &v : d.values)
            cells << shownValue(v);
        addRow(name.isEmpty() ? path : name, path, cells,
               [&](int i) { return d.values[size_t(i)] != d.values[0]; });
    }
    for (int c = 0; c < componentCount; ++c) {
        const double first = count() > 0 ? m_estimates[0].perGpu[size_t(c)] : 0;
        QStringList cells;
        for (int i = 0; i < count(); ++i) {
            const double v = m_estimates[size_t(i)].perGpu[size_t(c)];
            QString text = formatSize(v, m_unit);
            if (i > 0) { // the difference to the first scenario
                const double diff = v - first;
                text += QStringLiteral(" (%1%2)").arg(diff >= 0 ? QStringLiteral("+")
                                                                : QStringLiteral("-"),
                                                      formatSize(std::abs(diff), m_unit));
            }
            cells << text;
        }
        addRow(componentName(Component(c)), QString(), cells, [&](int i) {
            return formatSize(m_estimates[size_t(i)].perGpu[size_t(c)], m_unit) !=
                   formatSize(first, m_unit);
        });
    }
    QStringList peaks, fits, tokens, concurrency;
    for (const Estimate &e : m_estimates) {
        peaks << formatSize(e.peak.device, m_unit);
        fits << (e.fits ? tr("yes") : tr("no"));
        tokens << (e.serving.present ? groupedNumber(e.serving.kvCacheTokens)
                                     : QStringLiteral("-"));
        concurrency << (e.serving.present ? QString::number(e.serving.maxConcurrency, 'f', 2)
                                          : QStringLiteral("-"));
    }
    const auto unlikeFirst = [](const QStringList &cells) {
        return [cells](int i) { return cells.value(i) != cells.value(0); };
    };
    addRow(tr("Peak per GPU (device)"), QString(), peaks, unlikeFirst(peaks));
    addRow(tr("Fits"), QString(), fits, unlikeFirst(fits));
    if (servers) {
        addRow(tr("KV-cache tokens"), QStringLiteral("serving.kv_cache_tokens"), tokens,
               unlikeFirst(tokens));
        addRow(tr("Max concurrency (requests of max_model_len)"),
               QStringLiteral("serving.max_concurrency"), concurrency, unlikeFirst(concurrency));
    }
}

} // namespace vramplan::ui
