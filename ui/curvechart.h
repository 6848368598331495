#pragma once
// Memory per GPU as one setting sweeps (micro-batch, sequence length, GPUs, ...): stacked areas
// by component against the GPU's capacity, with markers at the current value and at the largest
// value that still fits.

#include "componentstyle.h"
#include "estimate.h"

#include <QSharedPointer>
#include <QString>
#include <QWidget>

#include <array>
#include <vector>

class QCPAxisTicker;
class QCPAxisTickerText;
class QCPGraph;
class QCPItemStraightLine;
class QCPItemText;
class QCPTextElement;
class QCustomPlot;

namespace vramplan::ui {

struct CurveData
{
    QString title;         // "Memory vs micro-batch"
    QString xLabel;        // "Micro-batch size"
    bool logX = true;      // log2 axis with power-of-two ticks
    std::vector<double> x; // sample points, ascending
    std::vector<std::array<double, vramplan::componentCount>> components; // bytes per point
    std::vector<bool> valid; // false where the scenario is invalid at that x (leave a gap)
    double capacityBytes = 0;
    double current = 0;         // x of the current scenario
    double largestFitting = -1; // x of the largest value that fits, or -1 if none
    // What that marker means: "largest that fits" for batch and sequence, "fewest that fit" for
    // GPU counts (memory falls as GPUs are added).
    QString fitLabel = QStringLiteral("largest that fits");
    // The likely range around the total, as multiples of it (validationErrorBand); drawn when
    // bandHigh > bandLow.
    double bandLow = 1, bandHigh = 1;
    // Expert load imbalance: the stacked total of each sample with perfectly balanced routing
    // (moe.imbalance = 1), in bytes, NaN where invalid; drawn as a band from it up to the total.
    // Empty when there is nothing to draw: a dense model, imbalance 1, or no sample it changes.
    std::vector<double> balancedBytes;
    double imbalance = 1; // the scenario's moe.imbalance, for the legend
};

class CurveChart : public QWidget
{
    Q_OBJECT

public:
    explicit CurveChart(QWidget *parent = nullptr);

    // Cheap enough to call on every slider step: the graphs are reused and the redraw is queued.
    void setCurve(const CurveData &data, Unit unit);

    // What is drawn, in the unit of the last setCurve (for tests).
    double totalAt(double x) const;      // the stacked total at sample x; NaN if none or invalid
    double likelyHighAt(double x) const; // the upper edge of the likely range there, or NaN
    // The edges of the expert-imbalance band there (balanced below, imbalanced above), or NaN.
    double balancedAt(double x) const;
    double imbalancedAt(double x) const;
    double capacityValue() const;        // 0 when there is no capacity line
    double currentMarker() const;        // NaN when the marker is hidden
    double largestFittingMarker() const; // -1 when the marker is hidden
    QCustomPlot *plot() const;

protected:
    void changeEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    // One set of stacked graphs per contiguous run of valid samples: a gap is the space between
    // two bands (QCustomPlot would also break a line at a NaN, but no NaN reaches it here).
    // Band 0 holds no data; its graphs are the legend's entries. After the components come the
    // lower and upper edges of the likely range, then those of the expert-imbalance band.
    static constexpr size_t bandLowGraph = vramplan::componentCount;
    static constexpr size_t bandHighGraph = vramplan::componentCount + 1;
    static constexpr size_t balancedGraph = vramplan::componentCount + 2;
    static constexpr size_t imbalancedGraph = vramplan::componentCount + 3;
    using Band = std::array<QCPGraph *, vramplan::componentCount + 4>;
    Band &band(size_t index);
    double edgeAt(size_t graph, double x) const;
    void setLegendMargins();
    void applyFonts();
    void updateLogTicks();
    void placeMarkerLabels();
    void placeMarkerLabel(QCPItemText *label, double x, int row);
    double axisFraction(double x) const;
    double expectedAxisWidth() const;

    QCustomPlot *m_plot;
    QCPTextElement *m_title;
    std::vector<Band> m_bands;
    QSharedPointer<QCPAxisTickerText> m_logTicker;
    QSharedPointer<QCPAxisTicker> m_linearTicker;
    QCPItemStraightLine *m_capacityLine;
    QCPItemText *m_capacityLabel;
    QCPItemStraightLine *m_currentLine;
    QCPItemText *m_currentLabel;
    QCPItemStraightLine *m_fittingLine;
    QCPItemText *m_fittingLabel;

    std::vector<double> m_x;
    std::vector<double> m_totals; // in the unit; NaN where invalid (never handed to QCustomPlot)
    bool m_logX = true;
    double m_xLower = 1, m_xUpper = 1; // the x range drawn
    std::array<double, 3> m_tickKey{}; // range and width the log ticks were made for
    double m_capacity = 0;
    double m_current = 0;
    double m_largestFitting = -1;
    QString m_fitLabel;
};

} // namespace vramplan::ui
