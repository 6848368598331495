#pragma once
// Shared by the Qt Test suites: fixture paths, file loading, and a relative-tolerance compare
// for estimates against measurements (after LabPlot's tests/CommonTest.h).

#include "estimate.h"
#include "formats/scenario_json.h"

#include <QFile>
#include <QString>
#include <QTest>

#include <cmath>
#include <string>
#include <string_view>

namespace vramplan::test {

inline QString dataPath(const QString &relative)
{
    return QStringLiteral(VRAMPLAN_TEST_DATA) + QLatin1Char('/') + relative;
}

inline std::string readFile(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll().toStdString();
}

// Parses scenario text and fails the calling test with the parser's message if it is refused.
inline Scenario parseOrFail(const std::string &text)
{
    auto parsed = scenarioFromText(text);
    if (!parsed) {
        QTest::qFail(("scenario refused: " + parsed.error).c_str(), __FILE__, __LINE__);
        return {};
    }
    return *parsed.value;
}

// The bytes of every estimate item with this name (count included), summed.
inline double itemBytes(const Estimate &e, std::string_view name)
{
    double total = 0;
    for (const auto &item : e.items)
        if (item.name == name)
            total += item.bytes();
    return total;
}

// A scenario file's text from its four sections' bodies, on a 1000 GiB GPU.
inline std::string scenarioText(const std::string &model, const std::string &training,
                                const std::string &parallelism, const std::string &framework)
{
    return "{\"format\":\"vramplan-scenario\",\"model\":{" + model + "},\"training\":{" +
           training + "},\"parallelism\":{" + parallelism + "},\"framework\":\"" + framework +
           "\",\"gpu\":{\"memory_gib\":1000}}";
}

inline bool relativelyClose(double actual, double expected, double tolerance)
{
    if (expected == 0)
        return std::fabs(actual) <= tolerance;
    return std::fabs(actual - expected) <= tolerance * std::fabs(expected);
}

} // namespace vramplan::test
