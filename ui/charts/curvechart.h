#pragma once
// Memory per GPU as one setting sweeps (micro-batch, sequence length, GPUs): stacked areas by
// component against the GPU's capacity, with markers at the current value and at the largest
// value that still fits. The value axis shows the current point and the capacity line together;
// a sweep that climbs beyond both runs off the top, and a note above the plot says where.
// Hovering a sample shows its total and the component under the cursor.

#include "charts/curvesamples.h"
#include "charts/units.h"
#include "estimate.h"

#include <QSharedPointer>
#include <QString>
#include <QWidget>

#include <array>
#include <memory>
#include <vector>

class QCPAxisTicker;
class QCPAxisTickerText;
class QCPLayoutGrid;
class QCPTextElement;
class QCustomPlot;
class QMouseEvent;

namespace vramplan::ui {

class CurveGraphs;
class CurveMarkers;

struct CurveData
{
    QString title;         // "Memory vs micro-batch"
    QString xLabel;        // "Micro-batch size"
    QString xName;         // "micro-batch": what a sample is, in the note and the tooltips
    bool logX = true;      // log2 axis with power-of-two ticks
    std::vector<double> x; // sample points, ascending
    std::vector<std::array<double, vramplan::componentCount>> components; // bytes per point
    std::vector<bool> valid; // false where the scenario is invalid at that x (leave a gap)
    double capacityBytes = 0;
    double current = 0;         // x of the current scenario
    double largestFitting = -1; // x of the largest value that fits, or -1 if none
    // What that marker means: "largest that fits" (empty: the default) for batch and sequence,
    // "fewest that fit" for GPU counts (memory falls as GPUs are added).
    QString fitLabel;
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
    ~CurveChart() override;

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
    double valueTop() const;             // the top of the value axis
    // "Off the top: micro-batch 24 to 256 (up to 1.21 TiB)"; empty when every total is drawn.
    QString note() const;
    // What hovering at this point of the plot (its pixels) shows; empty outside the samples.
    QString toolTipAt(const QPointF &position) const;
    const CurveMarkers &markers() const { return *m_markers; }
    QCustomPlot *plot() const;

protected:
    void changeEvent(QEvent *event) override;

private:
    // From the samples, not the graphs, whose data is cut at the top of the axis.
    double edgeAt(CurveSamples::Edge edge, double x) const;
    void setHeader(const QString &title, const QString &note);
    void placeLegend(bool below);
    bool adaptToLayout();
    bool updateLogTicks();
    void applyFonts();
    void applyColors(); // from the palette: on construction and on every change of it
    void showToolTip(QMouseEvent *event);

    QCustomPlot *m_plot;
    QCPTextElement *m_title;
    QCPTextElement *m_note;
    QCPLayoutGrid *m_side; // the legend's column right of the plot
    bool m_legendBelow = false;
    std::unique_ptr<CurveGraphs> m_graphs;   // drawn by the plot, which owns what they add
    std::unique_ptr<CurveMarkers> m_markers;
    QSharedPointer<QCPAxisTickerText> m_logTicker;
    QSharedPointer<QCPAxisTicker> m_linearTicker;

    CurveSamples m_samples;
    QString m_xName;
    Unit m_unit = Unit::GiB;
    bool m_logX = true;
    double m_xLower = 1, m_xUpper = 1; // the x range drawn
    std::array<double, 3> m_tickKey{}; // range and width the log ticks were made for
    double m_capacity = 0;
    double m_current = 0;
    double m_largestFitting = -1;
    double m_top = 1;
    QString m_noteText;
    QString m_shownTip;
};

} // namespace vramplan::ui
