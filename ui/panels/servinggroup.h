#pragma once
// The inference server (issue 14, docs/serving.md): which engine serves the model and the
// settings that decide its KV cache. "none" is the naive forward pass (no `serving` section,
// files mean what they meant). Settings a file leaves out show the engine's default, resolved
// as the estimate resolves them; turning one writes it into the scenario. Below the controls, the
// plan's outcome: the KV cache in bytes, tokens and requests at once, or, in red, the engine's
// own message when it would not start, with the settings that would start it. The target (N
// requests of L tokens at once, as `vramplan-cli advise --requests --tokens`) is what "Make it
// fit" searches for; the plan says whether it is served. Shown in inference mode only.

#include "charts/units.h"
#include "panels/controlgroup.h"
#include "serving/serving.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace vramplan::ui {

class ServingGroup : public ControlGroup
{
    Q_OBJECT

public:
    explicit ServingGroup(QWidget *parent = nullptr);

    void refreshAvailability(const Scenario &scenario) override;
    // What the plan of the scenario shown comes to (the window hands it over after estimating).
    void setPlan(const ServingPlan &plan, Unit unit);

    QComboBox *engineBox() const { return m_engine; }
    QDoubleSpinBox *utilizationBox() const { return m_utilization; }
    QSpinBox *maxModelLenBox() const { return m_maxModelLen; }
    QSpinBox *maxNumSeqsBox() const { return m_maxNumSeqs; }
    QSpinBox *maxNumBatchedTokensBox() const { return m_maxBatched; }
    QSpinBox *targetRequestsBox() const { return m_targetRequests; }
    QSpinBox *targetTokensBox() const { return m_targetTokens; } // 0: max_model_len
    QComboBox *kvCacheDtypeBox() const { return m_kvDtype; }
    QComboBox *quantizationBox() const { return m_quantization; }
    QSpinBox *blockSizeBox() const { return m_blockSize; }
    QCheckBox *cudaGraphsBox() const { return m_cudaGraphs; }
    QLineEdit *engineVersionBox() const { return m_version; }
    QLabel *planLabel() const { return m_plan; }

protected:
    void display(const Scenario &scenario) override;

private:
    // An edit of the serving section, which exists once an engine is chosen.
    void requestServing(QWidget *control, std::function<void(ServingConfig &)> edit);
    // The engine's release, parsed as a file's `serving.engine_version` would be.
    void requestVersion();
    // The plan's text: what the cache holds and whether the target is served, or the engine's
    // refusal and the settings that would start it (from the scenario shown).
    void showPlan();

    QComboBox *m_engine, *m_kvDtype, *m_quantization;
    QDoubleSpinBox *m_utilization;
    QSpinBox *m_maxModelLen, *m_maxNumSeqs, *m_blockSize;
    QSpinBox *m_maxBatched, *m_targetRequests, *m_targetTokens;
    QCheckBox *m_cudaGraphs;
    QLineEdit *m_version;
    QLabel *m_plan;
    // The scenario shown and the plan handed over last: the window hands each over on its own
    // signal, and the text is made again when either changes.
    Scenario m_scenario;
    ServingPlan m_lastPlan;
    Unit m_unit = Unit::GiB;
};

} // namespace vramplan::ui
