#include "servingcharts.h"

#include "charts/servingcurvechart.h"

#include <QTabWidget>

#include <algorithm>

namespace vramplan::ui {

ServingCharts::ServingCharts(QTabWidget *tabs, std::vector<QWidget *> trainingCurves,
                             QObject *parent)
    : QObject(parent), m_tabs(tabs), m_training(std::move(trainingCurves)),
      m_context(new ServingCurveChart), m_utilization(new ServingCurveChart),
      m_tensorParallel(new ServingCurveChart)
{
    m_tabs->addTab(m_context, tr("Concurrency"));
    m_tabs->addTab(m_utilization, tr("KV tokens"));
    m_tabs->addTab(m_tensorParallel, tr("Tensor parallel"));
    showTabs(false);
}

void ServingCharts::setCurves(const ServingCurves &curves)
{
    showTabs(curves.present);
    if (!curves.present)
        return;
    m_context->setCurve(curves.context);
    m_utilization->setCurve(curves.utilization);
    m_tensorParallel->setCurve(curves.tensorParallel);
}

void ServingCharts::showTabs(bool serving)
{
    if (serving == m_shown)
        return;
    m_shown = serving;
    // The page in view stays in view where it can; a hidden one gives way to the first of the
    // set now shown.
    const bool currentHidden = [&] {
        QWidget *current = m_tabs->currentWidget();
        const std::vector<QWidget *> hidden =
            serving ? m_training
                    : std::vector<QWidget *>{m_context, m_utilization, m_tensorParallel};
        return std::find(hidden.begin(), hidden.end(), current) != hidden.end();
    }();
    for (QWidget *w : m_training)
        m_tabs->setTabVisible(m_tabs->indexOf(w), !serving);
    for (QWidget *w : {static_cast<QWidget *>(m_context), static_cast<QWidget *>(m_utilization),
                       static_cast<QWidget *>(m_tensorParallel)})
        m_tabs->setTabVisible(m_tabs->indexOf(w), serving);
    if (currentHidden)
        m_tabs->setCurrentWidget(serving ? m_context : m_training.front());
}

} // namespace vramplan::ui
