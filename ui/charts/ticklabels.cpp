#include "charts/ticklabels.h"

#include <QFontMetrics>
#include <QStringList>

#include <algorithm>

namespace vramplan::ui {
namespace {

int widestLine(const QString &text, const QFontMetrics &metrics)
{
    int widest = 0;
    for (const QString &line : text.split(QLatin1Char('\n')))
        widest = std::max(widest, metrics.horizontalAdvance(line));
    return widest;
}

// Broken at the space that balances two lines ("start of backward (loss)" -> "start of" /
// "backward (loss)"), else word by word onto as few lines as fit.
QString wrapped(const QString &label, const QFontMetrics &metrics, int width)
{
    if (metrics.horizontalAdvance(label) <= width)
        return label;
    int best = -1;
    int bestWidth = 0;
    for (int i = 0; i < label.size(); ++i) {
        if (label[i] != QLatin1Char(' '))
            continue;
        const int w = std::max(metrics.horizontalAdvance(label.left(i)),
                               metrics.horizontalAdvance(label.mid(i + 1)));
        if (best < 0 || w < bestWidth) {
            bestWidth = w;
            best = i;
        }
    }
    if (best >= 0 && bestWidth <= width)
        return label.left(best) + QLatin1Char('\n') + label.mid(best + 1);
    QStringList lines;
    for (const QString &word : label.split(QLatin1Char(' '))) {
        if (!lines.isEmpty() &&
            metrics.horizontalAdvance(lines.back() + QLatin1Char(' ') + word) <= width)
            lines.back() += QLatin1Char(' ') + word;
        else
            lines << word;
    }
    return lines.join(QLatin1Char('\n'));
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
    const std::string_view label = phaseLabel(phase);
    return QString::fromUtf8(label.data(), qsizetype(label.size()));
}

QString phaseShortName(Phase phase)
{
    switch (phase) {
    case Phase::Forward:
        return QStringLiteral("forward");
    case Phase::LossBackward:
        return QStringLiteral("loss");
    case Phase::LayerBackward:
        return QStringLiteral("last layer");
    case Phase::BackwardEnd:
        return QStringLiteral("backward");
    case Phase::OptimizerStep:
        return QStringLiteral("optimizer");
    case Phase::Validation:
        return QStringLiteral("validation");
    case Phase::Generation:
        return QStringLiteral("generation");
    case Phase::Initialisation:
        return QStringLiteral("model load");
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
    QStringList lines;
    for (const QString &word : text.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        if (!lines.isEmpty() &&
            metrics.horizontalAdvance(lines.back() + QLatin1Char(' ') + word) <= width)
            lines.back() += QLatin1Char(' ') + word;
        else
            lines << word;
    }
    if (lines.size() > maxLines) {
        QStringList rest = lines.mid(maxLines - 1);
        lines = lines.mid(0, maxLines - 1);
        lines << rest.join(QLatin1Char(' '));
    }
    for (QString &line : lines)
        line = orEllipsis(metrics.elidedText(line, Qt::ElideRight, width));
    return lines.isEmpty() ? orEllipsis(QString()) : lines.join(QLatin1Char('\n'));
}

} // namespace vramplan::ui
