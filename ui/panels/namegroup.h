#pragma once
// The scenario's name, editable. Left empty it follows the settings (shown greyed, as the
// field's placeholder): every edit renames the scenario until the user types a name of their
// own; clearing the field hands the name back to the settings.

#include "panels/controlgroup.h"

class QLineEdit;

namespace vramplan::ui {

class NameGroup : public ControlGroup
{
    Q_OBJECT

public:
    explicit NameGroup(QWidget *parent = nullptr);

    QLineEdit *nameField() const { return m_name; }

protected:
    void display(const Scenario &scenario) override;

private:
    QLineEdit *m_name;
};

} // namespace vramplan::ui
