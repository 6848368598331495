#include "panels/logslider.h"

#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QPainter>
#include <QSignalBlocker>
#include <QSlider>
#include <QStyle>
#include <QStyleOptionSlider>

#include <algorithm>
#include <cmath>

namespace vramplan::ui {

namespace {
constexpr int sliderSteps = 1000;
}

// A slider that draws short ticks under its groove at given positions.
class MarkedSlider : public QSlider
{
public:
    explicit MarkedSlider(QWidget *parent) : QSlider(Qt::Horizontal, parent) {}
    std::vector<int> marks; // slider positions

protected:
    void paintEvent(QPaintEvent *event) override
    {
        QSlider::paintEvent(event);
        if (marks.empty())
            return;
        QPainter p(this);
        QStyleOptionSlider option;
        initStyleOption(&option);
        const QRect groove =
            style()->subControlRect(QStyle::CC_Slider, &option, QStyle::SC_SliderGroove, this);
        const int handle = style()->pixelMetric(QStyle::PM_SliderLength, &option, this);
        p.setPen(palette().color(QPalette::Mid));
        for (int mark : marks) {
            const int x = QStyle::sliderPositionFromValue(minimum(), maximum(), mark,
                                                          groove.width() - handle) +
                          groove.left() + handle / 2;
            p.drawLine(x, height() - 4, x, height() - 1);
        }
    }
};

LogSlider::LogSlider(QWidget *parent)
    : QWidget(parent), m_slider(new MarkedSlider(this)), m_spin(new QDoubleSpinBox(this))
{
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_slider, 1);
    layout->addWidget(m_spin);
    m_slider->setRange(0, sliderSteps);
    m_spin->setDecimals(0);
    m_spin->setKeyboardTracking(false);
    m_spin->setMinimumWidth(m_spin->fontMetrics().horizontalAdvance(QStringLiteral("000000000")));
    m_slider->setMinimumWidth(60);

    connect(m_slider, &QSlider::valueChanged, this, [this](int position) {
        const double v = snapped(rounded(fromSlider(position)));
        if (v == m_value)
            return;
        m_value = v;
        const QSignalBlocker blocker(m_spin);
        m_spin->setValue(v);
        emit valueEdited(v, m_slider->isSliderDown());
    });
    connect(m_slider, &QSlider::sliderReleased, this, [this] { emit valueEdited(m_value, false); });
    connect(m_spin, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        v = rounded(v);
        if (v == m_value)
            return;
        m_value = v;
        const QSignalBlocker blocker(m_slider);
        m_slider->setValue(toSlider(v));
        emit valueEdited(v, false);
    });
}

void LogSlider::setRange(double minimum, double maximum)
{
    m_min = std::max(minimum, 1e-9);
    m_max = std::max(maximum, m_min * 1.0001);
    const QSignalBlocker blocker(m_spin);
    m_spin->setRange(m_min, m_max);
    m_value = std::clamp(m_value, m_min, m_max);
    showValue(m_value);
    setMarks(m_markValues);
}

void LogSlider::setDecimals(int decimals)
{
    m_decimals = decimals;
    m_spin->setDecimals(decimals);
}

void LogSlider::setSuffix(const QString &suffix)
{
    m_spin->setSuffix(suffix);
}

QSlider *LogSlider::slider() const
{
    return m_slider;
}

void LogSlider::setMarks(std::vector<double> marks)
{
    m_markValues = std::move(marks);
    m_slider->marks.clear();
    for (double mark : m_markValues)
        if (mark >= m_min && mark <= m_max)
            m_slider->marks.push_back(toSlider(mark));
    m_slider->update();
}

void LogSlider::setSnaps(std::vector<double> snaps)
{
    std::sort(snaps.begin(), snaps.end());
    snaps.erase(std::unique(snaps.begin(), snaps.end()), snaps.end());
    m_snaps = std::move(snaps);
}

double LogSlider::snapped(double value) const
{
    double best = value, distance = INFINITY;
    for (double snap : m_snaps) {
        if (snap < m_min || snap > m_max || !(snap > 0))
            continue;
        const double d = std::abs(std::log(snap) - std::log(value));
        if (d < distance) {
            distance = d;
            best = snap;
        }
    }
    return best;
}

void LogSlider::setValue(double value)
{
    m_value = rounded(std::clamp(value, m_min, m_max));
    showValue(m_value);
}

void LogSlider::showValue(double value)
{
    const QSignalBlocker b1(m_slider);
    const QSignalBlocker b2(m_spin);
    m_slider->setValue(toSlider(value));
    m_spin->setValue(value);
}

int LogSlider::toSlider(double value) const
{
    const double t = (std::log(std::clamp(value, m_min, m_max)) - std::log(m_min)) /
                     (std::log(m_max) - std::log(m_min));
    return int(std::lround(t * sliderSteps));
}

double LogSlider::fromSlider(int position) const
{
    const double t = double(position) / sliderSteps;
    return std::exp(std::log(m_min) + t * (std::log(m_max) - std::log(m_min)));
}

double LogSlider::rounded(double value) const
{
    const double scale = std::pow(10.0, m_decimals);
    return std::clamp(std::round(value * scale) / scale, m_min, m_max);
}

} // namespace vramplan::ui
