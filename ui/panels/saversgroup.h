#pragma once
// Memory savers: ZeRO/FSDP sharding, offload of optimizer states and parameters, activation
// recomputation, the attention kernel, and fine-tuning (LoRA and QLoRA: rank, targets, the base
// weights' bits). Training-only knobs are disabled in inference mode, saying so.

#include "panels/controlgroup.h"

class QComboBox;
class QLineEdit;
class QSpinBox;

namespace vramplan::ui {

class SaversGroup : public ControlGroup
{
    Q_OBJECT

public:
    explicit SaversGroup(QWidget *parent = nullptr);

    void refreshAvailability(const Scenario &scenario) override;

    QComboBox *zeroBox() const { return m_zero; }
    QComboBox *recomputeBox() const { return m_recompute; }
    QComboBox *attentionBox() const { return m_attention; }
    QComboBox *finetuneBox() const { return m_finetune; }
    QLineEdit *loraTargets() const { return m_loraTargets; }

protected:
    void display(const Scenario &scenario) override;

private:
    void buildFinetuning();

    QComboBox *m_zero, *m_offloadOptimizer, *m_offloadParameters, *m_recompute, *m_attention;
    QSpinBox *m_recomputeLayers;
    QComboBox *m_finetune = nullptr, *m_baseBits = nullptr;
    QSpinBox *m_loraRank = nullptr;
    QLineEdit *m_loraTargets = nullptr;
};

} // namespace vramplan::ui
