#pragma once
// Memory through one training step: one stacked bar per phase (end of forward, start of
// backward, ..., optimizer step, validation) of what the allocator holds, against the GPU's
// capacity, with the peak marked. It shows why the peak sits where it does: activations pile up
// through forward and drain through backward while gradients build up. The device line is what
// nvidia-smi shows through the step (the caching allocator keeps its peak, plus the CUDA context
// and memory beside PyTorch): the number the verdict compares with the capacity.

#include "charts/units.h"
#include "estimate.h"

#include <QSharedPointer>
#include <QString>
#include <QWidget>

#include <array>

class QCPAxisTickerText;
class QCPBars;
class QCPGraph;
class QCPItemLine;
class QCPItemStraightLine;
class QCPItemText;
class QCPTextElement;
class QCustomPlot;
class QMouseEvent;

namespace vramplan::ui {

class TimelineChart : public QWidget
{
    Q_OBJECT

public:
    explicit TimelineChart(QWidget *parent = nullptr);

    // Cheap enough to call on every slider step: the bars are reused and the redraw is queued.
    void setEstimate(const vramplan::Estimate &e, Unit unit);

    // What is drawn, in the unit of the last setEstimate (for tests).
    int phaseCount() const;             // bars drawn: the phases present in the estimate
    double phaseTotal(int index) const; // the stacked total of bar `index`; 0 if out of range
    QString peakLabel() const;          // "peak: 75.2 GiB allocated"; empty when not drawn
    double capacityValue() const;       // 0 when there is no capacity line
    double deviceValue() const;         // the device line; 0 when not drawn
    QString deviceLabel() const;        // "device 93.2 GiB", its legend entry
    // What hovering at this point of the plot (its pixels) shows; empty off the bars.
    QString toolTipAt(const QPointF &position) const;
    QCustomPlot *plot() const;

protected:
    void changeEvent(QEvent *event) override;

private:
    void applyFonts();
    void applyColors(); // from the palette: on construction and on every change of it
    bool updateTickLabels();
    bool wrapLegend();
    bool makeRoomForLabels();
    void placePeakLabel();
    bool updateLegend(); // false when it lists what it did

    void showToolTip(QMouseEvent *event);

    QCustomPlot *m_plot;
    QCPTextElement *m_title;
    QSharedPointer<QCPAxisTickerText> m_ticker;
    std::array<QCPBars *, vramplan::componentCount> m_bars{};
    std::array<QCPItemText *, vramplan::phaseCount> m_totalLabels{};
    QCPItemText *m_peakLabel;
    QCPItemLine *m_peakArrow;
    QCPItemStraightLine *m_capacityLine;
    QCPItemStraightLine *m_deviceLine;
    QCPGraph *m_capacityEntry; // the lines' legend entries (no data)
    QCPGraph *m_deviceEntry;

    Unit m_unit = Unit::GiB;
    int m_phaseCount = 0;
    int m_peakIndex = -1;
    std::array<vramplan::Phase, vramplan::phaseCount> m_phases{}; // of the bars drawn
    std::array<std::array<double, vramplan::componentCount>, vramplan::phaseCount> m_values{};
    std::array<vramplan::Phase, vramplan::phaseCount>
        m_tickPhases{}; // what the ticks were made for
    int m_tickCount = -1;
    int m_tickSlot = -1; // and at which slot width
    std::array<double, vramplan::phaseCount> m_totals{};
    std::array<bool, vramplan::componentCount> m_used{};          // components some bar holds
    std::array<bool, vramplan::componentCount + 2> m_legendKey{}; // what the legend lists
    bool m_compactLegend = false;                                 // only the lines

    double m_capacity = 0;
    double m_device = 0;
    double m_top = 0; // the tallest bar or line
    QString m_peakText;
    QString m_shownTip;
};

} // namespace vramplan::ui
