// The Help menu: the guide (F1), "How this is computed" (Ctrl+I) and About.

#include "document/helpmenu.h"

#include "document/dialogs.h"
#include "help/guidewindow.h"
#include "help/howcomputedwindow.h"
#include "mainwindow.h"

#include <QAction>
#include <QApplication>
#include <QCoreApplication>
#include <QMenu>
#include <QMenuBar>

#include <nlohmann/json.hpp>
#include <qcustomplot.h>

namespace vramplan::ui {
namespace {

// The menu's words, in the translation context its strings have always had.
struct Words
{
    Q_DECLARE_TR_FUNCTIONS(HelpMenu)
};

// One window of a kind per planner window, made when first asked for and then reused, so that
// F1 pressed twice raises the guide instead of opening a second one.
template <typename View> View *shownView(MainWindow *window)
{
    View *view = window->findChild<View *>(QString(), Qt::FindDirectChildrenOnly);
    if (!view)
        view = new View(window);
    view->show();
    view->raise();
    view->activateWindow();
    return view;
}

} // namespace

GuideWindow *showGuide(MainWindow *window)
{
    return shownView<GuideWindow>(window);
}

HowComputedWindow *showHowComputed(MainWindow *window)
{
    return shownView<HowComputedWindow>(window);
}

QString aboutText()
{
    // The versions the headers give (QCustomPlot's and nlohmann_json's are compiled in, header
    // only or linked statically as Debian ships them); Qt's both at build and at run time, since
    // a different Qt may be loaded.
    const QString json = QStringLiteral("%1.%2.%3")
                             .arg(NLOHMANN_JSON_VERSION_MAJOR)
                             .arg(NLOHMANN_JSON_VERSION_MINOR)
                             .arg(NLOHMANN_JSON_VERSION_PATCH);
    return Words::tr("<b>vramplan</b> %1<br>Will this training run fit on my GPUs, and what do I "
                     "change if it doesn't?<br><br>Built with Qt %2, running on Qt %3; "
                     "QCustomPlot %4 draws the charts; nlohmann_json %5 reads and writes the "
                     "files.<br><br>vramplan is free software under the GNU General Public "
                     "License, version 3 or later (GPL-3.0-or-later), with no warranty. Qt is "
                     "used under the GNU LGPL 3.0, QCustomPlot under the GNU GPL 3.0, "
                     "nlohmann_json under the MIT licence.")
        .arg(QApplication::applicationVersion(), QStringLiteral(QT_VERSION_STR),
             QString::fromLatin1(qVersion()), QStringLiteral(QCUSTOMPLOT_VERSION_STR), json);
}

void addHelpMenu(MainWindow *window, QMenuBar *menus)
{
    QMenu *help = menus->addMenu(Words::tr("&Help"));
    QAction *guide = help->addAction(Words::tr("vramplan &Guide"), window,
                                     [window] { showGuide(window); });
    guide->setObjectName(QStringLiteral("helpGuide"));
    // F1 everywhere, beside the platform's own help key (Ctrl+? on macOS).
    QList<QKeySequence> keys = QKeySequence::keyBindings(QKeySequence::HelpContents);
    if (!keys.contains(QKeySequence(Qt::Key_F1)))
        keys << QKeySequence(Qt::Key_F1);
    guide->setShortcuts(keys);
    QAction *computed = help->addAction(Words::tr("How This Is &Computed"), window,
                                        [window] { showHowComputed(window); });
    computed->setObjectName(QStringLiteral("helpHowComputed"));
    computed->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_I));
    help->addSeparator();
    QAction *about = help->addAction(Words::tr("&About vramplan"), window, [window] {
        Dialogs::about(window, Words::tr("About vramplan"), aboutText());
    });
    about->setObjectName(QStringLiteral("helpAbout"));
    about->setMenuRole(QAction::AboutRole);
}

} // namespace vramplan::ui
