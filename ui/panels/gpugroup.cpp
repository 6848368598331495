#include "panels/gpugroup.h"

#include "catalog.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QRegularExpression>

#include <cmath>

namespace vramplan::ui {

QString shortGpuName(const QString &name)
{
    QString out = name;
    out.remove(QRegularExpression(QStringLiteral("\\s*\\([^)]*\\)")));
    for (const char *maker : {"NVIDIA ", "GeForce ", "Tesla "})
        out.remove(QLatin1String(maker));
    return out.trimmed();
}

GpuGroup::GpuGroup(QWidget *parent)
    : ControlGroup(tr("GPU"), parent), m_gpu(new QComboBox), m_capacity(new QDoubleSpinBox)
{
    for (const auto &g : Catalog::builtin().gpus())
        m_gpu->addItem(QString(), QString::fromStdString(g.id));
    labelCards();
    m_gpu->addItem(tr("Custom capacity"), QString());
    m_gpu->setItemData(m_gpu->count() - 1, tr("Type the usable memory below"), Qt::ToolTipRole);
    m_capacity->setRange(0.5, 100000);
    m_capacity->setDecimals(2);
    m_capacity->setSuffix(QStringLiteral(" ") + unitName(m_unit));
    m_capacity->setKeyboardTracking(false);
    addRow(tr("Card"), m_gpu, QStringLiteral("gpu.preset"), tr("GPU"),
           tr("The GPU model; its usable memory is what the estimate must fit in"));
    addRow(tr("Usable memory"), m_capacity, QStringLiteral("gpu.memory_gib"), tr("usable memory"),
           tr("Memory a process can allocate on the card, in GiB (2^30 bytes) or GB (10^9), as "
              "View > Sizes says"));
    connect(m_gpu, &QComboBox::currentIndexChanged, this, [this] {
        const GpuSpec *spec = Catalog::builtin().gpu(m_gpu->currentData().toString().toStdString());
        request(m_gpu, [spec](Scenario &s) {
            if (spec) {
                s.gpu.preset = spec->id;
                s.gpu.name = spec->name;
                s.gpu.architecture = spec->architecture;
                s.gpu.memoryGiB = spec->memoryMiB / 1024.0;
            } else {
                s.gpu.preset.clear();
                s.gpu.name = "custom";
            }
        });
    });
    connect(m_capacity, &QDoubleSpinBox::valueChanged, this, [this](double shown) {
        const double gib = shown * unitBytes(m_unit) / unitBytes(Unit::GiB);
        request(m_capacity, [gib](Scenario &s) {
            if (std::fabs(s.gpu.memoryGiB - gib) < 0.005)
                return;
            s.gpu.memoryGiB = gib;
            s.gpu.preset.clear();
            s.gpu.name = "custom";
        });
    });
}

void GpuGroup::display(const Scenario &s)
{
    {
        const QSignalBlocker b(m_gpu);
        m_gpu->setCurrentIndex(
            s.gpu.preset.empty()
                ? m_gpu->count() - 1
                : std::max(0, m_gpu->findData(QString::fromStdString(s.gpu.preset))));
    }
    m_gib = s.gpu.memoryGiB;
    const QSignalBlocker b(m_capacity);
    m_capacity->setValue(m_gib * unitBytes(Unit::GiB) / unitBytes(m_unit));
}

void GpuGroup::setUnit(Unit unit)
{
    m_unit = unit;
    labelCards();
    const QSignalBlocker b(m_capacity);
    m_capacity->setSuffix(QStringLiteral(" ") + unitName(unit));
    m_capacity->setValue(m_gib * unitBytes(Unit::GiB) / unitBytes(unit));
}

// "H100 80GB · 79.6 GiB" (or "· 85.5 GB"), the catalog's full name and two decimals in the tip.
void GpuGroup::labelCards()
{
    const auto &gpus = Catalog::builtin().gpus();
    for (size_t i = 0; i < gpus.size() && int(i) < m_gpu->count(); ++i) {
        const QString name = QString::fromStdString(gpus[i].name);
        const double size = double(gpus[i].memoryMiB) * 1048576.0 / unitBytes(m_unit);
        m_gpu->setItemText(int(i), QStringLiteral("%1 \u00b7 %2 %3")
                                       .arg(shortGpuName(name))
                                       .arg(size, 0, 'f', 1)
                                       .arg(unitName(m_unit)));
        m_gpu->setItemData(int(i),
                           tr("%1: %2 %3 usable").arg(name).arg(size, 0, 'f', 2).arg(unitName(m_unit)),
                           Qt::ToolTipRole);
    }
}

void GpuGroup::refreshAvailability(const Scenario &s)
{
    setAvailable(m_capacity, s.gpu.preset.empty(), tr("Choose \"Custom capacity\" to type a size"));
}

} // namespace vramplan::ui
