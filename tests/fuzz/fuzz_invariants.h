#pragma once
// What every fuzz target here does when an invariant breaks: name it, save the input that broke
// it (the standalone driver has no crash-file handling of its own), abort. Each target defines
// its name and crash file once, and sets currentInput before running an input.

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace fuzz {

struct Target
{
    const char *name;      // "fuzz_scenario"
    const char *crashFile; // where the standalone driver saves the failing input
};
extern const Target target;
// The input being run.
inline std::string_view currentInput;

[[noreturn]] inline void violated(const char *what, const std::string &detail = {})
{
    std::fprintf(stderr, "%s: invariant violated: %s%s%s\n", target.name, what,
                 detail.empty() ? "" : ": ", detail.c_str());
#ifndef VRAMPLAN_LIBFUZZER
    if (FILE *f = std::fopen(target.crashFile, "wb")) {
        std::fwrite(currentInput.data(), 1, currentInput.size(), f);
        std::fclose(f);
        std::fprintf(stderr, "%s: input written to %s\n", target.name, target.crashFile);
    }
#endif
    std::abort();
}

inline void check(bool condition, const char *what, const std::string &detail = {})
{
    if (!condition)
        violated(what, detail);
}

} // namespace fuzz
