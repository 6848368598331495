#include "document/fileactions.h"

#include "catalog.h"
#include "document/dialogs.h"
#include "document/document.h"
#include "document/importedmodels.h"
#include "document/scenariofile.h"
#include "document/scenarioname.h"
#include "document/settings.h"
#include "formats/scenario_json.h"

#include <QDir>
#include <QFileInfo>
#include <QMainWindow>
#include <QMenu>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTimer>
#include <QToolTip>
#include <QUndoStack>
#include <QUrl>

namespace vramplan::ui {
namespace {

Scenario defaultScenario()
{
    const auto parsed = scenarioFromText(Catalog::builtin().defaultScenarioText());
    return parsed ? *parsed.value : Scenario{};
}

} // namespace

FileActions::FileActions(Document *document, QMainWindow *window)
    : QObject(window), m_document(document), m_window(window),
      m_autosavePath(defaultAutosavePath()), m_autosaveTimer(new QTimer(this))
{
    // A few seconds after the last edit, not on every slider step.
    m_autosaveTimer->setSingleShot(true);
    m_autosaveTimer->setInterval(5000);
    connect(m_autosaveTimer, &QTimer::timeout, this, &FileActions::autosaveNow);
    connect(document->undoStack(), &QUndoStack::indexChanged, m_autosaveTimer,
            qOverload<>(&QTimer::start));
}

FileActions::~FileActions()
{
    m_autosaveTimer->stop();
}

void FileActions::addTo(QMenu *file)
{
    file->addAction(tr("&New"), QKeySequence::New, this, &FileActions::newDocument);
    file->addAction(tr("&Open..."), QKeySequence::Open, this, [this] {
        if (!maybeSave())
            return;
        const QString path = Dialogs::openFileName(
            m_window, tr("Open scenario"), QFileInfo(m_document->filePath()).absolutePath(),
            tr("vramplan scenarios (*.vramplan.json *.json);;All files (*)"));
        if (!path.isEmpty())
            openFile(path);
    });
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    refreshRecentMenu();
    file->addAction(tr("&Save"), QKeySequence::Save, this, &FileActions::save);
    QAction *saveAs = file->addAction(tr("Save &As..."), this, &FileActions::saveAs);
    // Qt's generic X11 bindings (a bare X server, no desktop) give Save As no key at all.
    QList<QKeySequence> keys = QKeySequence::keyBindings(QKeySequence::SaveAs);
    if (!keys.contains(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S)))
        keys << QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S);
    saveAs->setShortcuts(keys);
    file->addSeparator();
    file->addAction(tr("&Import Hugging Face config.json..."), this, [this] {
        const QString path =
            Dialogs::openFileName(m_window, tr("Import a Hugging Face config.json"), QString(),
                                  tr("config.json (*.json)"));
        if (!path.isEmpty())
            importHfConfig(path);
    });
    file->addAction(tr("Import Checkpoint &Folder..."), this, [this] {
        const QString path = Dialogs::existingDirectory(
            m_window, tr("Import a checkpoint folder (config.json and safetensors)"), QString());
        if (!path.isEmpty())
            importHfConfig(path);
    });
}

void FileActions::newDocument()
{
    if (maybeSave())
        startOver(defaultScenario());
}

void FileActions::startOver(const Scenario &scenario)
{
    // A tooltip still up (a breakdown segment's items) describes the scenario being replaced.
    QToolTip::hideText();
    m_document->reset(scenario);
}

bool FileActions::openFile(const QString &path)
{
    auto parsed = readScenarioFile(path);
    if (!parsed) {
        // A config.json opened by mistake: what the user is after is its model.
        if (isModelConfigFile(path))
            return Dialogs::confirm(
                       m_window, tr("Import the model config?"),
                       tr("%1 is a model config (a Hugging Face config.json), not a scenario. "
                          "Import its model into the current scenario?")
                           .arg(QFileInfo(path).fileName())) &&
                   importHfConfig(path);
        Dialogs::problem(m_window, tr("Cannot open the scenario"),
                         QString::fromStdString(parsed.error));
        return false;
    }
    startOver(*parsed.value);
    m_document->setFilePath(path);
    Settings::addRecentFile(QFileInfo(path).absoluteFilePath());
    refreshRecentMenu();
    return true;
}

bool FileActions::saveTo(const QString &path)
{
    const QString problem = writeScenarioFile(path, m_document->scenario());
    if (!problem.isEmpty()) {
        Dialogs::problem(m_window, tr("Cannot save the scenario"), problem);
        return false;
    }
    m_document->setFilePath(path);
    if (!m_autosavePath.isEmpty())
        QFile::remove(m_autosavePath);
    Settings::addRecentFile(QFileInfo(path).absoluteFilePath());
    refreshRecentMenu();
    return true;
}

bool FileActions::save()
{
    return m_document->filePath().isEmpty() ? saveAs() : saveTo(m_document->filePath());
}

bool FileActions::saveAs()
{
    const QString current = m_document->filePath();
    QString path = Dialogs::saveFileName(
        m_window, tr("Save scenario"),
        current.isEmpty() ? scenarioFileName(m_document->scenario()) : current,
        tr("vramplan scenarios (*.vramplan.json)"));
    if (path.isEmpty())
        return false;
    if (!path.endsWith(QLatin1String(".json")))
        path += QStringLiteral(".vramplan.json");
    return saveTo(path);
}

bool FileActions::importHfConfig(const QString &path)
{
    // A folder is a checkpoint (its config.json and the tensors its safetensors headers list).
    auto model = QFileInfo(path).isDir() ? readCheckpointFolderModel(path) : readHfConfigFile(path);
    if (!model) {
        Dialogs::problem(m_window, tr("Cannot import the config"),
                         QString::fromStdString(model.error));
        return false;
    }
    Scenario next = m_document->scenario();
    next.model = *model.value;
    if (const std::string problem = checkScenario(next); !problem.empty()) {
        Dialogs::problem(m_window, tr("Cannot import the config"),
                         QFileInfo(path).fileName() + QStringLiteral(": ") +
                             QString::fromStdString(problem));
        return false;
    }
    // The model keeps the name it was imported under (the preset picker, the scenario's name),
    // and the status bar says what was read from where.
    const QString name = importedModelName(path);
    rememberImportedModel(next.model, name);
    m_document->edit(next, tr("Import %1").arg(QFileInfo(path).fileName()));
    m_window->statusBar()->showMessage(
        tr("Imported %1 from %2").arg(name, QDir::toNativeSeparators(path)), 10000);
    return true;
}

void FileActions::openDropped(const QList<QUrl> &urls)
{
    for (const QUrl &url : urls) {
        const QString path = url.toLocalFile();
        if (path.isEmpty())
            continue;
        if (readScenarioFile(path)) {
            if (maybeSave())
                openFile(path);
        } else {
            importHfConfig(path);
        }
        return;
    }
}

bool FileActions::maybeSave()
{
    if (!m_document->isModified())
        return true;
    const auto answer = Dialogs::askToSave(m_window);
    if (answer == QMessageBox::Save)
        return save();
    return answer == QMessageBox::Discard;
}

void FileActions::closedCleanly()
{
    if (!m_autosavePath.isEmpty())
        QFile::remove(m_autosavePath);
}

QString FileActions::defaultAutosavePath()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) +
           QStringLiteral("/autosave.vramplan.json");
}

void FileActions::autosaveNow()
{
    if (m_autosavePath.isEmpty())
        return;
    if (!m_document->isModified()) {
        QFile::remove(m_autosavePath);
        return;
    }
    QDir().mkpath(QFileInfo(m_autosavePath).absolutePath());
    if (const QString problem = writeScenarioFile(m_autosavePath, m_document->scenario());
        !problem.isEmpty())
        m_window->statusBar()->showMessage(tr("Autosave failed: %1").arg(problem), 6000);
}

bool FileActions::recoverAutosave(const QString &path)
{
    auto parsed = readScenarioFile(path);
    if (!parsed)
        return false;
    // The recovered scenario is unsaved work on top of a new document: one undo step away.
    startOver(defaultScenario());
    m_document->edit(*parsed.value, tr("Recover unsaved work"));
    return m_document->isModified(); // identical to the default: nothing to recover
}

void FileActions::refreshRecentMenu()
{
    if (!m_recentMenu)
        return;
    m_recentMenu->clear();
    for (const QString &path : Settings::recentFiles())
        m_recentMenu
            ->addAction(QFileInfo(path).fileName(), this,
                        [this, path] {
                            if (maybeSave())
                                openFile(path);
                        })
            ->setToolTip(path);
    m_recentMenu->setEnabled(!m_recentMenu->isEmpty());
}

} // namespace vramplan::ui
