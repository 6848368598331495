#pragma once
// Scenarios side by side: one stacked bar per scenario on one axis (the components in the same
// colours as everywhere), each with its GPU's capacity, and a table of the inputs that differ
// and of the per-component sizes. Entries can be renamed (double-click), removed, moved and
// loaded back into the editor (their context menu). The table reads as the controls do (issue
// 21 #13): inputs named by their controls' labels (the field path in the row's tooltip), numbers
// rounded and grouped, what differs from the first scenario highlighted, each heading whole on
// up to three lines; servers add their KV-cache tokens and concurrency (issue 21 #8).

#include "charts/units.h"
#include "formats/comparison.h"
#include "estimate.h"

#include <QWidget>

#include <functional>

class QAction;
class QCustomPlot;
class QCPAxisTickerText;
class QCPBars;
class QListWidget;
class QTableWidget;

namespace vramplan::ui {

class ComparisonView : public QWidget
{
    Q_OBJECT

public:
    explicit ComparisonView(QWidget *parent = nullptr);

    void setComparison(const Comparison &comparison);
    const Comparison &comparison() const { return m_comparison; }
    void addScenario(const std::string &label, const Scenario &scenario);
    void setUnit(Unit unit);
    // Names an input row by its field path ("training.micro_batch_size" -> "Micro-batch"): the
    // window's controls' labels; "" leaves the path.
    void setFieldLabels(std::function<QString(const QString &)> labels);

    int count() const { return int(m_comparison.entries.size()); }
    double barValue(int index, Component c) const; // in the unit
    double totalAt(int index) const;               // device bytes in the unit
    QCustomPlot *plot() const { return m_plot; }
    QTableWidget *table() const { return m_table; }
    QListWidget *list() const { return m_list; }
    // The actions of an entry's context menu, for the entry at `index`, owned by `owner` (the
    // menu): Load into Editor, Rename, Move Up, Move Down, Remove.
    QList<QAction *> entryActions(int index, QObject *owner);

    void removeAt(int index);
    void move(int from, int to);
    void rename(int index, const std::string &label);

signals:
    void changed(); // the comparison was edited (for the window's modified state)
    // The user asked to edit entry `index` (its context menu's "Load into Editor").
    void loadRequested(int index);

protected:
    void changeEvent(QEvent *event) override;

private:
    void rebuild();
    void refreshList();
    void refreshChart();
    void fillTable();
    bool fitTickLabels();

    Comparison m_comparison;
    std::vector<Estimate> m_estimates;
    Unit m_unit = Unit::GiB;
    QListWidget *m_list;
    QCustomPlot *m_plot;
    QTableWidget *m_table;
    std::vector<QCPBars *> m_bars;
    QSharedPointer<QCPAxisTickerText> m_ticker;
    QStringList m_tickNames; // the entries' labels the ticks were made for
    int m_tickSlot = -1;     // and at which slot width
    bool m_updatingList = false;
    std::function<QString(const QString &)> m_fieldLabels;
};

} // namespace vramplan::ui
