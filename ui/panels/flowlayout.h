#pragma once
// A layout that places its items left to right and wraps them onto the next row where the width
// runs out (after Qt's Flow Layout example): the "Make it fit" panel's chips. An item wider than
// the layout gets the layout's width. Its height follows its width (heightForWidth), so a scroll
// area around it scrolls only vertically.

#include <QLayout>
#include <QList>

namespace vramplan::ui {

class FlowLayout : public QLayout
{
public:
    explicit FlowLayout(QWidget *parent = nullptr, int spacing = 6);
    ~FlowLayout() override;

    void addItem(QLayoutItem *item) override;
    int count() const override;
    QLayoutItem *itemAt(int index) const override;
    QLayoutItem *takeAt(int index) override;
    Qt::Orientations expandingDirections() const override;
    bool hasHeightForWidth() const override;
    int heightForWidth(int width) const override;
    QSize minimumSize() const override;
    QSize sizeHint() const override;
    void setGeometry(const QRect &rect) override;

private:
    int arrange(const QRect &rect, bool apply) const; // the height used

    QList<QLayoutItem *> m_items;
    int m_gap;
};

} // namespace vramplan::ui
