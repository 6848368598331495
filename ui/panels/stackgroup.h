#pragma once
// The training stack: what the step runs under beyond the model and the batch (issue 13,
// docs/training_stacks.md): torch.compile, Liger's kernels, how the loss is computed, what drives
// the loop, and the framework's release where its behaviour changed between releases.

#include "panels/controlgroup.h"

class QCheckBox;
class QComboBox;
class QLineEdit;

namespace vramplan::ui {

class StackGroup : public ControlGroup
{
    Q_OBJECT

public:
    explicit StackGroup(QWidget *parent = nullptr);

    void refreshAvailability(const Scenario &scenario) override;

    QCheckBox *compileBox() const { return m_compile; }
    QComboBox *lossBox() const { return m_loss; }
    QLineEdit *versionField() const { return m_version; }

protected:
    void display(const Scenario &scenario) override;

private:
    void requestVersion();

    QCheckBox *m_compile, *m_compileLoss;
    QComboBox *m_kernels, *m_loss, *m_loop;
    QLineEdit *m_version;
    QCheckBox *m_float8Gather;
    QCheckBox *m_groupedGemm;
};

} // namespace vramplan::ui
