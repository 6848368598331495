#pragma once
// The lines and labels over a curve chart: the GPU's capacity (a dashed line across), the
// current value and the largest (or fewest) that fits (lines up the plot). Labels are placed
// once the plot is laid out, in pixels of that drawing: beside their line on the side with
// room and never past the plot's edge, the second marker's a row down where the two would
// touch, the capacity's below its line where it would cover a marker's.

#include <QRectF>
#include <QString>

class QCPItemStraightLine;
class QCPItemText;
class QCustomPlot;
class QFont;

namespace vramplan::ui {

struct ChartColors;

class CurveMarkers
{
public:
    explicit CurveMarkers(QCustomPlot *plot);

    // Values in the plot's coordinates; capacity <= 0 hides its line, a NaN current or a
    // negative fitting value hides that marker. `lower` and `upper` are the x range drawn.
    void set(double capacity, const QString &capacityText, double current, double fitting,
             const QString &fittingText, double lower, double upper);
    // Places the labels for the layout just made (QCustomPlot::afterLayout).
    void place();
    void applyFonts(const QFont &font);
    void applyColors(const ChartColors &colors);

    QString fittingText() const;
    // Where a label was placed, in pixels of the last drawing (for tests).
    QRectF fittingLabelRect() const;
    QRectF currentLabelRect() const;
    QRectF capacityLabelRect() const;

private:
    void placeBeside(QCPItemText *label, double x, int row);

    QCustomPlot *m_plot;
    QCPItemStraightLine *m_capacityLine, *m_currentLine, *m_fittingLine;
    QCPItemText *m_capacityLabel, *m_currentLabel, *m_fittingLabel;
    double m_capacity = 0, m_current = 0, m_fitting = -1;
    QString m_capacityText; // on one line
};

} // namespace vramplan::ui
