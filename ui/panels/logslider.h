#pragma once
// A slider on a log scale paired with a spin box, both editing one value: the slider for
// sweeping through orders of magnitude, the box for typing an exact number. Marks (powers of
// two, preset sizes) are drawn under the groove; a slider move may snap to chosen values (the
// common context sizes), so that a drag does not end on 158,816.

#include <QWidget>

#include <vector>

class QSlider;
class QDoubleSpinBox;

namespace vramplan::ui {

class MarkedSlider;

class LogSlider : public QWidget
{
    Q_OBJECT

public:
    explicit LogSlider(QWidget *parent = nullptr);

    void setRange(double minimum, double maximum);
    void setDecimals(int decimals); // 0: whole numbers
    void setSuffix(const QString &suffix);
    void setMarks(std::vector<double> marks); // values drawn as ticks under the slider
    // Values a slider move lands on (the nearest on the log scale); none: every rounded value.
    // Typing in the box stays free.
    void setSnaps(std::vector<double> snaps);
    void setValue(double value);              // does not emit
    double value() const { return m_value; }
    double minimum() const { return m_min; }
    double maximum() const { return m_max; }

    QSlider *slider() const;
    QDoubleSpinBox *spinBox() const { return m_spin; }

    int toSlider(double value) const;

signals:
    // While dragging (sliderDown) and on every committed change.
    void valueEdited(double value, bool dragging);

private:
    double fromSlider(int position) const;
    double rounded(double value) const;
    double snapped(double value) const;
    void showValue(double value);

    MarkedSlider *m_slider;
    QDoubleSpinBox *m_spin;
    std::vector<double> m_markValues, m_snaps;
    double m_min = 1, m_max = 1024, m_value = 1;
    int m_decimals = 0;
};

} // namespace vramplan::ui
