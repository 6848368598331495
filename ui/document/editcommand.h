#pragma once
// One edit of the scenario as an undo step, named for the undo menu ("Undo Change micro-batch").
// Consecutive edits made while one slider is held are merged into a single step (after Tiled's
// changevalue.h and qtbase's undoframework), and a step that ends where it began is dropped.

#include "scenario.h"

#include <QUndoCommand>

#include <functional>

namespace vramplan::ui {

class EditCommand : public QUndoCommand
{
public:
    using Apply = std::function<void(const Scenario &)>;

    // `what`: the step's name ("Change micro-batch"). `dragging`: made while a slider is held;
    // the step stays open for the next drag edit.
    EditCommand(Scenario before, Scenario after, const QString &what, bool dragging, Apply apply);
    // An edit that changes nothing (a slider released where it was) is obsolete: QUndoStack
    // drops it unless it merges into an open drag first.

    void undo() override;
    void redo() override;
    int id() const override { return 1; }
    bool mergeWith(const QUndoCommand *other) override;

private:
    Scenario m_before, m_after;
    bool m_open; // still being dragged: the next edit merges into this step
    Apply m_apply;
};

bool sameScenario(const Scenario &a, const Scenario &b);

} // namespace vramplan::ui
