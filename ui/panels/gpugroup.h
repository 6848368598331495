#pragma once
// The GPU: a card from the catalog (a short name in the box, the catalog's full name in its
// tooltip) or a custom usable capacity.

#include "panels/controlgroup.h"

class QComboBox;
class QDoubleSpinBox;

namespace vramplan::ui {

class GpuGroup : public ControlGroup
{
    Q_OBJECT

public:
    explicit GpuGroup(QWidget *parent = nullptr);

    void refreshAvailability(const Scenario &scenario) override;

    QComboBox *gpuBox() const { return m_gpu; }

protected:
    void display(const Scenario &scenario) override;

private:
    QComboBox *m_gpu;
    QDoubleSpinBox *m_capacity;
};

// "H100 80GB (HBM3)" -> "H100 80GB", "NVIDIA GeForce RTX 4090" -> "RTX 4090": what tells the
// cards of the catalog apart, short enough for the box.
QString shortGpuName(const QString &name);

} // namespace vramplan::ui
