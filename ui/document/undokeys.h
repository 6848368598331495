#pragma once
// Ctrl+Z and its Redo key undo the document also while the cursor is in one of its editors, a
// spin box or a line edit of the controls (the usual state after typing a value). Such an editor
// claims the keys for its own text undo (it accepts their ShortcutOverride), so Edit > Undo's
// shortcut never fires there; this filter, on the application, claims them first for the
// document. Elsewhere (a comparison's label being renamed, a dialog) an editor keeps its undo.
//
// A value typed but not yet entered is taken first (as Enter or leaving the field would take
// it), then undone: Ctrl+Z puts back what the control showed before the typing, and Redo
// brings the typed value back. A typed value the controls refuse is not an undo step, so Ctrl+Z
// then undoes the step before it.
//
// Header only: the class needs no moc (no signals or slots), and the window alone includes it.

#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QKeyEvent>
#include <QLineEdit>
#include <QUndoStack>

namespace vramplan::ui {

class UndoKeys : public QObject
{
public:
    // Watches the keys typed in the editors inside `editors` (the controls panel).
    UndoKeys(QWidget *editors, QUndoStack *stack)
        : QObject(editors), m_editors(editors), m_stack(stack)
    {
        qApp->installEventFilter(this);
    }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() != QEvent::ShortcutOverride && event->type() != QEvent::KeyPress)
            return false;
        auto *widget = qobject_cast<QWidget *>(watched);
        if (!widget || !m_editors->isAncestorOf(widget))
            return false;
        auto *key = static_cast<QKeyEvent *>(event);
        const bool undo = key->matches(QKeySequence::Undo);
        if (!undo && !key->matches(QKeySequence::Redo))
            return false;
        // Claimed at the override, the key press comes to the focused widget, and here, instead
        // of to Edit > Undo's shortcut as well: one undo a key.
        if (event->type() == QEvent::ShortcutOverride) {
            event->accept();
            return true;
        }
        commitTypedValue(widget);
        undo ? m_stack->undo() : m_stack->redo();
        return true;
    }

private:
    static void commitTypedValue(QWidget *focus)
    {
        // A spin box's own line edit can hold the focus too.
        auto *spin = qobject_cast<QAbstractSpinBox *>(focus);
        if (!spin && focus->parentWidget())
            spin = qobject_cast<QAbstractSpinBox *>(focus->parentWidget());
        if (spin) {
            spin->interpretText(); // valueChanged if the text says another value
            return;
        }
        auto *edit = qobject_cast<QLineEdit *>(focus);
        if (auto *combo = qobject_cast<QComboBox *>(focus))
            edit = combo->lineEdit();
        // The controls take a line edit's text on editingFinished (Enter or leaving the field).
        if (edit && edit->isModified())
            emit edit->editingFinished();
    }

    QWidget *m_editors;
    QUndoStack *m_stack;
};

} // namespace vramplan::ui
