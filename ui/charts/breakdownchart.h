#pragma once
// What one GPU holds at the peak of a training step: one stacked bar of the seven components
// against the GPU's capacity, the headroom or overflow, and the three numbers a user can measure
// (allocated, reserved, device). Hovering a segment lists the tensors behind it
// (breakdowntooltip.h).

#include "charts/units.h"
#include "estimate.h"

#include <QPen>
#include <QStringList>
#include <QWidget>

#include <array>
#include <optional>

class QCPBars;
class QCPItemLine;
class QCPItemStraightLine;
class QCPItemText;
class QCPLayoutElement;
class QCPLayoutGrid;
class QCPTextElement;
class QCustomPlot;
class QMouseEvent;

namespace vramplan::ui {

class WhiskerLegendItem;

class BreakdownChart : public QWidget
{
    Q_OBJECT

public:
    explicit BreakdownChart(QWidget *parent = nullptr);

    // Cheap enough to call on every slider step: the plottables are reused and the redraw is
    // queued, so several calls within one event-loop pass paint once. `balancedDeviceBytes`,
    // where given, is the device total of the same scenario with perfectly balanced expert
    // routing (PlanController::balancedEstimate()): a marker on the bar and a measured row.
    void setEstimate(const vramplan::Estimate &e, Unit unit,
                     std::optional<double> balancedDeviceBytes = std::nullopt);

    // A preview (hovering a "Make it fit" suggestion): `preview` drawn in place of the estimate,
    // its bars paler, with a dashed line where the current total stands ("now 93.21 GiB").
    // clearPreview() draws the estimate again; so does the next setEstimate.
    void setPreview(const vramplan::Estimate &preview, const QString &what);
    void clearPreview();
    // What is previewed ("" when nothing is) and the total it draws, in the unit.
    QString previewText() const { return m_preview; }
    double totalValue() const { return m_total; }
    // The current total's marker while previewing: its value in the unit, NaN when hidden.
    double nowValue() const;

    // What is drawn, in the unit of the last setEstimate (for tests).
    double barValue(vramplan::Component c) const;
    double capacityValue() const;
    // The likely range of the device total (validationErrorBand), in the unit; {0, 0} if none.
    std::pair<double, double> likelyRange() const;
    // The legend's name for it, beside the component names.
    static QString likelyRangeName();
    // The balanced-experts marker: its value in the unit (NaN when hidden) and its label on one
    // line ("" when hidden).
    double balancedValue() const;
    QString balancedText() const;
    // The rows of the measured block as shown, "name: value" ("device: 49.55 GiB").
    QStringList measuredRows() const;
    QCustomPlot *plot() const;
    // The text beside the gap bracket ("headroom 6.2 GiB", "over by 3.1 GiB", or for a server
    // whose engine would not start, that) and whether it is drawn as a failure.
    QString gapText() const { return m_gapText; }
    bool failureShown() const { return m_overflow || m_refused; }
    // An inference server's budget (gpu_memory_utilization x the memory CUDA reports): its
    // line's value in the unit (NaN when hidden) and its label ("" when hidden).
    double budgetValue() const;
    QString budgetText() const;
    // With the legend and the measured numbers below the plot: the height the widget wants, so
    // that the plot keeps room for its labels (about six lines of text) under all that text; 0
    // with them beside it. Taller text (a Chinese font) wants more.
    int wantedHeight() const { return m_wantedHeight; }

signals:
    void wantedHeightChanged();

protected:
    void changeEvent(QEvent *event) override;

private:
    static QStringList measuredNames(); // "allocated", "reserved", "device", "likely device"
    void addBandToLegend();
    void draw(const vramplan::Estimate &e, std::optional<double> balancedDeviceBytes);
    // breakdownpreview.cpp
    void addPreviewItems();
    void markPreview();
    double currentTotalBytes() const; // of the last setEstimate, as its bar adds up
    void applyFonts();
    void applyColors(); // from the palette: on construction and on every change of it
    void arrange(bool below);
    void placeGapLabel();      // for the layout just made
    // Raises the axis's top where the total's label over the bar would leave the plot (a short
    // plot); true if it did, so the plot is laid out again.
    bool makeRoomForTotalLabel();
    void placeBalancedLabel(); // as the label is drawn
    // breakdownserving.cpp: the budget line of an inference server and its engine's refusal.
    void addServingItems();
    void drawServing(const vramplan::Estimate &e);
    void placeBudgetLabel(); // once the gap's label is placed, clear of it
    void updateToolTip(QMouseEvent *event);

    QCustomPlot *m_plot;
    std::array<QCPBars *, vramplan::componentCount> m_bars{};
    // The components the legend names, one bit each (see draw()).
    unsigned m_legendComponents = 0;
    QCPItemStraightLine *m_capacityLine;
    QCPItemText *m_capacityLabel;
    QCPItemText *m_totalLabel;
    QCPItemLine *m_gapLine; // spans total..capacity: the headroom or the overflow
    QCPItemText *m_gapLabel;
    QCPItemLine *m_bandLine; // the likely range of the total: the spread on published runs
    QPen m_bandPen{QColor(0x42, 0x42, 0x42), 1.5};
    WhiskerLegendItem *m_bandLegend = nullptr; // its legend entry (the legend owns it)
    std::pair<double, double> m_likely{};
    QString m_gapText;       // "headroom 12.3 GiB", on one line
    QString m_capacityText;  // "GPU capacity: 79.65 GiB"
    QString m_capacityLines; // the same on two lines, for a narrow plot
    QString m_totalText;     // "device 93.21 GiB"
    QString m_totalLines;    // the same on two lines
    // The device total with balanced expert routing: a line across the bar, labelled.
    QCPItemLine *m_balancedLine;
    QCPItemText *m_balancedLabel;
    double m_balanced = 0; // in the unit; NaN when there is no marker
    double m_total = 0;    // the bar's height, in the unit
    bool m_overflow = false;
    bool m_refused = false; // a server whose engine would not start (drawn as an overflow is)
    // The value axis's top as draw() chose it, before any room made for the total's label:
    // each layout makes that room from here, so a plot that was once short does not leave the
    // axis raised once it is tall again (issue 21 #4).
    double m_axisTop = 1;
    QCPItemStraightLine *m_budgetLine = nullptr;
    QCPItemText *m_budgetLabel = nullptr;
    double m_budget = 0; // in the unit; NaN when there is no budget line
    QString m_balancedText;

    // Beside the plot (or below it, when the widget is tall or narrow): the legend and the
    // measured numbers, names and values in two columns.
    QCPLayoutGrid *m_side;
    QCPLayoutElement *m_spacer;
    QCPLayoutGrid *m_measured;
    QCPTextElement *m_measuredHeading;
    QCPTextElement *m_measuredNames;
    QCPTextElement *m_measuredValues;
    bool m_below = false;

    // A copy for the tooltips, which list the items of the estimate drawn last.
    vramplan::Estimate m_estimate;
    // The estimate of the last setEstimate, drawn again when a preview ends.
    vramplan::Estimate m_current;
    std::optional<double> m_currentBalanced;
    QString m_preview;      // what is previewed; "" when the current estimate is drawn
    QCPItemLine *m_nowLine; // while previewing: the current total across the bar
    QCPItemText *m_nowLabel;
    Unit m_unit = Unit::GiB;
    std::array<double, vramplan::componentCount> m_values{};
    double m_capacity = 0;
    int m_hovered = -1; // the component under the cursor, -1 for none
    int m_wantedHeight = 0;
};

} // namespace vramplan::ui
