#pragma once
// The stacked areas of a curve chart and the bands drawn over them (the likely range, the
// expert-imbalance band) as QCustomPlot graphs: one set per run of valid samples, so that an
// invalid sample leaves a gap, plus one set that only speaks for the legend. Values above the
// top of the value axis are cut there in the data itself, exactly where each line crosses it:
// on screen QCustomPlot clips to the axis rect, but SVG exports (QSvgGenerator) do not clip.

#include "estimate.h"

#include <QVector>

#include <array>
#include <cstddef>
#include <vector>

class QCPGraph;
class QCPGraphData;
class QCustomPlot;

namespace vramplan::ui {

class CurveGraphs
{
public:
    // The graphs of one set: the top edge of each component's area (components 0..c stacked),
    // then the lower and upper edges of the likely range, then those of the imbalance band.
    static constexpr size_t bandLow = vramplan::componentCount;
    static constexpr size_t bandHigh = vramplan::componentCount + 1;
    static constexpr size_t balanced = vramplan::componentCount + 2;
    static constexpr size_t imbalanced = vramplan::componentCount + 3;
    static constexpr size_t graphCount = vramplan::componentCount + 4;

    // One run of valid samples: x ascending, and for each graph its value at every x, or no
    // values at all when that graph is not drawn (the likely range of a single sample, say).
    struct Run
    {
        std::vector<double> x;
        std::array<std::vector<double>, graphCount> values;
    };

    explicit CurveGraphs(QCustomPlot *plot);

    // Draws the runs, cut at `ceiling` (the top of the value axis); `imbalanceName` is the
    // legend's entry for the imbalance band, listed when some run draws it.
    void set(const std::vector<Run> &runs, double ceiling, bool logX, const QString &imbalanceName);
    // The legend's icons follow the font.
    void applyFonts();

private:
    using Set = std::array<QCPGraph *, graphCount>;
    Set &set(size_t index);

    QCustomPlot *m_plot;
    std::vector<Set> m_sets; // set 0: the legend's entries, never holding data
};

// The points of a line through (x, y), cut at `ceiling`: where the line crosses it a point on
// it, and every point above it lowered onto it. On a log x axis the crossing is found in log x,
// where the line is straight on screen.
QVector<QCPGraphData> cutAtCeiling(const std::vector<double> &x, const std::vector<double> &y,
                                   double ceiling, bool logX);

} // namespace vramplan::ui
