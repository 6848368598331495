#pragma once
// One suggestion of the "Make it fit" panel as a chip: its changes in a line ("ZeRO 0 → 3,
// optimizer → CPU"; as many as the width holds, then "+2"), its peak and relative time below
// ("67.6 GiB · 3.1× time"), a stripe in the colour of its kind. A button: clicked, or Enter or
// Space while focused, applies it; hovered or focused, it asks for a preview. Where the width
// does not hold every phrase it draws its short title, which the panel makes differ from every
// other chip's (chipTitles(): the change that tells two suggestions apart is named, not
// counted in "+N").

#include <QAbstractButton>
#include <QColor>
#include <QStringList>

namespace vramplan::ui {

class FitChip : public QAbstractButton
{
    Q_OBJECT

public:
    explicit FitChip(QWidget *parent = nullptr);

    // `detailWarning`: the detail is bad news (the nearest, which does not fit), drawn in red.
    // `shortTitle`: the title when the width does not hold every phrase (chipTitles()).
    void setContent(const QStringList &phrases, const QString &detail, const QColor &kind,
                    bool detailWarning = false, const QString &shortTitle = QString());
    // Every phrase, ", " between them.
    QString title() const { return m_phrases.join(QStringLiteral(", ")); }
    QString detail() const { return m_detail; }
    // The title as drawn: the phrases that fit the chip's width, "+N" for the rest.
    QString shownTitle() const;
    // Hovered, or focused from the keyboard: its preview is wanted.
    bool previewing() const { return m_preview; }
    // The last click came from the pointer (not Enter or Space), pressed at this global point.
    bool clickedByPointer() const { return m_pointerClick; }
    QPoint pressPoint() const { return m_pressPoint; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    // The pointer entered (or focus arrived), or left.
    void previewChanged(bool on);
    // The pointer moved over the chip (global point), or left it.
    void pointerMoved(const QPoint &global);
    void pointerLeft();

protected:
    bool event(QEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void paintEvent(QPaintEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void enterEvent(QEnterEvent *event) override;
    void leaveEvent(QEvent *event) override;
    void focusInEvent(QFocusEvent *event) override;
    void focusOutEvent(QFocusEvent *event) override;

private:
    QRect textRect() const;
    QFont detailFont() const;
    void setPreview(bool on);

    QStringList m_phrases;
    QString m_detail;
    QString m_shortTitle;
    QColor m_kind;
    QPoint m_pressPoint;
    bool m_pointerClick = false;
    bool m_warning = false;
    bool m_hovered = false, m_focused = false, m_focusPreview = false, m_preview = false;
};

} // namespace vramplan::ui
