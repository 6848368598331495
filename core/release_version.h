#pragma once
// A release of a framework or an engine, where its memory behaviour changed between releases:
// the scenario's `framework_version` (SPEC §3) and the serving section's `engine_version`
// (docs/serving.md). Parsed by parseReleaseVersion (scenario_json.h). Absent: the current release.

namespace vramplan {

struct FrameworkVersion
{
    bool given = false;
    int major = 0, minor = 0, patch = 0;
    // True when absent (the current release is meant) or at least major.minor.
    bool atLeast(int ma, int mi) const
    {
        return !given || major > ma || (major == ma && minor >= mi);
    }
    friend bool operator==(const FrameworkVersion &, const FrameworkVersion &) = default;
};

} // namespace vramplan
