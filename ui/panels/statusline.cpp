#include "panels/statusline.h"

#include "charts/componentstyle.h"
#include "charts/ticklabels.h"
#include "formats/estimate_json.h"
#include "panels/warningmarks.h"

#include <QLabel>
#include <QPainter>
#include <QStyle>
#include <QStyleOption>

#include <algorithm>

namespace vramplan::ui {
namespace {

constexpr int gap = 12; // between the message and the counts

// A label that elides its text to the room it gets rather than demanding all of it: the
// verdict's less important parts give way first in a narrow window.
class ElidingLabel : public QLabel
{
public:
    using QLabel::QLabel;

    QSize minimumSizeHint() const override
    {
        return QSize(fontMetrics().horizontalAdvance(QStringLiteral("xxxx\u2026")),
                     QLabel::minimumSizeHint().height());
    }

protected:
    void paintEvent(QPaintEvent *) override
    {
        QPainter painter(this);
        const QRect room = contentsRect();
        style()->drawItemText(
            &painter, room, int(alignment()) | Qt::TextSingleLine, palette(), isEnabled(),
            fontMetrics().elidedText(text(), Qt::ElideRight, room.width()), foregroundRole());
    }
};

} // namespace

StatusLine::StatusLine(QWidget *parent)
    : QStatusBar(parent), m_peak(new QLabel), m_fit(new QLabel), m_phase(new ElidingLabel),
      m_warning(new ElidingLabel), m_counts(new ElidingLabel)
{
    addWidget(m_peak);
    addWidget(m_fit);
    addWidget(m_phase);
    addWidget(m_warning, 1);
    addPermanentWidget(m_counts);
    connect(this, &QStatusBar::messageChanged, this, [this](const QString &message) {
        setToolTip(message);
        update();
    });
}

void StatusLine::setEstimate(const Estimate &e, Unit unit, Mode mode)
{
    m_peak->setText(
        e.calibrated
            ? tr("Peak %1 per GPU (calibrated to your run)").arg(formatSize(e.peak.device, unit))
            : tr("Peak %1 per GPU").arg(formatSize(e.peak.device, unit)));
    if (e.fits) {
        m_fit->setText(tr("fits, %1 headroom").arg(formatSize(e.headroomBytes, unit)));
        m_fit->setStyleSheet(QStringLiteral("color: #2e7d32; font-weight: bold"));
    } else {
        m_fit->setText(tr("does not fit: over by %1").arg(formatSize(-e.headroomBytes, unit)));
        m_fit->setStyleSheet(
            QStringLiteral("color: %1; font-weight: bold").arg(overflowColor().name()));
    }
    m_phase->setText(tr("peak at %1").arg(phaseName(e.peak.phase)));
    m_phase->setToolTip(QString());
    // A server that would not start says so first, whatever the memory total: the engine's own
    // message in place of the phase (elided; whole in its tooltip and the Serving group).
    if (const std::string failure = servingFailureText(e.serving);
        e.serving.present && !failure.empty()) {
        m_fit->setText(tr("the engine would not start"));
        m_fit->setStyleSheet(
            QStringLiteral("color: %1; font-weight: bold").arg(overflowColor().name()));
        m_phase->setText(QString::fromStdString(failure));
        m_phase->setToolTip(m_phase->text());
    }
    showWarnings(e, unit);
    // Inference trains nothing: no trainable count.
    const QString total = formatCount(double(e.parameters.total));
    m_counts->setText(mode == Mode::Train
                          ? tr("%1 parameters, %2 trainable")
                                .arg(total, formatCount(double(e.trainableParameters)))
                          : tr("%1 parameters").arg(total));
}

void StatusLine::showWarnings(const Estimate &e, Unit unit)
{
    const auto warnings = warningsByField(e);
    QStringList texts;
    for (const auto &warning : warnings)
        texts << warning.first;
    m_warning->setVisible(!texts.isEmpty());
    m_warning->setText(texts.isEmpty() ? QString()
                       : texts.size() == 1
                           ? QStringLiteral("\u26a0 ") + texts.first()
                           : tr("\u26a0 %1 (+%2 more)").arg(texts.first()).arg(texts.size() - 1));
    m_warning->setToolTip(texts.join(QLatin1Char('\n')));
    m_warning->setStyleSheet(QStringLiteral("color: #b26a00"));
    // A knob the framework lacks: the memory would fit, the run cannot be set up as planned.
    const bool lacking = std::any_of(e.warnings.begin(), e.warnings.end(), [](const Warning &w) {
        return w.code == WarningCode::FrameworkLacks;
    });
    if (e.fits && lacking && !e.serving.present) {
        m_fit->setText(tr("would fit (%1 headroom), but the framework cannot run it")
                           .arg(formatSize(e.headroomBytes, unit)));
        m_fit->setStyleSheet(QStringLiteral("color: #b26a00; font-weight: bold"));
    }
}

QString StatusLine::text() const
{
    QStringList parts{m_peak->text(), m_fit->text(), m_phase->text()};
    if (!m_warning->text().isEmpty())
        parts << m_warning->text();
    return (parts << m_counts->text()).join(QStringLiteral(" | "));
}

QRect StatusLine::messageRect() const
{
    // From the left edge to the counts, with a gap before them.
    const int right = m_counts->isVisible() ? m_counts->geometry().left() - gap : width() - gap;
    return QRect(6, 0, std::max(0, right - 6), height());
}

QString StatusLine::shownMessage() const
{
    const QString message = currentMessage();
    if (message.isEmpty())
        return {};
    return fontMetrics().elidedText(message, Qt::ElideRight, messageRect().width());
}

void StatusLine::paintEvent(QPaintEvent *event)
{
    if (currentMessage().isEmpty()) {
        QStatusBar::paintEvent(event);
        return;
    }
    // QStatusBar draws a message up to the counts and cuts it mid-letter against them; this one
    // ends in "…" short of them.
    QPainter painter(this);
    QStyleOption option;
    option.initFrom(this);
    style()->drawPrimitive(QStyle::PE_PanelStatusBar, &option, &painter, this);
    if (m_counts->isVisible()) {
        QStyleOption frame(0);
        frame.rect = m_counts->geometry().adjusted(-2, -1, 2, 1);
        frame.palette = palette();
        frame.state = QStyle::State_None;
        style()->drawPrimitive(QStyle::PE_FrameStatusBarItem, &frame, &painter, m_counts);
    }
    painter.setPen(palette().windowText().color());
    painter.drawText(messageRect(), Qt::AlignLeading | Qt::AlignVCenter | Qt::TextSingleLine,
                     shownMessage());
}

} // namespace vramplan::ui
