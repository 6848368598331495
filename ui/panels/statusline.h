#pragma once
// The window's status bar: the verdict on the left (the peak, whether it fits and by how much,
// the peak's phase), the parameter counts on the right, and for a while a message in place of
// the verdict (a refused edit, a file that cannot be read). The estimate's warnings follow the
// phase (the first one, "+N more", all of them in its tooltip); a run its framework cannot set
// up is never a plain green "fits". A message longer than the room left
// of the counts is elided there, never drawn into them; the whole text is the bar's tooltip.

#include "charts/units.h"
#include "estimate.h"

#include <QStatusBar>

class QLabel;

namespace vramplan::ui {

class StatusLine : public QStatusBar
{
    Q_OBJECT

public:
    explicit StatusLine(QWidget *parent = nullptr);

    void setEstimate(const vramplan::Estimate &estimate, Unit unit, vramplan::Mode mode);
    // The verdict and the counts as shown, " | " between them (for tests).
    QString text() const;
    // The message as drawn: elided to its room; empty when there is none.
    QString shownMessage() const;
    QLabel *countsLabel() const { return m_counts; }
    QLabel *warningLabel() const { return m_warning; }

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    QRect messageRect() const;
    void showWarnings(const vramplan::Estimate &estimate, Unit unit);

    QLabel *m_peak, *m_fit, *m_phase, *m_warning, *m_counts;
};

} // namespace vramplan::ui
