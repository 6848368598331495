#pragma once
// Charts and tables out of the window: File > Export (every chart as PNG, SVG or PDF, the
// breakdown and the comparison as CSV, JSON or Markdown), Copy Table and Copy Chart. An export
// is drawn at its own size, whatever the size of the chart on screen (or of a window never
// shown, `vramplan --export`).

#include <QObject>
#include <QString>

#include <functional>

class QCustomPlot;
class QMainWindow;
class QMenu;

namespace vramplan::ui {

class BreakdownChart;
class ComparisonView;
class CurveChart;
class Document;
class ServingCharts;
class TimelineChart;

class ExportActions : public QObject
{
    Q_OBJECT

public:
    struct Charts
    {
        BreakdownChart *breakdown;
        CurveChart *batch, *sequence, *gpus;
        TimelineChart *timeline;
        ComparisonView *comparison;
        std::function<bool()> comparisonShown; // Copy Chart copies the page in view
    };

    ExportActions(Document *document, Charts charts, QMainWindow *window);

    // An inference server's curves (concurrency, kv-tokens, tensor-parallel): exported, and
    // offered in File > Export in place of the training sweeps while they are shown.
    void setServingCharts(ServingCharts *serving) { m_serving = serving; }

    // File > Export (a submenu) and the two Copy actions.
    void addTo(QMenu *file);

    // A chart ("breakdown", "batch", "sequence", "gpus", "timeline", "comparison"; for a server
    // "concurrency", "kv-tokens", "tensor-parallel" in place of the three sweeps) to PNG, SVG or
    // PDF by the file's extension; "" or why not.
    QString exportChart(const QString &chart, const QString &path);
    // The breakdown table or the comparison's to CSV, JSON or Markdown; "" or why not.
    QString exportTable(const QString &path);
    QString exportComparisonTable(const QString &path);

private:
    // `ofComparison`: refused, with a message, while the comparison is empty.
    void askAndExport(const QString &title, const QString &suggested, const QString &filter,
                      const std::function<QString(const QString &)> &write,
                      bool ofComparison = false);
    // Why the comparison cannot be exported ("" when it can).
    QString emptyComparison() const;

    // A server's curve, or why not (the scenario has no server, or asks for a training sweep).
    QString exportServingChart(const QString &chart, const QString &path);
    bool servingShown() const;

    Document *m_document;
    Charts m_charts;
    ServingCharts *m_serving = nullptr;
    QMainWindow *m_window;
};

} // namespace vramplan::ui
