#pragma once
// The measured run through time over the planned step: allocated and reserved as the run's
// trace replays them (core/runs/snapshot_replay.h), drawn from min/max buckets of one pixel
// each; beneath them the plan's allocated memory phase by phase (the estimated timeline's bars,
// as a step line: the phases spread evenly over the measured span, since the plan has no clock)
// and its reserved peak. Styled as the estimated timeline (charts/chartstyle.h, sizeaxis.h).

#include "charts/units.h"
#include "estimate.h"

#include <nlohmann/json.hpp>

#include <QList>
#include <QPointF>
#include <QWidget>

class QCPAxisTickerText;
class QCPGraph;
class QCPItemStraightLine;
class QCPTextElement;
class QCustomPlot;

namespace vramplan::ui {

class RunTimelineChart : public QWidget
{
    Q_OBJECT

public:
    explicit RunTimelineChart(QWidget *parent = nullptr);

    // `report`: runReportJson's; `planned`: the estimate it was compared with.
    void setRun(const nlohmann::json &report, const vramplan::Estimate &planned, Unit unit);

    // What is drawn (for tests), values in the unit of the last setRun.
    qsizetype measuredPoints() const { return m_allocatedPoints.size(); } // before buckets
    qsizetype drawnPoints() const; // of the allocated line, after buckets
    double measuredTop() const;    // the highest reserved (or allocated) point drawn
    QList<double> plannedSteps() const { return m_plannedSteps; } // one per phase, in order
    QString timeAxisLabel() const;
    QCustomPlot *plot() const { return m_plot; }

protected:
    void resizeEvent(QResizeEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void drawBuckets();
    void applyColors();

    QCustomPlot *m_plot;
    QCPTextElement *m_title;
    QSharedPointer<QCPAxisTickerText> m_phaseTicker;
    QCPGraph *m_allocated, *m_reserved, *m_planned;
    QCPItemStraightLine *m_plannedReserved;
    QCPGraph *m_plannedReservedEntry; // its legend entry (no data)
    QList<QPointF> m_allocatedPoints, m_reservedPoints; // in the unit, time in the axis's unit
    QList<double> m_plannedSteps;
    int m_buckets = 0; // of the last drawing
};

} // namespace vramplan::ui
