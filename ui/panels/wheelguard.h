#pragma once
// A mouse wheel over a control the user has not clicked into scrolls the panel instead of
// editing the control: scrolling down the controls past the GPU-count box must not change the
// GPU count. The guarded spin boxes, sliders and combo boxes take focus by click or Tab only
// (not by wheel), and the wheel edits them once they have it.

class QWidget;

namespace vramplan::ui {

// Guards every spin box, slider and combo box under `root`.
void guardWheel(QWidget *root);

} // namespace vramplan::ui
