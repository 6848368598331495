#pragma once
// An RL plan's memory per trainer GPU, phase by phase (docs/rl.md, core rl_plan.h), drawn two
// ways:
// - Breakdown: generation, experience and training side by side, each a stacked bar of the
//   components in the colours of the training breakdown, against the GPU's capacity; the peak
//   phase's total marked "peak", and under each phase the party that holds the most of it. It
//   stands where the training breakdown stands while the scenario has an `rl` section.
// - Timeline: one RL step in order, generation -> experience -> training -> the next
//   generation, the bars touching, with the engine's sleep after generating and its wake before
//   the next one marked between them (what sleep frees, or that the engine keeps its memory).
// Under each bar, the phase and the party holding the most of it. Hovering a segment lists the phase's items of that component with formula and source; above
// a bar, all of the phase's items.

#include "charts/units.h"
#include "estimate.h"

#include <QSharedPointer>
#include <QString>
#include <QWidget>

#include <array>
#include <optional>
#include <vector>

class QCPAxisTickerText;
class QCPBars;
class QCPGraph;
class QCPItemStraightLine;
class QCPItemText;
class QCPTextElement;
class QCustomPlot;
class QMouseEvent;

namespace vramplan::ui {

class RlPhaseChart : public QWidget
{
    Q_OBJECT

public:
    enum class Style
    {
        Breakdown,
        Timeline
    };

    explicit RlPhaseChart(Style style, QWidget *parent = nullptr);

    void setEstimate(const vramplan::Estimate &e, Unit unit);
    // A "Make it fit" suggestion drawn in place of the estimate while its chip is hovered.
    void setPreview(const vramplan::Estimate &preview, const QString &what);
    void clearPreview();

    // What is drawn (for tests): the columns in order, their phase, the label over each (the
    // device total: "48.52 GiB", the peak's "76.48 GiB, peak"), its stacked total in the unit,
    // the tick label under it (the phase and its holder: "Generation\nrollout engine"), and the
    // sleep/wake markers' texts.
    int columnCount() const { return int(m_columns.size()); }
    RlPhaseKind columnPhase(int index) const;
    QString columnLabel(int index) const;
    double columnTotal(int index) const;
    QString tickLabel(int index) const;
    QStringList markerLabels() const;
    QString title() const;
    double capacityValue() const; // in the unit; 0 without a capacity
    // What hovering at this point of the plot (its pixels) shows; empty off the bars.
    QString toolTipAt(const QPointF &position) const;
    QCustomPlot *plot() const { return m_plot; }

protected:
    void changeEvent(QEvent *event) override;

private:
    void draw();
    void applyColors();
    void showToolTip(QMouseEvent *event);
    const Estimate &shown() const { return m_preview ? *m_preview : m_estimate; }

    struct Column
    {
        RlPhaseKind phase;
        bool repeat = false; // the timeline's next generation
    };

    Style m_style;
    QCustomPlot *m_plot;
    QSharedPointer<QCPAxisTickerText> m_ticker;
    QCPTextElement *m_title;
    std::array<QCPBars *, componentCount> m_bars{};
    QCPItemStraightLine *m_capacityLine;
    QCPItemText *m_capacityLabel;
    QCPGraph *m_capacityEntry;
    std::vector<QCPItemText *> m_labels;
    std::vector<QCPItemStraightLine *> m_markers;
    std::vector<QCPItemText *> m_markerTexts;
    std::vector<Column> m_columns;
    std::vector<QString> m_columnLabels, m_tickLabels;
    std::vector<double> m_totals;
    Estimate m_estimate;
    std::optional<Estimate> m_preview;
    QString m_previewWhat;
    Unit m_unit = Unit::GiB;
    QString m_shownTip;
};

} // namespace vramplan::ui
