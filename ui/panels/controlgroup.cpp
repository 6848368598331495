#include "panels/controlgroup.h"

#include <QFormLayout>
#include <QVariant>

namespace vramplan::ui {
namespace {

// Where a control keeps what it edits and what it does (QObject dynamic properties).
constexpr const char *subjectProperty = "vramplanSubject";
constexpr const char *labelProperty = "vramplanLabel";
constexpr const char *aboutProperty = "vramplanAbout";

} // namespace

ControlGroup::ControlGroup(const QString &title, QWidget *parent)
    : QGroupBox(title, parent), m_form(new QFormLayout(this))
{
}

void ControlGroup::showScenario(const Scenario &scenario)
{
    m_displaying = true;
    display(scenario);
    m_displaying = false;
}

QWidget *ControlGroup::controlFor(const QString &field) const
{
    return m_fields.value(field);
}

QString ControlGroup::subject(const QWidget *control)
{
    return control ? control->property(subjectProperty).toString() : QString();
}

QString ControlGroup::label(const QWidget *control)
{
    return control ? control->property(labelProperty).toString() : QString();
}

void ControlGroup::setAvailable(QWidget *control, bool available, const QString &whyNot)
{
    control->setEnabled(available);
    control->setToolTip(available ? control->property(aboutProperty).toString() : whyNot);
}

void ControlGroup::addRow(const QString &label, QWidget *control, const QString &field,
                          const QString &subject, const QString &about, QFormLayout *form)
{
    (form ? form : m_form)->addRow(label, control);
    m_fields.insert(field, control);
    control->setProperty(subjectProperty, subject);
    // A checkbox carries its label itself.
    QString shown = label;
    if (shown.isEmpty())
        if (const QVariant text = control->property("text"); text.isValid())
            shown = text.toString().remove(QLatin1Char('&'));
    control->setProperty(labelProperty, shown);
    control->setProperty(aboutProperty, about);
    control->setToolTip(about);
}

void ControlGroup::request(QWidget *control, Edit edit, bool dragging)
{
    if (!m_displaying)
        emit editRequested(control, edit, dragging);
}

} // namespace vramplan::ui
