#include "document/exportactions.h"

#include "formats/breakdown_table.h"
#include "charts/breakdownchart.h"
#include "charts/chartexport.h"
#include "charts/curvechart.h"
#include "charts/servingcurvechart.h"
#include "charts/timelinechart.h"
#include "document/dialogs.h"
#include "document/document.h"
#include "document/scenarioname.h"
#include "document/scenariofile.h"
#include "document/servingnames.h"
#include "formats/estimate_json.h"
#include "panels/comparisonview.h"
#include "plancontroller.h"
#include "servingcharts.h"

#include <QApplication>
#include <QClipboard>
#include <QFileInfo>
#include <QMainWindow>
#include <QMenu>
#include <QStatusBar>
#include <qcustomplot.h>

namespace vramplan::ui {

ExportActions::ExportActions(Document *document, Charts charts, QMainWindow *window)
    : QObject(window), m_document(document), m_charts(std::move(charts)), m_window(window)
{
}

void ExportActions::addTo(QMenu *file)
{
    QMenu *exports = file->addMenu(tr("&Export"));
    const std::pair<QString, QString> charts[] = {
        {QStringLiteral("breakdown"), tr("Breakdown chart...")},
        {QStringLiteral("batch"), tr("Micro-batch curve...")},
        {QStringLiteral("sequence"), tr("Sequence curve...")},
        {QStringLiteral("gpus"), tr("GPU-count curve...")},
        {QStringLiteral("concurrency"), tr("Concurrency curve...")},
        {QStringLiteral("kv-tokens"), tr("KV-token curve...")},
        {QStringLiteral("tensor-parallel"), tr("Tensor-parallel curve...")},
        {QStringLiteral("timeline"), tr("Step timeline...")},
        {QStringLiteral("comparison"), tr("Comparison chart...")}};
    QList<QAction *> comparisonExports, trainingCurves, servingCurves;
    for (const auto &[chart, label] : charts) {
        QAction *action = exports->addAction(label, this, [this, chart = chart] {
            askAndExport(
                tr("Export chart"), chart + QStringLiteral(".png"),
                tr("PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)"),
                [this, chart](const QString &path) { return exportChart(chart, path); },
                chart == QLatin1String("comparison"));
        });
        if (chart == QLatin1String("comparison"))
            comparisonExports << action;
        if (chart == QLatin1String("batch") || chart == QLatin1String("sequence") ||
            chart == QLatin1String("gpus"))
            trainingCurves << action;
        if (chart == QLatin1String("concurrency") || chart == QLatin1String("kv-tokens") ||
            chart == QLatin1String("tensor-parallel"))
            servingCurves << action;
    }
    const QString tables = tr("CSV (*.csv);;JSON (*.json);;Markdown (*.md)");
    exports->addAction(tr("Breakdown table..."), this, [this, tables] {
        askAndExport(tr("Export table"), QStringLiteral("breakdown.csv"), tables,
                     [this](const QString &path) { return exportTable(path); });
    });
    comparisonExports << exports->addAction(tr("Comparison table..."), this, [this, tables] {
        askAndExport(
            tr("Export comparison table"), QStringLiteral("comparison.csv"), tables,
            [this](const QString &path) { return exportComparisonTable(path); }, true);
    });
    // An empty comparison exports a blank chart and a table of headings: nothing to offer. The
    // actions have no keys, so the menu opening is the moment their state is seen.
    // The curves offered are the ones the Plan page shows: a server's in place of the training
    // sweeps, which come out wrong for it (issue 21 #7).
    connect(exports, &QMenu::aboutToShow, this,
            [this, comparisonExports, trainingCurves, servingCurves] {
                for (QAction *action : comparisonExports)
                    action->setEnabled(emptyComparison().isEmpty());
                for (QAction *action : trainingCurves)
                    action->setVisible(!servingShown());
                for (QAction *action : servingCurves)
                    action->setVisible(servingShown());
            });
    file->addAction(tr("&Copy Table"), QKeySequence::Copy, this, [this] {
        QApplication::clipboard()->setText(QString::fromStdString(breakdownTable(
            m_document->controller()->estimate(), m_document->scenario(), TableFormat::Markdown)));
        m_window->statusBar()->showMessage(tr("Breakdown table copied as Markdown"), 4000);
    });
    file->addAction(tr("Copy C&hart"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C), this,
                    [this] {
                        QCustomPlot *plot = m_charts.comparisonShown() ? m_charts.comparison->plot()
                                                                       : m_charts.breakdown->plot();
                        QApplication::clipboard()->setPixmap(
                            plot->toPixmap(plot->width(), plot->height(), 2.0));
                        m_window->statusBar()->showMessage(tr("Chart copied as an image"), 4000);
                    });
}

void ExportActions::askAndExport(const QString &title, const QString &suggested,
                                 const QString &filter,
                                 const std::function<QString(const QString &)> &write,
                                 bool ofComparison)
{
    // Refused before a file is asked for, not after.
    if (const QString why = ofComparison ? emptyComparison() : QString(); !why.isEmpty()) {
        Dialogs::problem(m_window, tr("Cannot export"), why);
        return;
    }
    const QString path = Dialogs::saveFileName(m_window, title, suggested, filter);
    if (path.isEmpty())
        return;
    if (const QString problem = write(path); !problem.isEmpty())
        Dialogs::problem(m_window, tr("Cannot export"), problem);
}

QString ExportActions::exportChart(const QString &chart, const QString &path)
{
    struct Chart
    {
        const char *name;
        QCustomPlot *plot;
        QString title;
    };
    const Chart charts[] = {
        {"breakdown", m_charts.breakdown->plot(), tr("Memory per GPU")},
        {"batch", m_charts.batch->plot(), tr("Memory vs micro-batch")},
        {"sequence", m_charts.sequence->plot(), tr("Memory vs sequence length")},
        {"gpus", m_charts.gpus->plot(), tr("Memory vs GPU count")},
        {"timeline", m_charts.timeline->plot(), tr("Memory through one training step")},
        {"comparison", m_charts.comparison->plot(), tr("Scenarios compared: memory per GPU")}};
    const bool servingChart = chart == QLatin1String("concurrency") ||
                              chart == QLatin1String("kv-tokens") ||
                              chart == QLatin1String("tensor-parallel");
    const bool trainingSweep = chart == QLatin1String("batch") ||
                               chart == QLatin1String("sequence") || chart == QLatin1String("gpus");
    if (servingChart || (trainingSweep && servingShown()))
        return exportServingChart(chart, path);
    const auto found = std::find_if(std::begin(charts), std::end(charts),
                                    [&](const Chart &c) { return chart == QLatin1String(c.name); });
    if (found == std::end(charts))
        return tr("%1: unknown chart (breakdown, batch, sequence, gpus, timeline or comparison; "
                  "for a server concurrency, kv-tokens or tensor-parallel)")
            .arg(chart);
    if (chart == QLatin1String("comparison")) {
        if (const QString why = emptyComparison(); !why.isEmpty())
            return why;
        QStringList labels;
        for (const auto &e : m_charts.comparison->comparison().entries)
            labels << QString::fromStdString(e.label);
        return exportPlot(found->plot, path, found->title, labels.join(QStringLiteral(" | ")),
                          QSize(1000, 600));
    }
    const Scenario &scenario = m_document->scenario();
    const QString name = scenario.name.empty() ? QString() : shownName(scenario);
    return exportPlot(
        found->plot, path,
        name.isEmpty()
            ? found->title
            : tr("%1: %2", "a chart's title: the scenario, the chart").arg(name, found->title),
        scenario.serving.present && scenario.training.mode == Mode::Inference
            ? servingSummary(m_document->controller()->estimate(), scenario, Unit::GiB)
            : QString::fromStdString(
                  scenarioSummary(m_document->controller()->estimate(), m_document->scenario())),
        chart == QLatin1String("breakdown") ? QSize(640, 700) : QSize(1000, 600));
}

bool ExportActions::servingShown() const
{
    return m_serving && m_serving->shown();
}

QString ExportActions::exportServingChart(const QString &chart, const QString &path)
{
    if (!servingShown())
        return tr("%1: the scenario has no inference server (choose an engine in inference mode); "
                  "its curves are batch, sequence and gpus")
            .arg(chart);
    ServingCurveChart *found = chart == QLatin1String("concurrency") ? m_serving->contextChart()
                               : chart == QLatin1String("kv-tokens")
                                   ? m_serving->utilizationChart()
                               : chart == QLatin1String("tensor-parallel")
                                   ? m_serving->tensorParallelChart()
                                   : nullptr;
    if (!found)
        return tr("%1: an inference server has no such curve; its curves are concurrency, "
                  "kv-tokens and tensor-parallel")
            .arg(chart);
    const Scenario &scenario = m_document->scenario();
    const QString name = scenario.name.empty() ? QString() : shownName(scenario);
    const QString title = found->title();
    return exportPlot(
        found->plot(), path,
        name.isEmpty() ? title
                       : tr("%1: %2", "a chart's title: the scenario, the chart").arg(name, title),
        servingSummary(m_document->controller()->estimate(), scenario, Unit::GiB),
        QSize(1000, 600));
}

QString ExportActions::exportTable(const QString &path)
{
    const auto format = tableFormatFromExtension(QFileInfo(path).suffix().toLower().toStdString());
    if (!format)
        return unknownExportFormat(path);
    return writeTextFile(
        path, QByteArray::fromStdString(breakdownTable(m_document->controller()->estimate(),
                                                       m_document->scenario(), *format)));
}

QString ExportActions::exportComparisonTable(const QString &path)
{
    const auto format = tableFormatFromExtension(QFileInfo(path).suffix().toLower().toStdString());
    if (!format)
        return unknownExportFormat(path);
    if (const QString why = emptyComparison(); !why.isEmpty())
        return why;
    return writeTextFile(path, QByteArray::fromStdString(
                                   comparisonTable(m_charts.comparison->comparison(), *format)));
}

QString ExportActions::emptyComparison() const
{
    if (m_charts.comparison->count() > 0)
        return {};
    return tr("The comparison is empty: add scenarios first (Compare > Add Current Scenario).");
}

} // namespace vramplan::ui
