#include "rl/rlphasechart.h"

#include "charts/chartstyle.h"
#include "charts/componentstyle.h"
#include "charts/plotlayout.h"
#include "charts/sizeaxis.h"
#include "rl/rlphasetext.h"

#include <qcustomplot.h>

#include <QEvent>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace vramplan::ui {
namespace {

// Side by side the bars keep gaps between them (three phases, each its own); in the timeline
// they nearly touch (one phase follows the other in time), the narrow gaps holding the engine's
// sleep and wake.
constexpr double breakdownWidth = 0.6;
constexpr double timelineWidth = 0.86;

double sanitized(double v)
{
    return std::isfinite(v) && v > 0 ? v : 0.0;
}

} // namespace

RlPhaseChart::RlPhaseChart(Style style, QWidget *parent)
    : QWidget(parent), m_style(style), m_plot(new QCustomPlot(this)),
      m_ticker(new QCPAxisTickerText)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    m_plot->setAntialiasedElements(QCP::aePlottables | QCP::aeItems | QCP::aeLegendItems);
    m_plot->setMouseTracking(true);
    m_plot->setMinimumSize(160, 160);
    m_title = titleAndLegendAbove(m_plot, QString());
    m_plot->legend->setMargins(QMargins(6, 4, 6, 0));

    QCPAxis *x = m_plot->xAxis;
    x->setTicker(m_ticker);
    x->grid()->setVisible(false);
    x->setTickLength(0, 0);
    x->setSubTicks(false);
    styleAxes(m_plot);
    x->setLabel(tr("Phase, and who holds the most of it"));
    m_bars = addComponentBars(x, m_plot->yAxis,
                              style == Style::Breakdown ? breakdownWidth : timelineWidth);
    m_plot->legend->clearItems();

    m_plot->addLayer(QStringLiteral("markers"), m_plot->layer(QStringLiteral("main")),
                     QCustomPlot::limAbove);
    m_plot->setCurrentLayer(QStringLiteral("markers"));
    m_capacityLine = new QCPItemStraightLine(m_plot);
    m_capacityLabel = new QCPItemText(m_plot);
    m_capacityLabel->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
    m_capacityLabel->position->setCoords(0, 0);
    m_capacityLabel->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
    m_capacityLabel->setPadding(QMargins(4, 1, 4, 1));
    m_capacityEntry = m_plot->addGraph(); // no data: the capacity's legend entry
    m_capacityEntry->setSelectable(QCP::stNone);
    m_capacityEntry->removeFromLegend();
    m_plot->setCurrentLayer(QStringLiteral("main"));

    adaptToLayout(m_plot, [this] {
        const bool columns = setLegendColumns(
            m_plot->legend, fittingColumns(m_plot->legend, m_plot->viewport().width()));
        return columns | fitSizeAxisLabel(m_plot->yAxis);
    });
    connect(m_plot, &QCustomPlot::mouseMove, this,
            [this](QMouseEvent *event) { showToolTip(event); });
    applyColors();
    draw();
}

void RlPhaseChart::setEstimate(const Estimate &e, Unit unit)
{
    m_estimate = e;
    m_unit = unit;
    draw();
}

void RlPhaseChart::setPreview(const Estimate &preview, const QString &what)
{
    m_preview = preview;
    m_previewWhat = what;
    draw();
}

void RlPhaseChart::clearPreview()
{
    if (!m_preview)
        return;
    m_preview.reset();
    m_previewWhat.clear();
    draw();
}

RlPhaseKind RlPhaseChart::columnPhase(int index) const
{
    return index >= 0 && index < columnCount() ? m_columns[size_t(index)].phase
                                               : RlPhaseKind::Training;
}
QString RlPhaseChart::columnLabel(int index) const
{
    return index >= 0 && index < columnCount() ? m_columnLabels[size_t(index)] : QString();
}
double RlPhaseChart::columnTotal(int index) const
{
    return index >= 0 && index < columnCount() ? m_totals[size_t(index)] : 0.0;
}
QString RlPhaseChart::tickLabel(int index) const
{
    return index >= 0 && index < columnCount() ? m_tickLabels[size_t(index)] : QString();
}
QStringList RlPhaseChart::markerLabels() const
{
    QStringList out;
    for (const QCPItemText *text : m_markerTexts)
        out << text->text();
    return out;
}
QString RlPhaseChart::title() const
{
    return m_title->text();
}
double RlPhaseChart::capacityValue() const
{
    return m_capacityLine->visible() ? m_capacityLine->point1->coords().y() : 0.0;
}

void RlPhaseChart::draw()
{
    const Estimate &e = shown();
    const RlPlan &plan = e.rl;
    const bool timeline = m_style == Style::Timeline;
    QString title = timeline ? tr("Memory through one RL step, per trainer GPU")
                             : tr("Memory per RL phase, per trainer GPU");
    if (m_preview)
        title = tr("Preview: %1").arg(m_previewWhat);
    m_title->setText(title);

    // The columns: the phases the algorithm has, in order; the timeline repeats the first (the
    // next step's generation) so that the engine's wake shows.
    m_columns.clear();
    if (plan.present) {
        for (int i = 0; i < rlPhaseCount; ++i)
            if (plan.phases[size_t(i)].present || !timeline)
                m_columns.push_back({static_cast<RlPhaseKind>(i)});
        if (timeline && !m_columns.empty())
            m_columns.push_back({m_columns.front().phase, true});
    }
    m_columnLabels.assign(m_columns.size(), QString());
    m_tickLabels.assign(m_columns.size(), QString());
    m_totals.assign(m_columns.size(), 0.0);

    std::array<QVector<QCPBarsData>, componentCount> data;
    std::array<bool, componentCount> used{};
    m_ticker->clear();
    double top = toUnit(e.capacityBytes, m_unit);
    for (size_t i = 0; i < m_columns.size(); ++i) {
        const RlPhase &phase = plan.phase(m_columns[i].phase);
        const double key = double(i + 1);
        for (int c = 0; c < componentCount; ++c) {
            const double v = phase.present ? toUnit(sanitized(phase.byComponent[size_t(c)]), m_unit)
                                           : 0.0;
            data[size_t(c)].append(QCPBarsData(key, v));
            used[size_t(c)] = used[size_t(c)] || v > 0;
            m_totals[i] += v;
        }
        top = std::max(top, m_totals[i]);
        const QString name = rlPhaseName(m_columns[i].phase);
        if (!phase.present) {
            m_columnLabels[i] = tr("none", "a phase the algorithm does not have");
            m_tickLabels[i] = name;
        } else {
            m_columnLabels[i] = m_columns[i].repeat ? formatSize(phase.device, m_unit)
                                                    : rlPhaseLabel(plan, m_columns[i].phase, m_unit);
            m_tickLabels[i] = m_columns[i].repeat
                                  ? tr("%1\n(next step)").arg(name)
                                  : QStringLiteral("%1\n%2").arg(name, rlHolderName(phase.holder));
        }
        m_ticker->addTick(key, m_tickLabels[i]);
    }
    for (int c = 0; c < componentCount; ++c)
        m_bars[size_t(c)]->data()->set(data[size_t(c)], true);

    // The legend names the components drawn, top-down as they stack.
    m_plot->legend->clearItems();
    for (int c = componentCount - 1; c >= 0; --c)
        if (used[size_t(c)])
            m_bars[size_t(c)]->addToLegend();

    // Labels over the bars: the device total, the peak's in bold.
    for (QCPItemText *label : m_labels)
        m_plot->removeItem(label);
    m_labels.clear();
    const ChartColors colors = chartColors(palette());
    for (size_t i = 0; i < m_columns.size(); ++i) {
        auto *label = new QCPItemText(m_plot);
        label->setLayer(QStringLiteral("markers"));
        label->setSelectable(false);
        label->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
        label->position->setCoords(double(i + 1), m_totals[i]);
        label->setText(m_columnLabels[i]);
        label->setColor(colors.text);
        label->setBrush(colors.labelBrush(200)); // readable where the capacity line crosses it
        label->setClipToAxisRect(false);          // a wide label over a narrow first bar
        label->setPadding(QMargins(2, 1, 2, 2));
        QFont font = m_plot->font();
        font.setBold(!m_columns[i].repeat && plan.present && m_columns[i].phase == plan.peak);
        label->setFont(font);
        m_labels.push_back(label);
    }

    // The engine's sleep after generating and its wake before the next generation.
    for (QCPItemStraightLine *line : m_markers)
        m_plot->removeItem(line);
    for (QCPItemText *text : m_markerTexts)
        m_plot->removeItem(text);
    m_markers.clear();
    m_markerTexts.clear();
    const auto mark = [&](double key, const QString &text) {
        auto *line = new QCPItemStraightLine(m_plot);
        line->setLayer(QStringLiteral("markers"));
        line->setSelectable(false);
        line->point1->setCoords(key, 0);
        line->point2->setCoords(key, 1);
        line->setPen(QPen(colors.ink, 1.5, Qt::DashLine));
        auto *label = new QCPItemText(m_plot);
        label->setLayer(QStringLiteral("markers"));
        label->setSelectable(false);
        // Along the line, half-way up: between two bars there is no room across it.
        label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        label->position->setCoords(key, 0.5);
        label->setPositionAlignment(Qt::AlignCenter);
        label->setRotation(-90);
        label->setText(text);
        label->setColor(colors.ink);
        label->setBrush(colors.labelBrush(220));
        label->setPadding(QMargins(3, 1, 3, 1));
        m_markers.push_back(line);
        m_markerTexts.push_back(label);
    };
    const bool generates = plan.present && plan.phase(RlPhaseKind::Generation).present;
    if (timeline && generates && m_columns.size() >= 3) {
        const double beforeNext = double(m_columns.size()) - 0.5;
        if (plan.sleepFreedBytes > 0) {
            mark(1.5, tr("engine sleeps:\nfrees %1").arg(formatSize(plan.sleepFreedBytes, m_unit)));
            mark(beforeNext, tr("engine wakes"));
        } else if (plan.phase(RlPhaseKind::Experience).byComponent[size_t(Component::KvCache)] > 0) {
            mark(1.5, tr("engine stays awake:\nno sleep mode"));
        }
    }

    const bool capacity = e.capacityBytes > 0 && plan.present;
    const double capacityValue = toUnit(e.capacityBytes, m_unit);
    m_capacityLine->setVisible(capacity);
    // In the timeline the sleep and wake markers take the plot's width: the capacity is named
    // in the legend there, beside the plot in the breakdown.
    m_capacityLabel->setVisible(capacity && !timeline);
    m_capacityEntry->setVisible(capacity && timeline);
    m_capacityEntry->setName(tr("GPU capacity %1").arg(formatSize(e.capacityBytes, m_unit)));
    m_capacityEntry->setPen(QPen(colors.ink, 1.5, Qt::DashLine));
    if (capacity && timeline)
        m_capacityEntry->addToLegend();
    m_capacityLine->point1->setCoords(0, capacityValue);
    m_capacityLine->point2->setCoords(1, capacityValue);
    m_capacityLine->setPen(QPen(colors.ink, 1.5, Qt::DashLine));
    m_capacityLabel->position->setCoords(0.01, capacityValue);
    m_capacityLabel->setText(tr("GPU capacity %1").arg(formatSize(e.capacityBytes, m_unit)));
    m_capacityLabel->setColor(colors.ink);
    m_capacityLabel->setBrush(colors.labelBrush(200));

    m_plot->xAxis->setRange(0.4, double(m_columns.size()) + 0.6);
    // Room above the tallest bar for its label.
    setSizeAxis(m_plot->yAxis, std::max(top, 1e-9) * 1.15, m_unit, memoryPerGpuLabel());
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

QString RlPhaseChart::toolTipAt(const QPointF &position) const
{
    const RlPlan &plan = shown().rl;
    if (!plan.present || m_columns.empty())
        return {};
    const double key = m_plot->xAxis->pixelToCoord(position.x());
    const int index = int(std::lround(key)) - 1;
    const double width = m_style == Style::Breakdown ? breakdownWidth : timelineWidth;
    if (index < 0 || index >= columnCount() || std::abs(key - double(index + 1)) > width / 2)
        return {};
    const RlPhaseKind kind = m_columns[size_t(index)].phase;
    const RlPhase &phase = plan.phase(kind);
    const double value = m_plot->yAxis->pixelToCoord(position.y());
    double below = 0;
    for (int c = 0; c < componentCount && phase.present; ++c) {
        const double v = toUnit(sanitized(phase.byComponent[size_t(c)]), m_unit);
        if (v > 0 && value >= below && value < below + v)
            return rlPhaseToolTip(plan, kind, m_unit, c);
        below += v;
    }
    return rlPhaseToolTip(plan, kind, m_unit);
}

void RlPhaseChart::showToolTip(QMouseEvent *event)
{
    showPlotToolTip(m_plot, event, toolTipAt(event->position()), m_shownTip);
}

void RlPhaseChart::applyColors()
{
    applyChartColors(m_plot, chartColors(palette()));
    m_title->setTextColor(chartColors(palette()).text);
}

void RlPhaseChart::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        applyColors();
        draw();
    } else if (event->type() == QEvent::FontChange) {
        applyBaseFonts(m_plot, font());
        draw();
    }
}

} // namespace vramplan::ui
