// The Help menu: a short guide (F1) and About.

#include "document/helpmenu.h"

#include "document/dialogs.h"

#include <QAction>
#include <QApplication>
#include <QCoreApplication>
#include <QMenu>
#include <QMenuBar>

namespace vramplan::ui {
namespace {

// A short guide in the window itself: the docs are in the sources, not installed beside the
// program, so there is no local page to open in a browser.
void showHelp(QWidget *parent)
{
    Dialogs::about(
        parent, QCoreApplication::translate("HelpMenu", "vramplan Help"),
        QCoreApplication::translate(
            "HelpMenu",
            "<p><b>vramplan</b> estimates the memory each GPU needs for a training run or an "
            "inference server, item by item, and what to change when it does not fit.</p><ul>"
            "<li><b>Controls</b> (left): the model (a preset, or File &gt; Import Hugging Face "
            "config.json), batch and sequence, precision and optimizer, memory savers, "
            "parallelism, the GPU.</li>"
            "<li><b>Breakdown</b>: memory per GPU at the peak against the GPU's capacity; hover a "
            "segment for its largest items and their formulas.</li>"
            "<li><b>Make it fit</b>: changes that would make the run fit, best first; hover one to "
            "preview it, click to apply it (Ctrl+Z undoes it).</li>"
            "<li><b>Curves and timeline</b>: memory against micro-batch, sequence length and GPU "
            "count, and through one training step.</li>"
            "<li><b>Compare</b>: scenarios side by side (Ctrl+D adds the current one).</li></ul>"
            "<p>How each term is computed and how close the estimates come to measured runs: "
            "docs/accuracy.md, docs/models.md, docs/serving.md and docs/training_stacks.md in "
            "vramplan's sources.</p>"));
}

} // namespace

void addHelpMenu(QWidget *window, QMenuBar *menus)
{
    QMenu *help = menus->addMenu(QCoreApplication::translate("HelpMenu", "&Help"));
    QAction *guide = help->addAction(QCoreApplication::translate("HelpMenu", "vramplan &Help"),
                                     window, [window] { showHelp(window); });
    // F1 everywhere, beside the platform's own help key (Ctrl+? on macOS).
    QList<QKeySequence> keys = QKeySequence::keyBindings(QKeySequence::HelpContents);
    if (!keys.contains(QKeySequence(Qt::Key_F1)))
        keys << QKeySequence(Qt::Key_F1);
    guide->setShortcuts(keys);
    help->addAction(QCoreApplication::translate("HelpMenu", "&About vramplan"), window, [window] {
        Dialogs::about(window, QCoreApplication::translate("HelpMenu", "About vramplan"),
                       QCoreApplication::translate(
                           "HelpMenu",
                           "<b>vramplan</b> %1<br>Will this training run fit on my GPUs, and "
                           "what do I change if it doesn't?<br><br>GPL-3.0-or-later.")
                           .arg(QApplication::applicationVersion()));
    });
}

} // namespace vramplan::ui
