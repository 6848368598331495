#pragma once
// The scenario being planned, its history and its file: one PlanController (the scenario and
// everything drawn from it), one QUndoStack of named edits, and the path it was opened from or
// saved to. Everything that changes the scenario goes through here, so every change can be
// undone and the name follows the settings until the user names it (scenarioname.h).

#include "scenario.h"

#include <QObject>
#include <QString>

class QUndoStack;

namespace vramplan::ui {

class PlanController;

class Document : public QObject
{
    Q_OBJECT

public:
    explicit Document(QObject *parent = nullptr);
    ~Document() override;

    PlanController *controller() const { return m_controller; }
    QUndoStack *undoStack() const { return m_undo; }
    const Scenario &scenario() const;

    // A new document: history cleared, not modified, no file.
    void reset(const Scenario &scenario);
    // One undoable edit, named for the undo menu ("Change micro-batch"); while `dragging` (a
    // slider held) the edits merge into one step.
    void edit(const Scenario &after, const QString &what, bool dragging = false);
    bool isModified() const;

    QString filePath() const { return m_path; }
    void setFilePath(const QString &path); // after opening or saving; marks the document clean
    // What the title shows: the file's name once there is one, else the scenario's name.
    QString displayName() const;

signals:
    // The scenario changed (an edit, its undo or redo, a reset): the controls follow. Emitted
    // before the controller re-estimates and publishes what it draws.
    void applied(const vramplan::Scenario &scenario);
    // The path or the modified state changed (for the window's title).
    void titleChanged();

private:
    void apply(const Scenario &scenario);

    PlanController *m_controller;
    QUndoStack *m_undo;
    QString m_path;
};

} // namespace vramplan::ui
