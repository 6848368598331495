#pragma once
// "Measured Run" (File > Open Measured Run...): a run's files beside the plan, in a window of
// its own that follows the planner. A table of the measured peaks and components against the
// plan's, each difference in words and each component's rule; the measured timeline over the
// planned step; and "Calibrate from This Run", which fits the scenario to the measured peak.
// The files are read once (MeasuredRun); every change of the scenario or of the unit compares
// them again with the new estimate (runReportJson: cheap, no file is read).

#include "runs/measuredrun.h"
#include "scenario.h"

#include <nlohmann/json.hpp>

#include <QWidget>

#include <optional>

class QLabel;
class QPushButton;
class QTableWidget;

namespace vramplan::ui {

class MainWindow;
class RunTimelineChart;

class MeasuredRunWindow : public QWidget
{
    Q_OBJECT

public:
    enum Column
    {
        WhatColumn,
        MeasuredColumn,
        PlannedColumn,
        DifferenceColumn,
        FromColumn,
        ColumnCount
    };

    explicit MeasuredRunWindow(MainWindow *window);

    void setRun(const MeasuredRun &run);
    const MeasuredRun &run() const { return m_run; }
    // Compares the run with the planner's estimate of the moment, in the planner's unit.
    void refresh();

    // The measured peak that "Calibrate from This Run" fits the scenario to: reserved where the
    // files give it (what the allocator holds, the calibration's own default), else device,
    // else allocated; none when the files give no peak.
    struct Measurement
    {
        vramplan::MemoryMetric metric = vramplan::MemoryMetric::Reserved;
        double bytes = 0;
    };
    std::optional<Measurement> calibrationMeasurement() const;

    // What the table shows (for tests): the cell of the row with `key` ("peak.reserved",
    // "component.activations"; runcomparison.h), or a null string where there is no such row.
    QString cellText(const QString &key, int column) const;
    QString cellToolTip(const QString &key, int column) const;
    const nlohmann::json &report() const { return m_report; }
    QTableWidget *table() const { return m_table; }
    RunTimelineChart *chart() const { return m_chart; }
    QPushButton *calibrateButton() const { return m_calibrate; }

signals:
    void calibrateRequested(vramplan::MemoryMetric metric, double bytes);

protected:
    void showEvent(QShowEvent *event) override;

private:
    int rowOf(const QString &key) const;

    MainWindow *m_window;
    MeasuredRun m_run;
    nlohmann::json m_report;
    QLabel *m_files;
    QLabel *m_against;
    QTableWidget *m_table;
    RunTimelineChart *m_chart;
    QLabel *m_calibrateNote;
    QPushButton *m_calibrate;
};

} // namespace vramplan::ui
