#pragma once
// Writes a chart to PNG, SVG or PDF (by the file's extension) with a title and a one-line
// scenario summary above it, through QSaveFile so a failed export leaves no half-written file.

#include <QSize>
#include <QString>

class QCustomPlot;

namespace vramplan::ui {

// "" on success, else why not ("plan.gif: unknown chart format (png, svg or pdf)").
QString exportPlot(QCustomPlot *plot, const QString &path, const QString &title,
                   const QString &summary, QSize size = QSize(1000, 600));

} // namespace vramplan::ui
