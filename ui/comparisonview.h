#pragma once
// Scenarios side by side: one stacked bar per scenario on one axis (the components in the same
// colours as everywhere), each with its GPU's capacity, and a table of the inputs that differ
// and of the per-component sizes. Entries can be renamed (double-click), removed and moved.

#include "comparison.h"
#include "componentstyle.h"
#include "estimate.h"

#include <QWidget>

class QCustomPlot;
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

    int count() const { return int(m_comparison.entries.size()); }
    double barValue(int index, Component c) const; // in the unit
    double totalAt(int index) const;               // device bytes in the unit
    QCustomPlot *plot() const { return m_plot; }
    QTableWidget *table() const { return m_table; }
    QListWidget *list() const { return m_list; }

    void removeAt(int index);
    void move(int from, int to);
    void rename(int index, const std::string &label);

signals:
    void changed(); // the comparison was edited (for the window's modified state)

private:
    void rebuild();
    void fillTable();

    Comparison m_comparison;
    std::vector<Estimate> m_estimates;
    Unit m_unit = Unit::GiB;
    QListWidget *m_list;
    QCustomPlot *m_plot;
    QTableWidget *m_table;
    std::vector<QCPBars *> m_bars;
    bool m_updatingList = false;
};

} // namespace vramplan::ui
