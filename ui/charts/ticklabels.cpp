#include "charts/ticklabels.h"

#include <QCoreApplication>
#include <QFontMetrics>
#include <QStringList>

#include <algorithm>
#include <vector>

namespace vramplan::ui {
namespace {

struct Words
{
    Q_DECLARE_TR_FUNCTIONS(vramplan::ui::TickLabels)
};

int widestLine(const QString &text, const QFontMetrics &metrics)
{
    int widest = 0;
    for (const QString &line : text.split(QLatin1Char('\n')))
        widest = std::max(widest, metrics.horizontalAdvance(line));
    return widest;
}

// Chinese (and Japanese, Korean) text has no spaces: a line may break between any two of its
// characters, except before closing punctuation or after opening punctuation.
bool isWide(QChar c)
{
    return c.unicode() >= 0x2e80;
}

bool opens(QChar c)
{
    return QStringView(u"(\uff08\u300c\u300e\u3010\u201c").contains(c);
}

bool closes(QChar c)
{
    return QStringView(
               u")\uff09\u300d\u300f\u3011\u201d\uff0c\u3002\u3001\uff1b\uff1a\uff01\uff1f:;,.")
        .contains(c);
}

// The pieces a label may break between: words at its spaces (which a break drops) and, in
// wide text, single characters (a break there adds nothing).
struct Piece
{
    QString text;
    bool spaceBefore = false;
};

std::vector<Piece> pieces(const QString &text)
{
    std::vector<Piece> out;
    bool space = false;
    for (const QString &word : text.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        Piece piece{QString(), space && !out.empty()};
        for (qsizetype i = 0; i < word.size(); ++i) {
            const bool breakable = i > 0 && (isWide(word[i - 1]) || isWide(word[i])) &&
                                   !closes(word[i]) && !opens(word[i - 1]);
            if (breakable && !piece.text.isEmpty()) {
                out.push_back(piece);
                piece = Piece{};
            }
            piece.text += word[i];
        }
        out.push_back(piece);
        space = true;
    }
    return out;
}

QString joined(const std::vector<Piece> &parts, size_t from, size_t to)
{
    QString out;
    for (size_t i = from; i < to; ++i)
        out += (i > from && parts[i].spaceBefore ? QStringLiteral(" ") : QString()) + parts[i].text;
    return out;
}

// Pieces onto as few lines of at most `width` pixels as they go, in order; `counts` gets the
// number of pieces on each line.
QStringList filled(const std::vector<Piece> &parts, const QFontMetrics &metrics, int width,
                   std::vector<size_t> *counts = nullptr)
{
    QStringList lines;
    std::vector<size_t> perLine;
    for (const Piece &piece : parts) {
        const QString next =
            lines.isEmpty()
                ? QString()
                : lines.back() + (piece.spaceBefore ? QStringLiteral(" ") : QString()) + piece.text;
        if (!lines.isEmpty() && metrics.horizontalAdvance(next) <= width) {
            lines.back() = next;
            ++perLine.back();
        } else {
            lines << piece.text;
            perLine.push_back(1);
        }
    }
    if (counts)
        *counts = perLine;
    return lines;
}

// Broken where it balances two lines ("start of backward (loss)" -> "start of" /
// "backward (loss)"), else piece by piece onto as few lines as fit.
QString wrapped(const QString &label, const QFontMetrics &metrics, int width)
{
    if (metrics.horizontalAdvance(label) <= width)
        return label;
    const std::vector<Piece> parts = pieces(label);
    size_t best = 0;
    int bestWidth = 0;
    for (size_t i = 1; i < parts.size(); ++i) {
        const int w = std::max(metrics.horizontalAdvance(joined(parts, 0, i)),
                               metrics.horizontalAdvance(joined(parts, i, parts.size())));
        if (best == 0 || w < bestWidth) {
            bestWidth = w;
            best = i;
        }
    }
    if (best > 0 && bestWidth <= width)
        return joined(parts, 0, best) + QLatin1Char('\n') + joined(parts, best, parts.size());
    return filled(parts, metrics, width).join(QLatin1Char('\n'));
}

// Never an empty label: QCustomPlot caches each tick label as a pixmap, and an empty one makes
// QPainter warn on stderr.
QString orEllipsis(const QString &text)
{
    return text.isEmpty() ? QString(QChar(0x2026)) : text;
}

} // namespace

QString phaseName(Phase phase)
{
    // The core's phaseLabel() words, in the window's language.
    switch (phase) {
    case Phase::Forward:
        return Words::tr("end of forward");
    case Phase::LossBackward:
        return Words::tr("start of backward (loss)");
    case Phase::LayerBackward:
        return Words::tr("backward of the last layer");
    case Phase::BackwardEnd:
        return Words::tr("end of backward");
    case Phase::OptimizerStep:
        return Words::tr("optimizer step");
    case Phase::Validation:
        return Words::tr("validation pass");
    case Phase::Generation:
        return Words::tr("text generation");
    case Phase::Initialisation:
        return Words::tr("model load (initialisation)");
    }
    const std::string_view label = phaseLabel(phase);
    return QString::fromUtf8(label.data(), qsizetype(label.size()));
}

QString phaseShortName(Phase phase)
{
    switch (phase) {
    case Phase::Forward:
        return Words::tr("forward", "a phase's short name");
    case Phase::LossBackward:
        return Words::tr("loss", "a phase's short name");
    case Phase::LayerBackward:
        return Words::tr("last layer", "a phase's short name");
    case Phase::BackwardEnd:
        return Words::tr("backward", "a phase's short name");
    case Phase::OptimizerStep:
        return Words::tr("optimizer", "a phase's short name");
    case Phase::Validation:
        return Words::tr("validation", "a phase's short name");
    case Phase::Generation:
        return Words::tr("generation", "a phase's short name");
    case Phase::Initialisation:
        return Words::tr("model load", "a phase's short name");
    }
    return phaseName(phase);
}

QString phaseTickLabel(Phase phase, const QFontMetrics &metrics, int width)
{
    // Three lines at most: more would push the axis title off a short chart.
    const QString full = wrapped(phaseName(phase), metrics, width);
    if (widestLine(full, metrics) <= width && full.count(QLatin1Char('\n')) < 3)
        return full;
    const QString brief = wrapped(phaseShortName(phase), metrics, width);
    if (widestLine(brief, metrics) <= width)
        return brief;
    return orEllipsis(metrics.elidedText(phaseShortName(phase), Qt::ElideRight, width));
}

QString fittedLabel(const QString &text, const QFontMetrics &metrics, int width, int maxLines)
{
    const std::vector<Piece> parts = pieces(text);
    std::vector<size_t> counts;
    QStringList lines = filled(parts, metrics, width, &counts);
    if (lines.size() > maxLines) {
        // The rest on the last line, elided.
        size_t used = 0;
        for (int line = 0; line < maxLines - 1; ++line)
            used += counts[size_t(line)];
        lines = lines.mid(0, maxLines - 1);
        lines << joined(parts, used, parts.size());
    }
    for (QString &line : lines)
        line = orEllipsis(metrics.elidedText(line, Qt::ElideRight, width));
    return lines.isEmpty() ? orEllipsis(QString()) : lines.join(QLatin1Char('\n'));
}

QString brokenAfterColon(QString text)
{
    return text.replace(QStringLiteral(": "), QStringLiteral(":\n"))
        .replace(QStringLiteral("\uff1a"), QStringLiteral("\uff1a\n"));
}

} // namespace vramplan::ui
