#include "chartspage.h"

#include "charts/breakdownchart.h"
#include "charts/curvechart.h"
#include "charts/timelinechart.h"
#include "panels/fitadvisorpanel.h"
#include "rl/rlphasechart.h"

#include <QGridLayout>
#include <QMetaObject>
#include <QResizeEvent>
#include <QTabWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <tuple>

namespace vramplan::ui {
namespace {

// Below this the charts side by side would leave none of them room for its labels.
constexpr QSize roomForAll(640, 460);

} // namespace

ChartsPage::ChartsPage(BreakdownChart *breakdown, FitAdvisorPanel *fit, CurveChart *batch,
                       CurveChart *sequence, CurveChart *gpus, TimelineChart *timeline,
                       QWidget *parent)
    : QWidget(parent), m_grid(new QGridLayout(this)), m_tabs(new QTabWidget), m_left(new QWidget),
      m_leftLayout(new QVBoxLayout(m_left)), m_breakdown(breakdown), m_fit(fit),
      m_timeline(timeline), m_rlPhases(new RlPhaseChart(RlPhaseChart::Style::Breakdown, this)),
      m_rlTimeline(new RlPhaseChart(RlPhaseChart::Style::Timeline, this))
{
    m_rlPhases->hide();
    m_rlTimeline->hide();
    m_tabs->addTab(batch, tr("Micro-batch"));
    m_tabs->addTab(sequence, tr("Sequence length"));
    m_tabs->addTab(gpus, tr("GPU count"));
    m_tabs->setUsesScrollButtons(true);
    // The panel as tall as the timeline beside it; collapsed, the breakdown takes its room.
    m_leftLayout->setContentsMargins(0, 0, 0, 0);
    m_grid->setContentsMargins(4, 4, 4, 4);
    m_grid->setColumnStretch(0, 2);
    m_grid->setColumnStretch(1, 3);
    m_grid->setRowStretch(0, 3);
    m_grid->setRowStretch(1, 2);
    arrange(false);
    connect(m_breakdown, &BreakdownChart::wantedHeightChanged, this, &ChartsPage::share);
    // A suggestion hovered in "Make it fit" previews on the RL phases too.
    connect(m_fit, &FitAdvisorPanel::previewRequested, m_rlPhases, &RlPhaseChart::setPreview);
    connect(m_fit, &FitAdvisorPanel::previewCleared, m_rlPhases, &RlPhaseChart::clearPreview);
}

void ChartsPage::setEstimate(const Estimate &estimate, Unit unit)
{
    const bool rl = estimate.rl.present;
    if (rl) {
        m_rlPhases->setEstimate(estimate, unit);
        m_rlTimeline->setEstimate(estimate, unit);
    }
    if (rl != m_rl) {
        m_rl = rl;
        swapCharts();
    }
}

void ChartsPage::swapCharts()
{
    // Only the two charts change places: the "Make it fit" panel stays where it is, so that a
    // chip under the pointer sees no leave and enter (which would preview it on the breakdown).
    QWidget *oldBreakdown = m_rl ? static_cast<QWidget *>(m_breakdown) : m_rlPhases;
    QWidget *oldTimeline = m_rl ? static_cast<QWidget *>(m_timeline) : m_rlTimeline;
    if (m_tabbed) {
        for (const auto &[from, to, name] :
             {std::tuple{oldBreakdown, breakdown(), tr("Breakdown")},
              std::tuple{oldTimeline, timeline(), tr("Step timeline")}}) {
            const int index = m_tabs->indexOf(from);
            const bool current = m_tabs->currentWidget() == from;
            m_tabs->removeTab(index);
            m_tabs->insertTab(index, to, name);
            if (current)
                m_tabs->setCurrentWidget(to);
        }
    } else {
        const int index = m_leftLayout->indexOf(oldBreakdown);
        const int stretch = m_leftLayout->stretch(index);
        m_leftLayout->removeWidget(oldBreakdown);
        m_leftLayout->insertWidget(index, breakdown(), stretch);
        m_grid->removeWidget(oldTimeline);
        m_grid->addWidget(timeline(), 1, 1);
        breakdown()->show();
        timeline()->show();
    }
    oldBreakdown->hide();
    oldTimeline->hide();
    share();
}

QWidget *ChartsPage::breakdown() const
{
    return m_rl ? static_cast<QWidget *>(m_rlPhases) : m_breakdown;
}

QWidget *ChartsPage::timeline() const
{
    return m_rl ? static_cast<QWidget *>(m_rlTimeline) : m_timeline;
}

void ChartsPage::share()
{
    // Three fifths of the column for the breakdown, two for the panel; more for the breakdown
    // where the text around its plot (taller in a Chinese font) would leave the plot no room
    // for its labels, as long as the panel keeps a quarter.
    const QMargins margins = m_grid->contentsMargins();
    const int column = height() - margins.top() - margins.bottom();
    const int wanted = m_rl ? 0 : m_breakdown->wantedHeight(); // the RL phases ask for no more
    int breakdown = 3, panel = 2;
    if (!m_tabbed && column > 0 && wanted * 5 > column * 3) {
        breakdown = std::min(wanted, column - column / 4);
        panel = column - breakdown;
    }
    if (m_leftLayout->stretch(0) != breakdown || m_leftLayout->stretch(1) != panel) {
        m_leftLayout->setStretch(0, breakdown);
        m_leftLayout->setStretch(1, panel);
    }
}

void ChartsPage::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    const QSize size = event->size();
    const bool tabbed = size.width() < roomForAll.width() || size.height() < roomForAll.height();
    if (tabbed != m_tabbed)
        arrange(tabbed);
    share();
}

void ChartsPage::arrange(bool tabbed)
{
    m_tabbed = tabbed;
    if (tabbed) {
        m_leftLayout->removeWidget(breakdown());
        m_leftLayout->removeWidget(m_fit);
        m_grid->removeWidget(m_left);
        m_grid->removeWidget(timeline());
        m_grid->removeWidget(m_tabs);
        m_left->hide();
        m_fit->setCollapsible(false);
        m_tabs->insertTab(0, breakdown(), tr("Breakdown"));
        m_tabs->insertTab(1, m_fit, tr("Make it fit"));
        m_tabs->addTab(timeline(), tr("Step timeline"));
        m_tabs->setCurrentWidget(breakdown());
        m_grid->addWidget(m_tabs, 0, 0, 2, 2);
    } else {
        for (QWidget *w : {breakdown(), static_cast<QWidget *>(m_fit), timeline()})
            if (const int index = m_tabs->indexOf(w); index >= 0)
                m_tabs->removeTab(index);
        m_grid->removeWidget(m_tabs);
        m_leftLayout->addWidget(breakdown(), 3);
        m_leftLayout->addWidget(m_fit, 2);
        m_fit->setCollapsible(true);
        m_grid->addWidget(m_left, 0, 0, 2, 1);
        m_grid->addWidget(m_tabs, 0, 1);
        m_grid->addWidget(timeline(), 1, 1);
        m_left->show();
        breakdown()->show();
        m_fit->show();
        timeline()->show();
    }
}

} // namespace vramplan::ui
