#include "document/document.h"

#include "document/editcommand.h"
#include "document/scenarioname.h"
#include "plancontroller.h"

#include <QFileInfo>
#include <QUndoStack>

namespace vramplan::ui {

Document::Document(QObject *parent)
    : QObject(parent), m_controller(new PlanController(this)), m_undo(new QUndoStack(this))
{
    connect(m_undo, &QUndoStack::cleanChanged, this, &Document::titleChanged);
}

Document::~Document()
{
    // The undo stack's clear() on the way out must not reach the window through titleChanged.
    m_undo->disconnect();
    disconnect();
}

const Scenario &Document::scenario() const
{
    return m_controller->scenario();
}

void Document::reset(const Scenario &scenario)
{
    apply(scenario);
    m_undo->clear();
    m_undo->setClean();
    m_path.clear();
    emit titleChanged();
}

void Document::edit(const Scenario &after, const QString &what, bool dragging)
{
    m_undo->push(new EditCommand(scenario(), withFollowingName(scenario(), after), what, dragging,
                                 [this](const Scenario &s) { apply(s); }));
}

void Document::apply(const Scenario &scenario)
{
    emit applied(scenario);
    m_controller->setScenario(scenario);
}

bool Document::isModified() const
{
    return !m_undo->isClean();
}

void Document::setFilePath(const QString &path)
{
    m_path = path;
    m_undo->setClean();
    emit titleChanged();
}

QString Document::displayName() const
{
    if (!m_path.isEmpty())
        return QFileInfo(m_path).fileName();
    return shownName(scenario());
}

} // namespace vramplan::ui
