#pragma once
// One curve of an inference server's settings (servingcurves.h): a line through the estimated
// samples, a marker at the scenario's own setting with its value, samples at which the engine
// would not start in red, and on concurrency curves the line of one request, below which the
// engine refuses to start. Hovering a sample shows its value.

#include "charts/servingcurves.h"

#include <QWidget>

class QCPGraph;
class QCPItemStraightLine;
class QCPItemText;
class QCPTextElement;
class QCustomPlot;
class QMouseEvent;

namespace vramplan::ui {

class ServingCurveChart : public QWidget
{
    Q_OBJECT

public:
    explicit ServingCurveChart(QWidget *parent = nullptr);

    void setCurve(const ServingCurve &curve);

    // What is drawn (for tests and tooltips).
    const ServingCurve &curve() const { return m_curve; }
    double valueAt(double x) const { return m_curve.at(x); }
    double currentMarker() const; // NaN when hidden
    QString currentLabel() const; // "32k: 3.42 requests", "32k: does not start"
    QString title() const;
    // Where the labels were drawn, in pixels of the last drawing; null when hidden.
    QRectF currentLabelRect() const;
    QRectF oneRequestLabelRect() const;
    QCustomPlot *plot() const { return m_plot; }

protected:
    void changeEvent(QEvent *event) override;

private:
    // A sample as its tooltip says it, or `brief` as the current point's label does.
    QString describe(size_t i, bool brief) const;
    // Once the plot is laid out: the labels where they are whole and apart (plotlayout.h).
    bool placeLabels();
    void showToolTip(QMouseEvent *event);
    void applyFonts();
    void applyColors(); // from the palette: on construction and on every change of it

    QCustomPlot *m_plot;
    QCPTextElement *m_title;
    QCPGraph *m_line, *m_refused;
    QCPItemStraightLine *m_currentLine, *m_oneRequest;
    QCPItemText *m_currentText, *m_oneRequestText;
    Qt::Alignment m_preferred = Qt::AlignLeft | Qt::AlignBottom; // the point's label
    ServingCurve m_curve;
    QString m_shownTip;
};

} // namespace vramplan::ui
