#include "panels/fitchip.h"

#include "charts/componentstyle.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>

namespace vramplan::ui {
namespace {

constexpr int stripe = 4; // the kind's colour down the left edge
constexpr int padX = 8, padY = 3;

} // namespace

FitChip::FitChip(QWidget *parent) : QAbstractButton(parent)
{
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_Hover);
    setCursor(Qt::PointingHandCursor);
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
}

void FitChip::setContent(const QStringList &phrases, const QString &detail, const QColor &kind,
                         bool detailWarning, const QString &shortTitle)
{
    m_phrases = phrases;
    m_shortTitle = shortTitle;
    m_detail = detail;
    m_kind = kind;
    m_warning = detailWarning;
    setText(title() + QLatin1Char('\n') + detail); // QAbstractButton::text, for accessibility
    setAccessibleName(title());
    setAccessibleDescription(detail);
    updateGeometry();
    update();
}

QFont FitChip::detailFont() const
{
    QFont f = font();
    if (f.pointSizeF() > 0)
        f.setPointSizeF(f.pointSizeF() * 0.9);
    else
        f.setPixelSize(std::max(1, f.pixelSize() * 9 / 10));
    return f;
}

QSize FitChip::sizeHint() const
{
    // Wide enough for every phrase; a narrower layout gives less, and the title shortens.
    const QFontMetrics title(font());
    const QFontMetrics detail(detailFont());
    const int width =
        std::max(title.horizontalAdvance(this->title()), detail.horizontalAdvance(m_detail));
    return {stripe + 2 * padX + width + 2, 2 * padY + title.height() + detail.height() + 2};
}

QSize FitChip::minimumSizeHint() const
{
    const QFontMetrics detail(detailFont());
    return {stripe + 2 * padX + detail.horizontalAdvance(m_detail) / 2, sizeHint().height()};
}

QRect FitChip::textRect() const
{
    return rect().adjusted(stripe + padX, padY + 1, -padX, -padY - 1);
}

QString FitChip::shownTitle() const
{
    const QFontMetrics metrics(font());
    const int room = textRect().width();
    if (metrics.horizontalAdvance(title()) <= room)
        return title();
    // The panel's short title names what tells this chip from the others (issue 21 #19).
    if (!m_shortTitle.isEmpty() && metrics.horizontalAdvance(m_shortTitle) <= room)
        return m_shortTitle;
    // Whole phrases first; "+N" says how many more the tooltip lists.
    for (qsizetype shown = m_phrases.size(); shown > 1; --shown) {
        QString text = m_phrases.first(shown).join(QStringLiteral(", "));
        if (shown < m_phrases.size())
            text += QStringLiteral(" +%1").arg(m_phrases.size() - shown);
        if (metrics.horizontalAdvance(text) <= room)
            return text;
    }
    QString first = m_phrases.value(0);
    if (m_phrases.size() > 1)
        first += QStringLiteral(" +%1").arg(m_phrases.size() - 1);
    return metrics.elidedText(first, Qt::ElideRight, room);
}

void FitChip::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QPalette &pal = palette();
    const QRectF box = QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5);
    QPainterPath outline;
    outline.addRoundedRect(box, 4, 4);
    QColor fill = pal.color(QPalette::Base);
    if (isDown())
        fill = pal.color(QPalette::Midlight);
    else if (m_hovered)
        fill = pal.color(QPalette::AlternateBase);
    p.fillPath(outline, isEnabled() ? fill : pal.color(QPalette::Window));
    p.save();
    p.setClipPath(outline);
    p.fillRect(QRectF(box.left(), box.top(), stripe, box.height()),
               isEnabled() ? m_kind : pal.color(QPalette::Mid));
    p.restore();
    const bool active = m_focused || m_hovered;
    p.setPen(QPen(active ? pal.color(QPalette::Highlight) : pal.color(QPalette::Mid),
                  m_focused ? 2 : 1));
    p.drawPath(outline);

    const QRect text = textRect();
    const QFontMetrics titleMetrics(font());
    p.setPen(pal.color(isEnabled() ? QPalette::Active : QPalette::Disabled, QPalette::Text));
    p.setFont(font());
    p.drawText(QRect(text.left(), text.top(), text.width(), titleMetrics.height()),
               Qt::AlignLeft | Qt::AlignVCenter, shownTitle());
    const QFont small = detailFont();
    const QFontMetrics detailMetrics(small);
    p.setFont(small);
    QColor detailColor = m_warning ? overflowColor() : pal.color(QPalette::PlaceholderText);
    if (!isEnabled())
        detailColor = pal.color(QPalette::Disabled, QPalette::Text);
    p.setPen(detailColor);
    p.drawText(QRect(text.left(), text.top() + titleMetrics.height(), text.width(),
                     detailMetrics.height()),
               Qt::AlignLeft | Qt::AlignVCenter,
               detailMetrics.elidedText(m_detail, Qt::ElideRight, text.width()));
}

bool FitChip::event(QEvent *event)
{
    // Hover moves (WA_Hover): the panel holds the chips still after an apply until the pointer
    // moves (issue 21 #1).
    if (event->type() == QEvent::HoverMove)
        emit pointerMoved(mapToGlobal(static_cast<QHoverEvent *>(event)->position().toPoint()));
    return QAbstractButton::event(event);
}

void FitChip::mousePressEvent(QMouseEvent *event)
{
    m_pointerClick = true;
    m_pressPoint = event->globalPosition().toPoint();
    QAbstractButton::mousePressEvent(event);
}

void FitChip::mouseReleaseEvent(QMouseEvent *event)
{
    QAbstractButton::mouseReleaseEvent(event); // emits clicked() while m_pointerClick holds
    // A later click() from the keyboard or an accessibility action is not the pointer's.
    m_pointerClick = false;
}

void FitChip::keyPressEvent(QKeyEvent *event)
{
    m_pointerClick = false;
    // Enter applies, as on a default button; Space already clicks a QAbstractButton.
    if (event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter) {
        if (isEnabled())
            click();
        event->accept();
        return;
    }
    QAbstractButton::keyPressEvent(event);
}

void FitChip::setPreview(bool on)
{
    if (on == m_preview)
        return;
    m_preview = on;
    emit previewChanged(on);
}

void FitChip::enterEvent(QEnterEvent *event)
{
    QAbstractButton::enterEvent(event);
    m_hovered = true;
    setPreview(true);
    update();
}

void FitChip::leaveEvent(QEvent *event)
{
    QAbstractButton::leaveEvent(event);
    m_hovered = false;
    emit pointerLeft();
    setPreview(m_focusPreview);
    update();
}

void FitChip::focusInEvent(QFocusEvent *event)
{
    QAbstractButton::focusInEvent(event);
    m_focused = true;
    // Reached by the keyboard, the chip previews as a hovered one does; focus that a click
    // left behind does not keep a preview up once the pointer has gone.
    m_focusPreview =
        event->reason() == Qt::TabFocusReason || event->reason() == Qt::BacktabFocusReason;
    setPreview(m_hovered || m_focusPreview);
    update();
}

void FitChip::focusOutEvent(QFocusEvent *event)
{
    QAbstractButton::focusOutEvent(event);
    m_focused = false;
    m_focusPreview = false;
    setPreview(m_hovered);
    update();
}

} // namespace vramplan::ui
