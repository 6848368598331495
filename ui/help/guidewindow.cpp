// The guide's window: its sections in one page, a list of them to jump to.

#include "help/guidewindow.h"

#include "help/guidesections.h"

#include <QHBoxLayout>
#include <QListWidget>
#include <QSplitter>
#include <QTextBrowser>

namespace vramplan::ui {

GuideWindow::GuideWindow(QWidget *parent)
    : QWidget(parent, Qt::Window), m_example(workedExample()), m_contents(new QListWidget),
      m_browser(new QTextBrowser)
{
    setObjectName(QStringLiteral("guideWindow"));
    setWindowTitle(tr("vramplan Guide"));
    std::vector<GuideSection> sections = memorySections();
    sections.push_back({QStringLiteral("worked-example"),
                        tr("Worked example: a 7B model's bytes per parameter"),
                        workedExampleHtml(m_example)});
    for (auto &part : {techniqueSections(), windowSections()})
        sections.insert(sections.end(), part.begin(), part.end());

    QString html = QStringLiteral("<h1>%1</h1>").arg(tr("GPU memory in training and serving"));
    for (const GuideSection &section : sections) {
        auto *entry = new QListWidgetItem(section.title, m_contents);
        entry->setData(Qt::UserRole, section.anchor);
        html += QStringLiteral("<h2><a name=\"%1\"></a>%2</h2>%3")
                    .arg(section.anchor, section.title.toHtmlEscaped(), section.html);
    }
    m_browser->setObjectName(QStringLiteral("guideText"));
    m_browser->setOpenExternalLinks(true);
    m_browser->setHtml(html);
    m_contents->setObjectName(QStringLiteral("guideContents"));
    connect(m_contents, &QListWidget::currentItemChanged, this, [this](QListWidgetItem *item) {
        if (item)
            m_browser->scrollToAnchor(item->data(Qt::UserRole).toString());
    });

    auto *split = new QSplitter;
    split->addWidget(m_contents);
    split->addWidget(m_browser);
    split->setStretchFactor(0, 0);
    split->setStretchFactor(1, 1);
    split->setChildrenCollapsible(false);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);
    resize(1100, 760);
    // The contents as wide as their longest title (and a scroll bar), the text the rest.
    const int contentsWidth = m_contents->sizeHintForColumn(0) + 2 * m_contents->frameWidth() + 24;
    m_contents->setMaximumWidth(contentsWidth + contentsWidth / 4);
    split->setSizes({contentsWidth, width() - contentsWidth});
}

void GuideWindow::showSection(const QString &anchor)
{
    for (int i = 0; i < m_contents->count(); ++i)
        if (m_contents->item(i)->data(Qt::UserRole).toString() == anchor)
            m_contents->setCurrentRow(i);
    m_browser->scrollToAnchor(anchor);
}

} // namespace vramplan::ui
