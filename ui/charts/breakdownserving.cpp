// BreakdownChart, continued: what an inference server adds to the bar (docs/serving.md). The
// engine's budget, gpu_memory_utilization x the memory CUDA reports (SGLang: mem_fraction_static
// x the free memory at start; core serving/serving_plan.cpp), is a line of its own below the
// capacity: the KV cache is what the rest leaves of it. And an engine that would not start is a
// failure whatever the headroom: the gap is drawn as an overflow is, and says so (issue 21 #5).

#include "charts/breakdownchart.h"

#include "charts/chartstyle.h"
#include "charts/componentstyle.h"

#include <qcustomplot.h>

#include <cmath>
#include <limits>

namespace vramplan::ui {

void BreakdownChart::addServingItems()
{
    m_budgetLine = new QCPItemStraightLine(m_plot);
    m_budgetLabel = new QCPItemText(m_plot);
    m_budgetLabel->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
    // Finite coordinates first (setType converts through an axis rect that has no size yet).
    m_budgetLabel->position->setCoords(0, 0);
    m_budgetLabel->setPadding(QMargins(2, 1, 2, 1));
    m_budgetLine->setVisible(false);
    m_budgetLabel->setVisible(false);
}

void BreakdownChart::drawServing(const Estimate &e)
{
    const ServingPlan &p = e.serving;
    m_refused = p.present && p.status != ServingStatus::Ok;
    const ChartColors colors = chartColors(palette());
    if (m_refused) {
        // The engine's own message is long (the status line and the Serving group carry it);
        // the chart says what it means.
        m_gapText = tr("engine would not start");
        m_gapLine->setPen(QPen(colors.signal(overflowColor()), 1.5));
        m_gapLabel->setColor(colors.signal(overflowColor()));
    }
    // transformers generate has no budget: it fits or runs out of memory.
    const bool budget = p.present && p.settings.engine != ServingEngine::Transformers &&
                        std::isfinite(p.budgetBytes) && p.budgetBytes > 0;
    m_budget = budget ? toUnit(p.budgetBytes, m_unit) : std::numeric_limits<double>::quiet_NaN();
    m_budgetLine->setVisible(budget);
    m_budgetLabel->setVisible(budget);
    if (!budget)
        return;
    m_budgetLine->point1->setCoords(0, m_budget);
    m_budgetLine->point2->setCoords(1, m_budget);
    m_budgetLine->setPen(QPen(colors.muted, 1.2, Qt::DotLine));
    m_budgetLabel->setColor(colors.muted);
    m_budgetLabel->setFont(font());
    const QString setting = p.settings.engine == ServingEngine::Sglang
                                ? QStringLiteral("mem_fraction_static")
                                : QStringLiteral("gpu_memory_utilization");
    m_budgetLabel->setText(tr("budget (%1 %2): %3")
                               .arg(setting, QString::number(p.settings.utilization, 'f', 2),
                                    formatSize(p.budgetBytes, m_unit)));
    m_budgetLabel->position->setCoords(0.99, m_budget);
    m_budgetLabel->setPositionAlignment(Qt::AlignRight | Qt::AlignTop);
}

void BreakdownChart::placeBudgetLabel()
{
    // Below its line at the right, as the capacity's label stands above its own; above the line
    // where the gap's label or the capacity's (under an overflow) would be struck there.
    if (!m_budgetLabel->visible())
        return;
    m_budgetLabel->setPositionAlignment(Qt::AlignRight | Qt::AlignTop);
    const auto rect = [](const QCPItemText *t) {
        return QRectF(t->topLeft->pixelPosition(), t->bottomRight->pixelPosition()).normalized();
    };
    const QRectF below = rect(m_budgetLabel);
    const bool struck = (m_gapLabel->visible() && below.intersects(rect(m_gapLabel))) ||
                        (m_capacityLabel->visible() && below.intersects(rect(m_capacityLabel)));
    if (struck)
        m_budgetLabel->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
}

double BreakdownChart::budgetValue() const
{
    return m_budget;
}

QString BreakdownChart::budgetText() const
{
    return m_budgetLabel->visible() ? m_budgetLabel->text() : QString();
}

} // namespace vramplan::ui
