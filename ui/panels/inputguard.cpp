#include "panels/inputguard.h"

#include "panels/controlgroup.h"
#include "panels/logslider.h"

#include <QAbstractSpinBox>
#include <QApplication>
#include <QClipboard>
#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QKeyEvent>
#include <QLineEdit>

namespace vramplan::ui {
namespace {

struct Words
{
    Q_DECLARE_TR_FUNCTIONS(vramplan::ui::InputGuard)
};

constexpr const char *leftOutProperty = "vramplanLeftOut";

// The control the user knows by its label: the box itself, or the slider it belongs to.
QWidget *labelledControl(QAbstractSpinBox *box)
{
    for (QWidget *w = box; w; w = w->parentWidget())
        if (!ControlGroup::label(w).isEmpty())
            return w;
    return box;
}

// What the box takes: "a whole number from 1 to 2,048".
QString accepted(const QAbstractSpinBox *box)
{
    // Written as the box takes them: no group separators, which the box would refuse too.
    if (auto *d = qobject_cast<const QDoubleSpinBox *>(box))
        return Words::tr("a number from %1 to %2")
            .arg(QString::number(d->minimum(), 'f', d->decimals()),
                 QString::number(d->maximum(), 'f', d->decimals()));
    if (auto *i = qobject_cast<const QSpinBox *>(box))
        return Words::tr("a whole number from %1 to %2").arg(i->minimum()).arg(i->maximum());
    return {};
}

class InputGuard : public QObject
{
public:
    InputGuard(QAbstractSpinBox *box, std::function<void(QWidget *, const QString &)> refused)
        : QObject(box), m_box(box), m_edit(box->findChild<QLineEdit *>()),
          m_refused(std::move(refused))
    {
        box->installEventFilter(this);
    }

protected:
    bool eventFilter(QObject *, QEvent *event) override
    {
        if (event->type() == QEvent::FocusIn)
            m_box->setProperty(leftOutProperty, QString());
        if (event->type() != QEvent::KeyPress || !m_edit)
            return false;
        auto *key = static_cast<QKeyEvent *>(event);
        QString typed;
        if (key->matches(QKeySequence::Paste))
            typed = QApplication::clipboard()->text();
        else if (!(key->modifiers() & (Qt::ControlModifier | Qt::AltModifier)) &&
                 !key->text().isEmpty() && key->text().at(0).isPrint())
            typed = key->text();
        if (typed.isEmpty())
            return false;
        // The text the key would leave, as QLineEdit::insert makes it.
        QString candidate = m_edit->text();
        int at = m_edit->cursorPosition();
        if (m_edit->hasSelectedText()) {
            at = m_edit->selectionStart();
            candidate.remove(at, m_edit->selectedText().size());
        }
        candidate.insert(at, typed);
        int pos = at + int(typed.size());
        if (m_box->validate(candidate, pos) != QValidator::Invalid)
            return false;
        const QString leftOut = m_box->property(leftOutProperty).toString() + typed;
        m_box->setProperty(leftOutProperty, leftOut);
        QWidget *control = labelledControl(m_box);
        m_refused(control, Words::tr("%1 takes %2: \"%3\" left out")
                               .arg(ControlGroup::label(control), accepted(m_box), leftOut));
        return false; // the box refuses it as it always does
    }

private:
    QAbstractSpinBox *m_box;
    QLineEdit *m_edit;
    std::function<void(QWidget *, const QString &)> m_refused;
};

} // namespace

void guardInput(QWidget *root, std::function<void(QWidget *, const QString &)> refused)
{
    for (QAbstractSpinBox *box : root->findChildren<QAbstractSpinBox *>())
        new InputGuard(box, refused);
}

} // namespace vramplan::ui
