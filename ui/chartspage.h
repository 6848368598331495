#pragma once
// The Plan page: the breakdown bar on the left over the "Make it fit" panel, the curves in tabs
// on the right over the step timeline. In a small window every chart becomes a tab of one tab
// widget (the breakdown first, then the panel), so that each keeps room for its labels and
// legend. While the scenario has an `rl` section (docs/rl.md) the RL charts stand in the
// training charts' places: the phases side by side for the breakdown, one RL step through its
// phases for the step timeline.

#include "charts/units.h"

#include <QWidget>

class QGridLayout;
class QTabWidget;
class QVBoxLayout;

namespace vramplan {
struct Estimate;
}

namespace vramplan::ui {

class BreakdownChart;
class CurveChart;
class FitAdvisorPanel;
class RlPhaseChart;
class TimelineChart;

class ChartsPage : public QWidget
{
    Q_OBJECT

public:
    ChartsPage(BreakdownChart *breakdown, FitAdvisorPanel *fit, CurveChart *batch,
               CurveChart *sequence, CurveChart *gpus, TimelineChart *timeline,
               QWidget *parent = nullptr);

    QTabWidget *curveTabs() const { return m_tabs; }
    // Whether every chart is a tab (a small window).
    bool tabbed() const { return m_tabbed; }
    // The estimate drawn (the window hands each one over): an RL plan puts the RL charts in the
    // breakdown's and the timeline's places, any other plan the training charts.
    void setEstimate(const vramplan::Estimate &estimate, Unit unit);
    RlPhaseChart *rlPhases() const { return m_rlPhases; }
    RlPhaseChart *rlTimeline() const { return m_rlTimeline; }
    bool showsRl() const { return m_rl; }

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void arrange(bool tabbed);
    void swapCharts(); // the training charts for the RL ones, or back, in the same places
    void share(); // the left column between the breakdown and the panel
    QWidget *breakdown() const; // the one shown: the training breakdown or the RL phases
    QWidget *timeline() const;

    QGridLayout *m_grid;
    QTabWidget *m_tabs;
    QWidget *m_left; // the breakdown over the panel
    QVBoxLayout *m_leftLayout;
    BreakdownChart *m_breakdown;
    FitAdvisorPanel *m_fit;
    TimelineChart *m_timeline;
    RlPhaseChart *m_rlPhases;
    RlPhaseChart *m_rlTimeline;
    bool m_tabbed = false;
    bool m_rl = false;
};

} // namespace vramplan::ui
