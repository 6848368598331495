// An nvidia-smi log (`nvidia-smi --query-gpu=timestamp,memory.used --format=csv -l 1`): the
// device's memory through the run, as the driver saw it, and its peak.
//
// With a header, the columns are found by name (`timestamp`, `index`, `memory.used [MiB]`, in
// any order, among others); without one they are timestamp, memory.used. Several GPUs: rows
// with an `index` column are picked by it; without one, nvidia-smi writes one row per GPU with
// the same timestamp, in index order, so the k-th row of a timestamp is GPU k.

#include "runs/run_source.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <vector>

namespace vramplan {

namespace {

std::string_view trim(std::string_view s)
{
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
        s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
        s.remove_suffix(1);
    return s;
}

std::vector<std::string_view> splitFields(std::string_view line)
{
    std::vector<std::string_view> fields;
    for (std::size_t from = 0;;) {
        const std::size_t comma = line.find(',', from);
        fields.push_back(trim(line.substr(from, comma - from)));
        if (comma == std::string_view::npos)
            return fields;
        from = comma + 1;
    }
}

template <typename T> bool number(std::string_view text, T &out)
{
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
    return ec == std::errc() && end == text.data() + text.size();
}

// Days from 1970-01-01 to a civil date (Howard Hinnant's days_from_civil).
int64_t daysFromCivil(int64_t y, int64_t m, int64_t d)
{
    y -= m <= 2;
    const int64_t era = (y >= 0 ? y : y - 399) / 400;
    const int64_t yoe = y - era * 400;
    const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

// "2024/05/01 12:00:00.123" (or with '-') in microseconds since 1970 (the log's own clock).
bool parseTimestamp(std::string_view s, int64_t &us)
{
    int64_t y = 0, mo = 0, d = 0, h = 0, mi = 0, sec = 0;
    const auto sep = [&](std::size_t i, std::string_view allowed) {
        return allowed.find(s[i]) != std::string_view::npos;
    };
    if (s.size() < 19 || !sep(4, "/-") || !sep(7, "/-") || !sep(10, " T") || !sep(13, ":") ||
        !sep(16, ":") || !number(s.substr(0, 4), y) || !number(s.substr(5, 2), mo) ||
        !number(s.substr(8, 2), d) || !number(s.substr(11, 2), h) || !number(s.substr(14, 2), mi) ||
        !number(s.substr(17, 2), sec) || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 ||
        mi > 59 || sec > 60)
        return false;
    int64_t fraction = 0, scale = 1000000;
    if (s.size() > 19) {
        if (s[19] != '.' || s.size() > 26 || s.size() == 20 || !number(s.substr(20), fraction))
            return false;
        for (std::size_t digits = s.size() - 20; digits > 0; --digits)
            scale /= 10;
    }
    us = ((daysFromCivil(y, mo, d) * 24 + h) * 60 + mi) * 60 + sec;
    us = us * 1000000 + fraction * scale;
    return true;
}

// "1234 MiB", "1234" (nounits) or "1.5 GiB": bytes.
bool parseMemory(std::string_view s, int64_t &bytes)
{
    std::size_t digits = 0;
    while (digits < s.size() &&
           (std::isdigit(static_cast<unsigned char>(s[digits])) || s[digits] == '.'))
        ++digits;
    double value = 0;
    if (!number(s.substr(0, digits), value))
        return false;
    const std::string_view unit = trim(s.substr(digits));
    const double scale = unit.empty() || unit == "MiB" ? 1048576.0
                         : unit == "GiB"               ? 1073741824.0
                         : unit == "KiB"               ? 1024.0
                                                       : 0.0;
    if (scale == 0 || value * scale > 9.0e18)
        return false;
    bytes = int64_t(value * scale + 0.5);
    return true;
}

} // namespace

Parsed<RunSource> nvidiaSmiSource(std::string_view csv, int device)
{
    using Result = Parsed<RunSource>;
    int timeColumn = 0, memoryColumn = 1, indexColumn = -1;
    std::size_t lineNumber = 0, skipped = 0;
    std::vector<std::pair<int64_t, int64_t>> rows; // (time, bytes) of the device
    std::string previousTime;
    int64_t gpuOfTime = -1;
    std::vector<int64_t> gpus;
    for (std::size_t from = 0; from < csv.size();) {
        std::size_t end = csv.find('\n', from);
        if (end == std::string_view::npos)
            end = csv.size();
        const std::string_view line = trim(csv.substr(from, end - from));
        from = end + 1;
        ++lineNumber;
        if (line.empty())
            continue;
        const auto fields = splitFields(line);
        const std::string where = "line " + std::to_string(lineNumber);
        if (line.starts_with("timestamp")) { // a header (nvidia-smi repeats it per -l restart)
            memoryColumn = indexColumn = -1;
            for (std::size_t i = 0; i < fields.size(); ++i) {
                if (fields[i] == "timestamp")
                    timeColumn = int(i);
                else if (fields[i] == "index")
                    indexColumn = int(i);
                else if (fields[i].starts_with("memory.used"))
                    memoryColumn = int(i);
            }
            if (memoryColumn < 0)
                return Result::fail(where + ": the header has no memory.used column");
            continue;
        }
        if (int(fields.size()) <= std::max({timeColumn, memoryColumn, indexColumn}))
            return Result::fail(
                where + ": expected " +
                std::to_string(std::max({timeColumn, memoryColumn, indexColumn}) + 1) +
                " comma-separated fields, got " + std::to_string(fields.size()));
        int64_t time = 0, bytes = 0, gpu = 0;
        if (!parseTimestamp(fields[size_t(timeColumn)], time))
            return Result::fail(where + ": timestamp: expected YYYY/MM/DD HH:MM:SS.mmm");
        const std::string timeText(fields[size_t(timeColumn)]);
        gpuOfTime = timeText == previousTime ? gpuOfTime + 1 : 0;
        previousTime = timeText;
        if (indexColumn >= 0 && !number(fields[size_t(indexColumn)], gpu))
            return Result::fail(where + ": index: expected a GPU number");
        if (indexColumn < 0)
            gpu = gpuOfTime;
        if (std::find(gpus.begin(), gpus.end(), gpu) == gpus.end() && gpus.size() < 1024)
            gpus.push_back(gpu);
        if (gpu != device)
            continue;
        const std::string_view used = fields[size_t(memoryColumn)];
        if (used.find("N/A") != std::string_view::npos || used.find("Not Supported") != used.npos) {
            ++skipped; // the driver had no figure at that moment
            continue;
        }
        if (!parseMemory(used, bytes))
            return Result::fail(where + ": memory.used: expected a size such as 1234 MiB, got '" +
                                std::string(used.substr(0, 40)) + "'");
        rows.emplace_back(time, bytes);
    }
    if (rows.empty())
        return Result::fail("no memory.used figure for GPU " + std::to_string(device) + " (" +
                            std::to_string(gpus.size()) + " GPU(s) in the log)");
    RunSource s;
    s.kind = "nvidia_smi";
    const std::size_t bucket = (rows.size() + maxTimelinePoints - 1) / maxTimelinePoints;
    for (std::size_t i = 0; i < rows.size(); i += bucket) { // the largest row of each bucket
        auto best = rows.begin() + std::ptrdiff_t(i);
        for (std::size_t j = i; j < std::min(rows.size(), i + bucket); ++j)
            if (rows[j].second > best->second)
                best = rows.begin() + std::ptrdiff_t(j);
        s.timeline.push_back(
            {best->first - rows.front().first, std::nullopt, std::nullopt, best->second});
    }
    s.device = std::max_element(rows.begin(), rows.end(), [](const auto &a, const auto &b) {
                   return a.second < b.second;
               })->second;
    s.details["device"] = device;
    s.details["samples"] = rows.size();
    if (skipped)
        s.details["samples_without_figure"] = skipped;
    s.details["time_origin_us"] = rows.front().first;
    return Result::ok(std::move(s));
}

} // namespace vramplan
