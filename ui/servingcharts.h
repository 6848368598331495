#pragma once
// The curves page of an inference server: with an engine chosen, the Plan page's curve tabs show
// what the server's settings buy (concurrency against max_model_len, KV-cache tokens against
// gpu_memory_utilization, concurrency against tensor parallelism) in place of the training
// sweeps, which a server's fixed budget makes flat; without one, the training sweeps again.

#include "charts/servingcurves.h"

#include <QObject>

#include <vector>

class QTabWidget;
class QWidget;

namespace vramplan::ui {

class ServingCurveChart;

class ServingCharts : public QObject
{
    Q_OBJECT

public:
    // Adds its charts to `tabs`; `trainingCurves` are the tabs they stand in for.
    ServingCharts(QTabWidget *tabs, std::vector<QWidget *> trainingCurves,
                  QObject *parent = nullptr);

    void setCurves(const ServingCurves &curves);
    bool shown() const { return m_shown; }

    ServingCurveChart *contextChart() const { return m_context; }
    ServingCurveChart *utilizationChart() const { return m_utilization; }
    ServingCurveChart *tensorParallelChart() const { return m_tensorParallel; }

private:
    void showTabs(bool serving);

    QTabWidget *m_tabs;
    std::vector<QWidget *> m_training;
    ServingCurveChart *m_context, *m_utilization, *m_tensorParallel;
    bool m_shown = true; // so that the first setCurves hides them
};

} // namespace vramplan::ui
