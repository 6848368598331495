#pragma once
// One group of the controls panel: a titled form of controls that show a scenario and ask for
// edits. A group computes nothing and never changes the scenario itself: it hands the panel an
// edit (a function applied to a copy of the scenario) with the control it came from, which
// names the undo step ("Change micro-batch") and carries a refusal back to where the user is.

#include "scenario.h"

#include <QGroupBox>
#include <QHash>

#include <functional>

class QFormLayout;

namespace vramplan::ui {

class ControlGroup : public QGroupBox
{
    Q_OBJECT

public:
    using Edit = std::function<void(Scenario &)>;

    explicit ControlGroup(const QString &title, QWidget *parent = nullptr);

    // Shows the scenario without asking for any edit.
    void showScenario(const Scenario &scenario);
    // Enables what applies to the scenario; what does not is disabled with the reason as its
    // tooltip.
    virtual void refreshAvailability(const Scenario &scenario) { Q_UNUSED(scenario); }
    // The control editing a scenario field ("training.micro_batch_size"), or null.
    QWidget *controlFor(const QString &field) const;
    const QHash<QString, QWidget *> &controls() const { return m_fields; }

    // What a control edits, for undo steps ("micro-batch"), and its row's label ("Micro-batch").
    static QString subject(const QWidget *control);
    static QString label(const QWidget *control);
    // The control is usable, with `about` as its tooltip, or not, with the reason why not.
    static void setAvailable(QWidget *control, bool available, const QString &whyNot);

signals:
    void editRequested(QWidget *control, const vramplan::ui::ControlGroup::Edit &edit,
                       bool dragging);

protected:
    virtual void display(const Scenario &scenario) = 0;
    // A row of `form` (the group's own by default): `label` beside `control`, which edits
    // `field`; `subject` names it in undo steps, `about` says what it does (its tooltip).
    void addRow(const QString &label, QWidget *control, const QString &field,
                const QString &subject, const QString &about, QFormLayout *form = nullptr);
    void request(QWidget *control, Edit edit, bool dragging = false);
    QFormLayout *form() const { return m_form; }

private:
    QFormLayout *m_form;
    QHash<QString, QWidget *> m_fields;
    bool m_displaying = false;
};

} // namespace vramplan::ui
