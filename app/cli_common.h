#pragma once
// What the commands of vramplan-cli share: their options, exiting on bad input, reading a file
// or a scenario, and the commands main() runs. Internal to app/ (vramplan-cli only).

#include "scenario.h"

#include <cstdint>
#include <string>
#include <vector>

namespace vramplan::cli_internal {

struct Options
{
    std::vector<std::string> positional;
    std::string format = "json";
    std::string units = "gib";
    std::string vary;
    std::string metric, measured;
    bool useDefault = false;
    double mfu = 0.40;     // advise: the step-time model's utilisation
    bool hardware = true;  // advise: also more or larger GPUs
    int64_t requests = 0;  // advise on a serving scenario: concurrent requests (0: its own)
    int64_t tokens = 0;    // advise on a serving scenario: tokens per request (0: its own)
    std::string scenario;  // run-report: the scenario to compare with
    int device = 0;        // run-report: cuda:N
};

// Exits with status 2 after one printable line on stderr: "WHERE: PROBLEM", or PROBLEM alone.
[[noreturn]] void fail(const std::string &where, const std::string &problem);
// The text of a file, or of stdin for "-"; exits on a file that cannot be read or is over 64 MiB.
std::string readInput(const std::string &path);
// The scenario in a file (or stdin for "-"); exits naming the file on bad input.
Scenario loadScenario(const std::string &path);
// The one FILE a command takes; exits when there is none or more than one.
std::string oneFile(const Options &o, const char *command);

// The commands (cli_estimate.cpp, cli_catalog.cpp, cli_calibrate.cpp, cli_runreport.cpp); each
// returns the exit status.
int commandEstimate(const Options &o);
int commandParams(const Options &o);
int commandSweep(const Options &o);
// max-batch, max-sequence or min-gpus (`command`): the answer, or 0 and why nothing fits.
int commandSolver(const Options &o, const std::string &command);
int commandList(const std::string &what);
int commandCalibrate(const Options &o);
int commandRunReport(const Options &o); // cli_runreport.cpp

} // namespace vramplan::cli_internal
