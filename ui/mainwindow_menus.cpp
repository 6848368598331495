// MainWindow's menus: File, Edit, View (units, layout, language), Compare and Help, built
// once; the window's layout and the plan's updates are in mainwindow.cpp.

#include "mainwindow.h"
#include "document/comparisonactions.h"
#include "document/dialogs.h"
#include "document/document.h"
#include "document/exportactions.h"
#include "document/fileactions.h"
#include "document/helpmenu.h"
#include "document/language.h"
#include "document/settings.h"
#include "document/undokeys.h"
#include "imports/setupimportactions.h"
#include "panels/calibrationdialog.h"
#include "panels/controlspanel.h"
#include "panels/presetpicker.h"
#include "runs/measuredrunactions.h"

#include <QActionGroup>
#include <QMenuBar>
#include <QScrollArea>
#include <QStatusBar>
#include <QUndoStack>

namespace vramplan::ui {

void MainWindow::buildMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    m_fileActions->addTo(file);
    m_measuredRuns->addTo(file);
    m_setupImports->addTo(file);
    m_exportActions->addTo(file);
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setObjectName(QStringLiteral("quit"));
    quit->setShortcut(QKeySequence::Quit);
    quit->setMenuRole(QAction::QuitRole);
    buildEditMenu();
    m_comparisonActions->addTo(menuBar()->addMenu(tr("&Compare")));
    buildViewMenu();
    addHelpMenu(this, menuBar());
}

void MainWindow::buildEditMenu()
{
    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    // Also while a control's spin box or line edit holds the cursor (its own undo would take
    // the key).
    new UndoKeys(m_controls, m_document->undoStack());
    // "Undo Change micro-batch": the step's name after the verb, the verb in vramplan's own
    // words (Qt's translation of it may not be installed).
    QAction *undo = m_document->undoStack()->createUndoAction(this, tr("Undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction *redo = m_document->undoStack()->createRedoAction(this, tr("Redo"));
    redo->setShortcut(QKeySequence::Redo);
    edit->addAction(undo);
    edit->addAction(redo);
    edit->addSeparator();
    // From anywhere in the window: type part of a preset's name.
    QAction *findPreset =
        edit->addAction(tr("&Find Model Preset"), QKeySequence::Find, this, [this] {
            auto *viewport = m_controls->parentWidget();
            if (auto *scroll =
                    qobject_cast<QScrollArea *>(viewport ? viewport->parentWidget() : nullptr))
                scroll->ensureWidgetVisible(m_controls->presetPicker());
            m_controls->presetPicker()->startSearch();
        });
    findPreset->setObjectName(QStringLiteral("findPreset"));
    edit->addAction(tr("&Calibrate from My Run..."), QKeySequence(tr("Ctrl+K")), this, [this] {
        CalibrationDialog dialog(scenario(), m_unit, this);
        if (Dialogs::exec(&dialog) == QDialog::Accepted)
            setCalibration(dialog.calibration());
    });
    m_clearCalibration =
        edit->addAction(tr("Clear Calibration"), this, [this] { setCalibration({}); });
}

void MainWindow::buildViewMenu()
{
    QMenu *view = menuBar()->addMenu(tr("&View"));
    auto *units = new QActionGroup(this);
    QAction *gib = view->addAction(tr("Sizes in &GiB (2^30 bytes)"));
    QAction *gb = view->addAction(tr("Sizes in G&B (10^9 bytes)"));
    for (QAction *a : {gib, gb}) {
        a->setCheckable(true);
        units->addAction(a);
    }
    (m_unit == Unit::GiB ? gib : gb)->setChecked(true);
    connect(gib, &QAction::triggered, this, [this] { setUnit(Unit::GiB); });
    connect(gb, &QAction::triggered, this, [this] { setUnit(Unit::GB); });
    buildLanguageMenu(view);
}

void MainWindow::buildLanguageMenu(QMenu *view)
{
    QMenu *menu = view->addMenu(tr("&Language"));
    menu->setObjectName(QStringLiteral("languageMenu"));
    auto *group = new QActionGroup(this);
    // Each language by its own name, which a reader of that language finds whatever the window
    // speaks now.
    const std::pair<Language, QString> languages[] = {
        {Language::System, tr("System Default")},
        {Language::English, QStringLiteral("English")},
        {Language::SimplifiedChinese, QStringLiteral(u"\u7b80\u4f53\u4e2d\u6587")}};
    const Language chosen = Settings::language();
    for (const auto &[language, name] : languages) {
        QAction *action = menu->addAction(name);
        action->setObjectName(QStringLiteral("language_") + languageKey(language));
        action->setCheckable(true);
        action->setChecked(language == chosen);
        group->addAction(action);
        connect(action, &QAction::triggered, this,
                [this, language = language] { chooseLanguage(language); });
    }
}

void MainWindow::chooseLanguage(Language language)
{
    if (language == Settings::language())
        return;
    Settings::setLanguage(language);
    const QString next = translationFor(language);
    if (next == installedTranslation())
        return;
    // Said in the language now shown and in the one chosen: the window is built in one language,
    // so the other one comes at the next start.
    const char *context = "vramplan::ui::MainWindow";
    const char *source = QT_TRANSLATE_NOOP("vramplan::ui::MainWindow",
                                           "The language changes when vramplan next starts.");
    QString text = translatedInto(installedTranslation(), context, source);
    const QString then = translatedInto(next, context, source);
    if (then != text)
        text += QLatin1Char('\n') + then;
    statusBar()->showMessage(text, 10000);
    Dialogs::inform(this, tr("Language"), text);
}

} // namespace vramplan::ui
