#pragma once
// One suggestion of the "Make it fit" panel as a chip: its changes in a line ("ZeRO 0 → 3,
// optimizer → CPU"; as many as the width holds, then "+2"), its peak and relative time below
// ("67.6 GiB · 3.1× time"), a stripe in the colour of its kind. A button: clicked, or Enter or
// Space while focused, applies it; hovered or focused, it asks for a preview.

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
    void setContent(const QStringList &phrases, const QString &detail, const QColor &kind,
                    bool detailWarning = false);
    // Every phrase, ", " between them.
    QString title() const { return m_phrases.join(QStringLiteral(", ")); }
    QString detail() const { return m_detail; }
    // The title as drawn: the phrases that fit the chip's width, "+N" for the rest.
    QString shownTitle() const;
    // Hovered, or focused from the keyboard: its preview is wanted.
    bool previewing() const { return m_preview; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    // The pointer entered (or focus arrived), or left.
    void previewChanged(bool on);

protected:
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
    QColor m_kind;
    bool m_warning = false;
    bool m_hovered = false, m_focused = false, m_focusPreview = false, m_preview = false;
};

} // namespace vramplan::ui
