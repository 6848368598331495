#pragma once
// The measured run beside the plan, as the rows of the Measured Run window's table: written
// from the run report's JSON (runReportJson, core/runs/run_report.h), as the command line's
// table is, so the window says nothing the report does not. A figure the files cannot give reads
// "not recorded", never a guess; each difference is named in words as `run-report --format
// table` names it ("5.00 GiB more than planned").

#include "charts/units.h"

#include <nlohmann/json.hpp>

#include <QString>

#include <optional>
#include <vector>

namespace vramplan::ui {

struct RunComparisonRow
{
    QString key; // "peak.reserved", "component.activations": for tests and tooltips
    QString what;
    QString measured, planned, difference;
    QString from;    // the file that gave a peak, or the rules that placed a component's bytes
    QString tooltip; // what the row compares, where the report has more to say
    std::optional<double> measuredBytes;
};

// Peaks (allocated, reserved, device), the phase of the peak, then the components in the
// estimate's order and the bytes no rule placed. Without a plan beside the run (no comparison
// in the report), the planned and difference cells are empty.
std::vector<RunComparisonRow> runComparisonRows(const nlohmann::json &report, Unit unit);

// "5.00 GiB more than planned", "1.62 GiB less than planned", "as planned" (below half a byte).
QString differenceInWords(double differenceBytes, Unit unit);

// The files of the run as a line: "step.pickle (torch_snapshot, 27 trace entries), ...".
QString runSourcesText(const nlohmann::json &report);

} // namespace vramplan::ui
