#pragma once
// Every numeric scenario field by its dotted path ("training.micro_batch_size"), for sweeps and
// solvers: set a value on a parsed Scenario without going back through JSON.

#include "scenario.h"

#include <span>
#include <string>
#include <string_view>

namespace vramplan {

struct NumericField
{
    std::string_view path;
    bool integer;
    double min, max;
    double (*get)(const Scenario &);
    void (*set)(Scenario &, double);
};

std::span<const NumericField> numericFields();
const NumericField *findNumericField(std::string_view path);
std::string numericFieldPaths(); // "training.micro_batch_size, ..." for messages

// Sets a field and re-checks the scenario's cross constraints; returns an error or "".
std::string setNumericField(Scenario &scenario, const NumericField &field, double value);

} // namespace vramplan
