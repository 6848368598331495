#pragma once
// A spin box drops, one key at a time, whatever cannot be part of its number: "abc-5xyz" typed
// into Layers leaves 5 and says nothing (issue 21 #22). Guarded, a refused key (or a refused
// paste) is said, with every character left out since the box took the focus and the numbers
// it takes, so that the user knows what became of their input.

#include <QString>

#include <functional>

class QWidget;

namespace vramplan::ui {

// Guards every spin box under `root`; `refused` gets the control (a LogSlider where the box is
// one's) and the message.
void guardInput(QWidget *root, std::function<void(QWidget *control, const QString &)> refused);

} // namespace vramplan::ui
