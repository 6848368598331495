#pragma once
// The Plan page: the breakdown bar on the left over the "Make it fit" panel, the curves in tabs
// on the right over the step timeline. In a small window every chart becomes a tab of one tab
// widget (the breakdown first, then the panel), so that each keeps room for its labels and
// legend.

#include <QWidget>

class QGridLayout;
class QTabWidget;
class QVBoxLayout;

namespace vramplan::ui {

class BreakdownChart;
class CurveChart;
class FitAdvisorPanel;
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

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void arrange(bool tabbed);
    void share(); // the left column between the breakdown and the panel

    QGridLayout *m_grid;
    QTabWidget *m_tabs;
    QWidget *m_left; // the breakdown over the panel
    QVBoxLayout *m_leftLayout;
    BreakdownChart *m_breakdown;
    FitAdvisorPanel *m_fit;
    TimelineChart *m_timeline;
    bool m_tabbed = false;
};

} // namespace vramplan::ui
