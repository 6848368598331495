#pragma once
// The File menu's document half: New, Open (and Open Recent), Save, Save As, Import a Hugging
// Face config.json, files dropped on the window, and the autosave: unsaved work is written a few
// seconds after an edit and removed when the document is saved or closed cleanly; after a crash
// it is offered back.

#include "scenario.h"

#include <QObject>
#include <QString>

class QMainWindow;
class QMenu;
class QTimer;
class QUrl;

namespace vramplan::ui {

class Document;

class FileActions : public QObject
{
    Q_OBJECT

public:
    FileActions(Document *document, QMainWindow *window);
    ~FileActions() override;

    // New, Open..., Open Recent, Save, Save As..., a separator, Import...
    void addTo(QMenu *file);

    // Each reports a problem (status bar, message box) and leaves the document untouched.
    bool openFile(const QString &path);
    bool saveTo(const QString &path);
    bool save();
    bool saveAs();
    // A config.json, or a checkpoint folder (config.json with safetensors headers or an index).
    bool importHfConfig(const QString &path);
    // A scenario file opens; any other file is taken for a Hugging Face config.json.
    void openDropped(const QList<QUrl> &urls);
    // Asks to save unsaved work first: false when the user cancels.
    bool maybeSave();
    // The document is closed on purpose (saved or discarded): nothing left to recover.
    void closedCleanly();

    static QString defaultAutosavePath();
    void setAutosavePath(const QString &path) { m_autosavePath = path; }
    QString autosavePath() const { return m_autosavePath; }
    void autosaveNow();
    // Opens an autosaved scenario as unsaved work (modified, no file name); false if unusable.
    bool recoverAutosave(const QString &path);

private:
    void newDocument();
    // The document replaced by another scenario (New, Open, a recovery).
    void startOver(const Scenario &scenario);
    void refreshRecentMenu();

    Document *m_document;
    QMainWindow *m_window;
    QMenu *m_recentMenu = nullptr;
    QString m_autosavePath;
    QTimer *m_autosaveTimer;
};

} // namespace vramplan::ui
