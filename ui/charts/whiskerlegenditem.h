#pragma once
// A legend entry for a whisker (a vertical line with a bar at each end): the breakdown's likely
// range of the device total is an item, not a plottable, so QCustomPlot has no entry for it.

#include <qcustomplot.h>

namespace vramplan::ui {

class WhiskerLegendItem : public QCPAbstractLegendItem
{
    Q_OBJECT

public:
    WhiskerLegendItem(QCPLegend *legend, const QString &text);

    QString text() const { return m_text; }
    void setPen(const QPen &pen) { m_pen = pen; }

protected:
    void draw(QCPPainter *painter) override;
    QSize minimumOuterSizeHint() const override;

private:
    QString m_text;
    QPen m_pen;
};

} // namespace vramplan::ui
