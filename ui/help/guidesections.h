#pragma once
// The guide's text: one section per subject, in the order an engineer learns them (what memory
// a training step holds and why, what each technique changes, serving, then the window). Each
// section is one translated HTML string; the worked example's numbers are the estimator's
// (workedexample.h), put in when the guide opens.

#include <QString>

#include <vector>

namespace vramplan::ui {

struct GuideSection
{
    QString anchor; // "gradients": the link target of its entry in the contents
    QString title;
    QString html;   // the body, without its heading
};

// What one step of training holds: parameters, gradients, optimizer states, activations, logits
// and loss, temporaries, the framework, and how the three measured numbers differ.
std::vector<GuideSection> memorySections();
// What changes them: mixed precision, ZeRO/FSDP, recomputation, LoRA/QLoRA, parallelism; then
// serving, and the window itself.
std::vector<GuideSection> techniqueSections();
std::vector<GuideSection> windowSections();

} // namespace vramplan::ui
