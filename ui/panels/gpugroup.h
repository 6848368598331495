#pragma once
// The GPU: a card from the catalog (a short name in the box, the catalog's full name in its
// tooltip) or a custom usable capacity.

#include "charts/units.h"
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
    // Sizes in GiB or GB (View menu): the cards' memory in the box and the usable memory.
    void setUnit(Unit unit);

    QComboBox *gpuBox() const { return m_gpu; }
    QDoubleSpinBox *capacityBox() const { return m_capacity; }

protected:
    void display(const Scenario &scenario) override;

private:
    void labelCards();

    QComboBox *m_gpu;
    QDoubleSpinBox *m_capacity;
    Unit m_unit = Unit::GiB;
    double m_gib = 0; // the scenario's usable memory, in GiB
};

// "H100 80GB (HBM3)" -> "H100 80GB", "NVIDIA GeForce RTX 4090" -> "RTX 4090": what tells the
// cards of the catalog apart, short enough for the box.
QString shortGpuName(const QString &name);

} // namespace vramplan::ui
