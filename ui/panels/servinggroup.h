#pragma once
// The inference server (issue 14, docs/serving.md): which engine serves the model and the
// settings that decide its KV cache. "none" is the naive forward pass (no `serving` section,
// files mean what they meant). Settings a file leaves out show the engine's default, resolved
// as the estimate resolves them; turning one writes it into the scenario. Below the controls, the
// plan's outcome: the KV cache in bytes, tokens and requests at once, or, in red, the engine's
// own message when it would not start. Shown in inference mode only.

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

    QComboBox *m_engine, *m_kvDtype, *m_quantization;
    QDoubleSpinBox *m_utilization;
    QSpinBox *m_maxModelLen, *m_maxNumSeqs, *m_blockSize;
    QCheckBox *m_cudaGraphs;
    QLineEdit *m_version;
    QLabel *m_plan;
};

} // namespace vramplan::ui
