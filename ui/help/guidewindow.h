#pragma once
// The guide (Help > vramplan Guide, F1): a window of its own beside the planner, not a modal
// dialog, so that it can stay open while the controls are used. Contents on the left, the text
// on the right; the worked example's numbers are computed by the estimator when it opens.

#include "help/workedexample.h"

#include <QWidget>

class QListWidget;
class QTextBrowser;

namespace vramplan::ui {

class GuideWindow : public QWidget
{
    Q_OBJECT

public:
    explicit GuideWindow(QWidget *parent = nullptr);

    QTextBrowser *browser() const { return m_browser; }
    QListWidget *contents() const { return m_contents; }
    const WorkedExample &example() const { return m_example; }
    // Scrolls the text to a section ("gradients", "worked-example", ...).
    void showSection(const QString &anchor);

private:
    WorkedExample m_example;
    QListWidget *m_contents;
    QTextBrowser *m_browser;
};

} // namespace vramplan::ui
