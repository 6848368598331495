#pragma once
// The estimator's warnings (estimate.h) on the controls they concern: a sequence longer than
// the model's positions on the Sequence slider, a knob the framework lacks on that knob and on
// the framework, eager attention's square scores on Attention. A marked control gets an amber
// frame and the warning first in its tooltip, so that the user sees it where they are looking
// (issue 21 #3); the status line says it too.

#include "estimate.h"

#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>

class QWidget;

namespace vramplan::ui {

// The scenario fields a warning concerns ("training.sequence_length"), most specific first;
// none for a warning about the whole run (it does not fit, figures clamped).
QStringList warningFields(const vramplan::Warning &warning);

// Each warning's text (the core's words, in English) with the fields it concerns.
QList<QPair<QString, QStringList>> warningsByField(const vramplan::Estimate &estimate);

// Marks `control` as warned (`text` non-empty) or clears the mark; the warning goes before
// what its tooltip said.
void markWarning(QWidget *control, const QString &text);
// The warning a control is marked with, or empty (for tests and the tooltip).
QString warningOf(const QWidget *control);

} // namespace vramplan::ui
