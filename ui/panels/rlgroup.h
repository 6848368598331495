#pragma once
// Post-training with a rollout engine (issue 25, docs/rl.md): the scenario's `rl` section. A
// switch ("Rollout engine: plan phase by phase") turns it on (a sensible default section: GRPO in verl with vLLM colocated, SPEC §3's
// example values) or off (the section dropped, the scenario plain training again); the controls
// below set the algorithm, the framework and its release, which models exist beside the policy,
// the group size and the lengths, the rollout engine and its placement, its budget and sleep
// level, the offloads and the log-prob micro-batch. A setting left to the framework reads
// "framework default" and is resolved as the estimate resolves it (rl_config.h). Shown in
// training mode only; with RL on, the sequence is prompt + response, not the batch group's.

#include "panels/controlgroup.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLineEdit;
class QSpinBox;

namespace vramplan::ui {

class RlGroup : public ControlGroup
{
    Q_OBJECT

public:
    explicit RlGroup(QWidget *parent = nullptr);

    void refreshAvailability(const Scenario &scenario) override;

    // The `rl` section a plain training scenario gets when RL is turned on.
    static RlConfig defaultRl();

    QCheckBox *enabledBox() const { return m_enabled; }
    QComboBox *algorithmBox() const { return m_algorithm; }
    QComboBox *frameworkBox() const { return m_framework; }
    QLineEdit *frameworkVersionBox() const { return m_version; }
    QCheckBox *referenceBox() const { return m_reference; }
    QCheckBox *rewardModelBox() const { return m_rewardModel; }
    QCheckBox *criticBox() const { return m_critic; }
    QSpinBox *groupSizeBox() const { return m_groupSize; }
    QSpinBox *promptTokensBox() const { return m_prompt; }
    QSpinBox *responseTokensBox() const { return m_response; }
    QComboBox *engineBox() const { return m_engine; }
    QComboBox *placementBox() const { return m_placement; }
    QSpinBox *engineGpusBox() const { return m_engineGpus; }
    QSpinBox *engineTensorParallelBox() const { return m_engineTp; }
    QDoubleSpinBox *utilizationBox() const { return m_utilization; }
    QComboBox *sleepLevelBox() const { return m_sleep; }
    QCheckBox *offloadParametersBox() const { return m_offloadParameters; }
    QCheckBox *offloadOptimizerBox() const { return m_offloadOptimizer; }
    QCheckBox *offloadReferenceBox() const { return m_offloadReference; }
    QSpinBox *logProbMicroBatchBox() const { return m_logProb; }

protected:
    void display(const Scenario &scenario) override;

private:
    // An edit of the section, which exists while RL is on.
    void requestRl(QWidget *control, std::function<void(Scenario &)> edit);
    void requestVersion();

    QCheckBox *m_enabled;
    QComboBox *m_algorithm, *m_framework;
    QLineEdit *m_version;
    QCheckBox *m_reference, *m_rewardModel, *m_critic;
    QSpinBox *m_groupSize, *m_prompt, *m_response;
    QComboBox *m_engine, *m_placement;
    QSpinBox *m_engineGpus, *m_engineTp;
    QDoubleSpinBox *m_utilization;
    QComboBox *m_sleep;
    QCheckBox *m_offloadParameters, *m_offloadOptimizer, *m_offloadReference;
    QSpinBox *m_logProb;
};

} // namespace vramplan::ui
