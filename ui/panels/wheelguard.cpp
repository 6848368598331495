#include "panels/wheelguard.h"

#include <QAbstractScrollArea>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QEvent>
#include <QSlider>
#include <QWidget>

namespace vramplan::ui {
namespace {

class WheelGuard : public QObject
{
public:
    using QObject::QObject;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() != QEvent::Wheel)
            return false;
        auto *control = static_cast<QWidget *>(watched);
        if (control->hasFocus())
            return false;
        // Handed to the scroll area the control sits in, whose viewport scrolls by it: Qt 6
        // does not pass a filtered wheel on to the parents by itself.
        for (QWidget *up = control->parentWidget(); up; up = up->parentWidget()) {
            if (auto *area = qobject_cast<QAbstractScrollArea *>(up)) {
                QCoreApplication::sendEvent(area->viewport(), event);
                return true;
            }
        }
        event->ignore();
        return true;
    }
};

} // namespace

void guardWheel(QWidget *root)
{
    auto *guard = new WheelGuard(root);
    auto protect = [guard](QWidget *control) {
        control->setFocusPolicy(Qt::StrongFocus);
        control->installEventFilter(guard);
    };
    for (QAbstractSpinBox *box : root->findChildren<QAbstractSpinBox *>())
        protect(box);
    // Sliders, not the scroll bars of the combo boxes' popups, which are what a wheel is for.
    for (QSlider *slider : root->findChildren<QSlider *>())
        protect(slider);
    for (QComboBox *box : root->findChildren<QComboBox *>())
        protect(box);
}

} // namespace vramplan::ui
