#pragma once
// The Compare menu: add the current scenario, open scenario files side by side or a saved
// comparison, save the comparison; and an entry loaded back into the editor (the entry's
// context menu), as one undoable edit.

#include "formats/comparison.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <functional>

class QMainWindow;
class QMenu;

namespace vramplan::ui {

class ComparisonView;
class Document;

class ComparisonActions : public QObject
{
    Q_OBJECT

public:
    // `show` brings the comparison page into view.
    ComparisonActions(Document *document, ComparisonView *view, QMainWindow *window,
                      std::function<void()> show);

    void addTo(QMenu *compare);

    void addCurrent();
    // Scenario files side by side, each named by its scenario's name (else by its file); false
    // (and a message) if any cannot be read. An entry whose name another already has is named
    // apart by what differs (entryLabel).
    bool compareFiles(const QStringList &paths);
    bool openComparison(const QString &path);
    // Entry `index` becomes the scenario being planned.
    void loadIntoEditor(int index);

    // The name an entry gets among `others` (issue 21 #8): an inference server whose name
    // follows its settings is named by what tells servers apart (servingnames.h), and a name an
    // entry already has gets what differs from it ("..., block_size 32"), else a number.
    static QString entryLabel(const QString &name, const Scenario &scenario,
                              const std::vector<ComparisonEntry> &others);

private:
    Document *m_document;
    ComparisonView *m_view;
    QMainWindow *m_window;
    std::function<void()> m_show;
};

} // namespace vramplan::ui
