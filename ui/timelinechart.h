#pragma once
// Allocated memory through one training step: one stacked bar per phase (end of forward, start
// of backward, ..., optimizer step, validation) against the GPU's capacity, with the peak marked.
// It shows why the peak sits where it does: activations pile up through forward and drain
// through backward while gradients build up.

#include "componentstyle.h"
#include "estimate.h"

#include <QSharedPointer>
#include <QString>
#include <QWidget>

#include <array>

class QCPAxisTickerText;
class QCPBars;
class QCPItemLine;
class QCPItemStraightLine;
class QCPItemText;
class QCustomPlot;

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
    QCustomPlot *plot() const;

protected:
    void changeEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    void applyFonts();
    void updateTickLabels();
    void updateLegend(const std::array<bool, vramplan::componentCount> &shown);

    QCustomPlot *m_plot;
    QSharedPointer<QCPAxisTickerText> m_ticker;
    std::array<QCPBars *, vramplan::componentCount> m_bars{};
    std::array<QCPItemText *, vramplan::phaseCount> m_totalLabels{};
    QCPItemText *m_peakLabel;
    QCPItemLine *m_peakArrow;
    QCPItemStraightLine *m_capacityLine;
    QCPItemText *m_capacityLabel;

    int m_phaseCount = 0;
    std::array<QString, vramplan::phaseCount> m_phaseNames; // of the bars drawn, unwrapped
    std::array<QString, vramplan::phaseCount> m_tickNames;  // what the tick labels were made for
    int m_tickSlot = -1;                                    // and at which slot width
    std::array<double, vramplan::phaseCount> m_totals{};
    std::array<bool, vramplan::componentCount> m_inLegend{};
    QString m_peakText;
};

} // namespace vramplan::ui
