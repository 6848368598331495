#pragma once
// Names under bars, fitted to the width of a bar's slot so that neighbours never run together.
// The timeline's phases: the phase's name ("start of backward (loss)"), broken over lines where
// it is too wide; where even its longest word is too wide, a short name ("loss"); where that is
// too wide, the short name elided. The comparison's scenario names: broken over lines, the last
// one elided. Lines break at spaces, and between the characters of Chinese text, which has none.
// The names are in the window's language (the core's phaseLabel() is the English one).

#include "estimate.h"

#include <QString>

class QFontMetrics;

namespace vramplan::ui {

QString phaseName(vramplan::Phase phase);      // "start of backward (loss)"
QString phaseShortName(vramplan::Phase phase); // "loss"
// The label for a slot `width` pixels wide; every line of it at most that wide.
QString phaseTickLabel(vramplan::Phase phase, const QFontMetrics &metrics, int width);
// A label over two lines, broken after its colon ("GPU capacity:" / "79.65 GiB"); the full-width
// colon of a Chinese label too.
QString brokenAfterColon(QString text);
// `text` over at most `maxLines` lines of at most `width` pixels, the last one elided.
QString fittedLabel(const QString &text, const QFontMetrics &metrics, int width, int maxLines);

} // namespace vramplan::ui
