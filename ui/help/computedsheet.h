#pragma once
// "How this is computed": the current estimate's items, grouped by component, each with its
// formula as the core writes it, the same formula with this run's numbers put in, the
// arithmetic from the item's bytes per unit to its total, and its source. The groups' totals
// are the breakdown's own figures (Estimate::perGpu), and what the items at the peak do not
// account for (paged states left in host memory, a clamped total) is a row of its own, so the
// rows of a group always add up to the figure the breakdown shows.

#include "charts/units.h"
#include "estimate.h"

#include <QString>

#include <vector>

namespace vramplan::ui {

struct ComputedRow
{
    QString name;
    QString formula;    // as the core writes it: "b*s*h*c"
    QString worked;     // with this run's numbers: "1*4096*4096*2"; empty without symbols
    QString source;
    double perUnit = 0, count = 1; // bytes of one unit (a layer, a tensor) and how many
    double bytes = 0;              // of all units together, finite and >= 0
    // Bytes per trainable parameter of the model (this GPU's share), for the terms counted per
    // trainable element (weights, gradients, optimizer states, master weights); else 0.
    double perTrainable = 0;
    bool atPeak = true; // counted in the component's figure at the peak
    QString phases;     // where it is alive, when not at the peak
    bool outsideAllocator = false;
};

struct ComputedGroup
{
    Component component = Component::Parameters;
    double totalBytes = 0; // the breakdown's figure: Estimate::perGpu
    std::vector<ComputedRow> rows;
    // What the items at the peak do not account for (totalBytes - their sum), and why.
    double adjustmentBytes = 0;
    QString adjustment;
};

struct ComputedSheet
{
    Phase peak = Phase::Forward;
    double deviceBytes = 0; // the sum of the groups' totals, as the breakdown's "device"
    double allocated = 0, reserved = 0; // the peak's other two measures
    std::vector<ComputedGroup> groups; // components with bytes or items, in the core's order
    int itemCount = 0;                 // rows over all groups: every item of the estimate
    QString symbols;                   // "b = 1, s = 4096, ..." of this run
    double trainable = 0;              // trainable parameters of the model
};

ComputedSheet computedSheet(const Estimate &estimate);
// The sheet as one HTML page for a QTextBrowser, sizes in `unit` as the breakdown shows them.
QString computedSheetHtml(const ComputedSheet &sheet, Unit unit);

// An item's size as it reads best: the unit's figure, or MiB/MB below a tenth of a unit.
QString itemSizeText(double bytes, Unit unit);

} // namespace vramplan::ui
