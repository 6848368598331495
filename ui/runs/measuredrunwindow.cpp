#include "runs/measuredrunwindow.h"

#include "document/scenarioname.h"
#include "formats/estimate_json.h"
#include "mainwindow.h"
#include "plancontroller.h"
#include "runs/run_report.h"
#include "runs/runcomparison.h"
#include "runs/runtimelinechart.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

namespace vramplan::ui {

MeasuredRunWindow::MeasuredRunWindow(MainWindow *window)
    : QWidget(window, Qt::Window), m_window(window), m_files(new QLabel),
      m_against(new QLabel), m_table(new QTableWidget(0, ColumnCount)),
      m_chart(new RunTimelineChart), m_calibrateNote(new QLabel),
      m_calibrate(new QPushButton(tr("&Calibrate from This Run")))
{
    setObjectName(QStringLiteral("measuredRunWindow"));
    for (QLabel *label : {m_files, m_against, m_calibrateNote}) {
        label->setWordWrap(true);
        label->setTextFormat(Qt::PlainText);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    }
    m_table->setObjectName(QStringLiteral("measuredRunTable"));
    m_table->setHorizontalHeaderLabels(
        {tr("What"), tr("Measured"), tr("Planned"), tr("Difference"), tr("From (rule or file)")});
    m_table->verticalHeader()->setVisible(false);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setWordWrap(false);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(FromColumn, QHeaderView::Stretch);
    m_calibrate->setObjectName(QStringLiteral("calibrateFromRun"));
    m_calibrate->setToolTip(tr("Fit the scenario's overhead terms (and, where they cannot "
                               "explain the difference, its activations) to the measured peak, "
                               "as Edit > Calibrate from My Run does; Ctrl+Z undoes it"));

    auto *split = new QSplitter(Qt::Vertical);
    split->addWidget(m_table);
    split->addWidget(m_chart);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    auto *bottom = new QHBoxLayout;
    bottom->addWidget(m_calibrateNote, 1);
    bottom->addWidget(m_calibrate);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_files);
    layout->addWidget(m_against);
    layout->addWidget(split, 1);
    layout->addLayout(bottom);

    connect(m_calibrate, &QPushButton::clicked, this, [this] {
        if (const auto m = calibrationMeasurement())
            emit calibrateRequested(m->metric, m->bytes);
    });
    // Hidden, an update does nothing: showEvent compares again.
    connect(window->controller(), &PlanController::updated, this, [this] {
        if (isVisible())
            refresh();
    });
    connect(window, &MainWindow::unitChanged, this, [this] {
        if (isVisible())
            refresh();
    });
    resize(980, 760);
}

void MeasuredRunWindow::setRun(const MeasuredRun &run)
{
    m_run = run;
    QStringList names;
    for (const QString &path : run.paths)
        names << QFileInfo(path).fileName();
    setWindowTitle(tr("Measured Run: %1").arg(names.join(QStringLiteral(", "))));
    refresh();
}

void MeasuredRunWindow::refresh()
{
    const Unit unit = m_window->unit();
    const Estimate &planned = m_window->controller()->estimate();
    const nlohmann::json plan = estimateToJson(planned, m_window->scenario());
    m_report = runReportJson(m_run.sources, m_run.device, &plan);

    m_files->setText(tr("Files (device %1): %2").arg(m_run.device).arg(runSourcesText(m_report)));
    m_against->setText(tr("Against the plan: %1").arg(shownName(m_window->scenario())));
    const std::vector<RunComparisonRow> rows = runComparisonRows(m_report, unit);
    m_table->setRowCount(int(rows.size()));
    for (int r = 0; r < int(rows.size()); ++r) {
        const RunComparisonRow &row = rows[size_t(r)];
        const QString cells[ColumnCount] = {row.what, row.measured, row.planned, row.difference,
                                            row.from};
        for (int c = 0; c < ColumnCount; ++c) {
            auto *item = m_table->item(r, c);
            if (!item) {
                item = new QTableWidgetItem;
                m_table->setItem(r, c, item);
            }
            item->setText(cells[c]);
            item->setData(Qt::UserRole, row.key);
            item->setToolTip(c == FromColumn && !row.from.isEmpty()
                                 ? row.from + (row.tooltip.isEmpty() ? QString()
                                                                     : QStringLiteral("\n") +
                                                                           row.tooltip)
                                 : row.tooltip);
            if (c != WhatColumn && c != FromColumn)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        }
    }
    m_chart->setRun(m_report, planned, unit);

    const auto m = calibrationMeasurement();
    m_calibrate->setEnabled(m.has_value());
    if (!m) {
        m_calibrateNote->setText(tr("These files give no peak to calibrate to."));
    } else {
        const QString size = formatSize(m->bytes, unit);
        m_calibrateNote->setText(
            m->metric == MemoryMetric::Reserved
                ? tr("Calibrating fits the scenario to the measured reserved peak, %1.").arg(size)
            : m->metric == MemoryMetric::Device
                ? tr("Calibrating fits the scenario to the measured device peak, %1.").arg(size)
                : tr("Calibrating fits the scenario to the measured allocated peak, %1.")
                      .arg(size));
    }
}

std::optional<MeasuredRunWindow::Measurement> MeasuredRunWindow::calibrationMeasurement() const
{
    const nlohmann::json peak = m_report.value("peak", nlohmann::json::object());
    const std::pair<MemoryMetric, const char *> order[] = {
        {MemoryMetric::Reserved, "reserved_bytes"},
        {MemoryMetric::Device, "device_bytes"},
        {MemoryMetric::Allocated, "allocated_bytes"}};
    for (const auto &[metric, key] : order)
        if (peak.contains(key) && peak[key].is_number() && peak[key].get<double>() > 0)
            return Measurement{metric, peak[key].get<double>()};
    return std::nullopt;
}

int MeasuredRunWindow::rowOf(const QString &key) const
{
    for (int r = 0; r < m_table->rowCount(); ++r)
        if (m_table->item(r, WhatColumn) &&
            m_table->item(r, WhatColumn)->data(Qt::UserRole).toString() == key)
            return r;
    return -1;
}

QString MeasuredRunWindow::cellText(const QString &key, int column) const
{
    const int r = rowOf(key);
    return r < 0 || !m_table->item(r, column) ? QString() : m_table->item(r, column)->text();
}

QString MeasuredRunWindow::cellToolTip(const QString &key, int column) const
{
    const int r = rowOf(key);
    return r < 0 || !m_table->item(r, column) ? QString() : m_table->item(r, column)->toolTip();
}

void MeasuredRunWindow::showEvent(QShowEvent *event)
{
    refresh();
    QWidget::showEvent(event);
}

} // namespace vramplan::ui
