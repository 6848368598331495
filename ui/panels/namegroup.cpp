#include "panels/namegroup.h"

#include "document/scenarioname.h"

#include <QLineEdit>
#include <QSignalBlocker>

namespace vramplan::ui {

NameGroup::NameGroup(QWidget *parent) : ControlGroup(tr("Scenario"), parent), m_name(new QLineEdit)
{
    m_name->setClearButtonEnabled(true);
    addRow(tr("Name"), m_name, QStringLiteral("name"), tr("name"),
           tr("The name in the title, in comparisons and on exported charts. Left empty it is "
              "made from the settings and follows them."));
    connect(m_name, &QLineEdit::editingFinished, this, [this] {
        const std::string typed = m_name->text().trimmed().toStdString();
        request(m_name, [typed](Scenario &s) {
            s.name = typed.empty() ? generatedName(s).toStdString() : typed;
        });
    });
}

void NameGroup::display(const Scenario &s)
{
    const QSignalBlocker blocker(m_name);
    const QString generated = generatedName(s);
    m_name->setPlaceholderText(generated);
    m_name->setText(followsSettings(s) ? QString() : QString::fromStdString(s.name));
    m_name->setCursorPosition(0);
}

} // namespace vramplan::ui
