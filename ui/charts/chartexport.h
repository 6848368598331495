#pragma once
// Writes a chart to PNG, SVG or PDF (by the file's extension) with a title and a scenario
// summary above it (wrapped, never cut), through QSaveFile so a failed export leaves no
// half-written file.

#include <QSize>
#include <QString>

class QCustomPlot;

namespace vramplan::ui {

// "" on success, else why not ("plan.gif: unknown export format: png, svg or pdf for a chart;
// csv, json or md for a table").
QString exportPlot(QCustomPlot *plot, const QString &path, const QString &title,
                   const QString &summary, QSize size = QSize(1000, 600));

// The message for a file whose extension no export knows.
QString unknownExportFormat(const QString &path);

} // namespace vramplan::ui
