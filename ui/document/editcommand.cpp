#include "document/editcommand.h"

#include "formats/scenario_json.h"

#include <QCoreApplication>

namespace vramplan::ui {

bool sameScenario(const Scenario &a, const Scenario &b)
{
    return scenarioToJson(a) == scenarioToJson(b);
}

EditCommand::EditCommand(Scenario before, Scenario after, const QString &what, bool dragging,
                         Apply apply)
    : m_before(std::move(before)), m_after(std::move(after)), m_open(dragging),
      m_apply(std::move(apply))
{
    setText(what.isEmpty() ? QCoreApplication::translate("EditCommand", "Edit scenario") : what);
    setObsolete(!m_open && sameScenario(m_before, m_after));
}

void EditCommand::undo()
{
    m_apply(m_before);
}
void EditCommand::redo()
{
    m_apply(m_after);
}

bool EditCommand::mergeWith(const QUndoCommand *other)
{
    const auto *next = static_cast<const EditCommand *>(other);
    // Only a step still being dragged takes the next edit (the drag's moves and its release).
    if (!m_open)
        return false;
    m_after = next->m_after;
    m_open = next->m_open;
    setObsolete(sameScenario(m_before, m_after));
    return true;
}

} // namespace vramplan::ui
