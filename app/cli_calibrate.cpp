// `calibrate FILE --metric M --measured SIZE`: the scenario with calibration terms fitted to a
// measured peak (calibration.h), as scenario JSON.

#include "cli_common.h"

#include "advice/calibration.h"
#include "formats/enum_names.h"
#include "formats/scenario_json.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <string>
#include <utility>

namespace vramplan::cli_internal {
namespace {

// "17.2GB", "16 GiB", "512MiB" or a plain number of bytes.
double parseSize(const std::string &text)
{
    const char *begin = text.c_str();
    char *end = nullptr;
    const double number = std::strtod(begin, &end);
    if (end == begin || !std::isfinite(number) || number <= 0)
        fail("--measured", "expected a size such as 17.2GB, 16GiB or 1234567890, got '" + text +
                               "'");
    std::string unit(end);
    unit.erase(0, unit.find_first_not_of(' '));
    for (char &ch : unit)
        ch = char(std::tolower(static_cast<unsigned char>(ch)));
    static const std::pair<const char *, double> units[] = {
        {"", 1.0},          {"b", 1.0},
        {"kb", 1e3},        {"mb", 1e6},
        {"gb", 1e9},        {"tb", 1e12},
        {"kib", 1024.0},    {"mib", 1048576.0},
        {"gib", 1073741824.0}, {"tib", 1099511627776.0}};
    for (const auto &[name, scale] : units)
        if (unit == name)
            return number * scale;
    fail("--measured", "unknown unit '" + unit + "' (B, KB, MB, GB, TB, KiB, MiB, GiB, TiB)");
}

} // namespace

int commandCalibrate(const Options &o)
{
    Scenario s = loadScenario(oneFile(o, "calibrate"));
    const auto metric = fromString<MemoryMetric>(o.metric);
    if (!metric)
        fail("--metric", "must be allocated, reserved or device, got '" + o.metric + "'");
    if (o.measured.empty())
        fail("--measured", "is required (the peak your run measured)");
    const auto fitted = fitCalibration(s, *metric, parseSize(o.measured));
    if (!fitted)
        fail("calibrate", fitted.error);
    s.calibration = *fitted.value;
    std::cout << scenarioToJson(s).dump(2) << '\n';
    return 0;
}

} // namespace vramplan::cli_internal
