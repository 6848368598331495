#pragma once
// "Make it fit", beside the breakdown: the advisor's suggestions for the scenario shown, as
// chips ranked as the advisor ranks them (kind by kind, fastest first), each with its peak and
// relative step time; the solvers' answers (largest micro-batch, longest sequence, fewest
// GPUs); and when nothing fits, the nearest and the smallest GPU it fits on. A chip clicked
// (or Enter) asks for its scenario to be applied; hovered (or reached by Tab) it asks for a
// preview on the breakdown bar. After a chip is clicked the chips hold still under the pointer:
// a second click at the same spot (a double-click) applies nothing, and nothing previews, until
// the pointer moves (the advice for the applied scenario re-ranks the chips beneath it). The
// panel computes nothing: the advice comes from the AdvisorWorker, and the window applies and
// previews.

#include "advisorworker.h"
#include "charts/units.h"

#include <QList>
#include <QPoint>
#include <QWidget>

class QLabel;
class QScrollArea;
class QTimer;
class QToolButton;

namespace vramplan::ui {

class FitChip;
class FlowLayout;

class FitAdvisorPanel : public QWidget
{
    Q_OBJECT

public:
    explicit FitAdvisorPanel(QWidget *parent = nullptr);

    // A search for `scenario` has begun. Unless the chips shown are for that same scenario,
    // they are for an earlier one and apply nothing until its advice arrives (a moment later;
    // "Searching…" if it takes longer): applied, they would undo the newer edit.
    void setPending(const vramplan::Scenario &scenario);
    void setResult(const AdviceResult &result);
    void setUnit(Unit unit);
    bool pending() const { return m_pending; }
    // The solvers' lines are of the scenario on screen (false while a slow search for a newer
    // one is under way: they are greyed and say so).
    bool solversCurrent() const;

    // Clicks and previews wait for the pointer to move after a chip was clicked (for tests).
    bool holding() const { return m_hold; }

    // Collapsed: only the heading and the verdict line. A tab (small window) never collapses;
    // the user's choice holds again once the panel is back beside the breakdown.
    bool isCollapsed() const { return m_collapsed; }
    void setCollapsed(bool collapsed);
    void setCollapsible(bool collapsible);

    // What is shown (for tests): the chips (the suggestions, or the nearest when nothing fits),
    // the verdict line, the solvers' three lines, and the nothing-fits note.
    QList<FitChip *> chips() const;
    QString statusText() const;
    QStringList solverTexts() const;
    QString nothingFitsText() const;
    const AdviceResult &result() const { return m_result; }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

signals:
    // Apply `scenario` as one undo step named `what` ("Apply suggestion: ZeRO 0 → 3").
    void applyRequested(const vramplan::Scenario &scenario, const QString &what);
    // Show `estimate` on the breakdown bar for now; previewCleared() takes it back.
    void previewRequested(const vramplan::Estimate &estimate, const QString &what);
    void previewCleared();
    void collapsedChanged(bool collapsed); // the user's choice (setCollapsed)

private:
    struct Shown
    {
        const Suggestion *suggestion;
        const Estimate *estimate;
        QStringList phrases; // changePhrases()
        QString title;       // chipTitles(): short and unlike the others', for the undo step
    };
    void applyCollapse();
    void fitChipBoxHeight();
    void rebuild();
    void updateChip(FitChip *chip, const Shown &shown, bool nearest);
    void updateStatus();
    void markSolvers();
    void chipClicked(int index);
    void chipPreview(int index, bool on);
    void pointerMoved(int index, const QPoint &global);
    void releaseHold();

    QToolButton *m_toggle;
    QLabel *m_status;
    QScrollArea *m_scroll;
    QWidget *m_chipBox;
    FlowLayout *m_flow;
    QLabel *m_nothingFits;
    QLabel *m_solvers;
    QString m_solversTip;
    QLabel *m_legend;
    QTimer *m_searching; // "Searching…" only for a search that takes a noticeable time
    QList<FitChip *> m_chips;
    std::vector<Shown> m_shown;
    AdviceResult m_result;
    Unit m_unit = Unit::GiB;
    bool m_hasResult = false;
    bool m_pending = false;
    bool m_slow = false;          // pending for longer than a glance
    bool m_collapsed = false;     // as shown
    bool m_wantCollapsed = false; // as the user chose
    bool m_collapsible = true;
    int m_previewing = -1; // the chip whose preview is shown, -1 for none
    bool m_hold = false;   // a chip was clicked and the pointer has not moved since
    QPoint m_holdPoint;    // where (global)
};

} // namespace vramplan::ui
