// Reading a scenario file: the entry points (text or JSON to a Scenario), the JSON text parser
// our readers share, and release versions. The sections are read in scenario_model_reader.cpp
// and scenario_section_readers.cpp; scenario_writer.cpp writes a scenario back.

#include "formats/scenario_json.h"

#include "formats/json_reader.h"
#include "formats/scenario_readers.h"
#include "formats/serving_json.h"

#include <cctype>
#include <cmath>

namespace vramplan {
using namespace scenario_json_internal;

namespace {

using nlohmann::json;

// `framework_version`: "4.57", "4.57.1" or "transformers 4.57" (the name, when written, must
// be the scenario's framework: a version of another framework would be silently misread).
bool parseFrameworkVersion(const std::string &text, Framework framework, FrameworkVersion &out,
                           std::string &error)
{
    return parseReleaseVersion(text, toString(framework), "framework_version", out, error);
}

} // namespace

bool parseReleaseVersion(std::string_view text, std::string_view name, std::string_view key,
                         FrameworkVersion &out, std::string &error)
{
    std::string_view rest = text;
    const std::string shown = printableLine(std::string(text), 40);
    if (const size_t space = rest.find(' '); space != std::string_view::npos) {
        if (rest.substr(0, space) != name) {
            error = std::string(key) + ": \"" + shown + "\" names another " +
                    (key.rfind("serving.", 0) == 0 ? "engine" : "framework") + " than \"" +
                    std::string(name) + "\"";
            return false;
        }
        rest = rest.substr(space + 1);
    }
    int parts[3] = {0, 0, 0};
    int count = 0;
    while (!rest.empty() && count < 3) {
        size_t digits = 0;
        int64_t value = 0;
        while (digits < rest.size() && rest[digits] >= '0' && rest[digits] <= '9' && value < 100000)
            value = value * 10 + (rest[digits++] - '0');
        if (digits == 0 || value >= 100000)
            break;
        parts[count++] = int(value);
        rest = rest.substr(digits);
        if (rest.empty() || rest[0] != '.')
            break;
        rest = rest.substr(1);
    }
    // A suffix such as "rc1", ".dev0" or "+cu124" after major.minor is allowed and ignored.
    const bool suffixOk = rest.empty() || std::isalpha(static_cast<unsigned char>(rest[0])) ||
                          rest[0] == '+' || rest[0] == '-';
    if (count < 2 || !suffixOk) {
        error = std::string(key) + ": expected a release such as \"" +
                std::string(name == "vllm" || name == "sglang" ? "0.21" : "4.57") + "\" or \"" +
                std::string(name) + (name == "vllm" || name == "sglang" ? " 0.21" : " 4.57") +
                "\", got \"" + shown + "\"";
        return false;
    }
    out = {true, parts[0], parts[1], parts[2]};
    return true;
}

FrameworkVersion releaseOrRefused(std::string_view text, std::string_view name,
                                  std::string_view key)
{
    if (text.empty())
        return {};
    FrameworkVersion version;
    std::string error;
    return parseReleaseVersion(text, name, key, version, error) ? version
                                                                 : FrameworkVersion{true, -1, 0, 0};
}

std::string frameworkVersionText(const FrameworkVersion &v)
{
    return std::to_string(v.major) + "." + std::to_string(v.minor) +
           (v.patch > 0 ? "." + std::to_string(v.patch) : "");
}

Parsed<Scenario> scenarioFromJson(const json &document)
{
    std::string error;
    Scenario s;
    JsonReader top(document, "", error);
    std::string format;
    if (!top.string("format", format, 64)) {
        if (top.ok())
            top.fail("format", "is missing (expected \"vramplan-scenario\")");
        return Parsed<Scenario>::fail(error);
    }
    if (format != "vramplan-scenario")
        return Parsed<Scenario>::fail("format: expected \"vramplan-scenario\", got \"" +
                                      printableLine(format, 40) + "\"");
    int64_t version = scenarioFormatVersion;
    if (top.has("version") && top.integer("version", version, 1, int64_t(1) << 30) &&
        version > scenarioFormatVersion)
        return Parsed<Scenario>::fail("version: " + std::to_string(version) +
                                      " is newer than this vramplan reads (" +
                                      std::to_string(scenarioFormatVersion) + "); update vramplan");
    top.string("name", s.name, 1024);
    top.enumeration("framework", s.framework);
    std::string frameworkVersion;
    if (top.string("framework_version", frameworkVersion, 64) && !frameworkVersion.empty() &&
        !parseFrameworkVersion(frameworkVersion, s.framework, s.frameworkVersion, error))
        return Parsed<Scenario>::fail(error);
    top.object("model");
    top.object("training");
    top.object("parallelism");
    top.object("gpu");
    top.object("calibration");
    top.object("serving");
    top.object("rl");
    top.finish();
    if (!top.ok())
        return Parsed<Scenario>::fail(error);
    if (!readModel(document, s.model, error) || !readTraining(document, s.training, error) ||
        !readParallelism(document, s.parallelism, error) || !readGpu(document, s.gpu, error) ||
        !readCalibration(document, s.calibration, error) ||
        !readServing(document, s.serving, error) || !readRl(document, s.rl, error) ||
        !checkLayout(s, error))
        return Parsed<Scenario>::fail(error);
    if (s.rl.present() && s.training.mode != Mode::Train)
        return Parsed<Scenario>::fail("rl: needs training.mode \"train\" (a policy is trained)");
    return Parsed<Scenario>::ok(std::move(s));
}

namespace {

// " at line L, column C" of the first number whose value overflows a double, or "".
std::string overflowPosition(std::string_view text)
{
    size_t line = 1, lineStart = 0;
    for (size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++line;
            lineStart = i + 1;
            continue;
        }
        const bool startsNumber =
            (text[i] == '-' || std::isdigit(static_cast<unsigned char>(text[i]))) &&
            (i == 0 || std::string_view(" \t\r\n:[,").find(text[i - 1]) != std::string_view::npos);
        if (!startsNumber)
            continue;
        const std::string token(text.substr(i, 400));
        char *end = nullptr;
        const double v = std::strtod(token.c_str(), &end);
        if (end != token.c_str() && !std::isfinite(v))
            return " at line " + std::to_string(line) + ", column " +
                   std::to_string(i - lineStart + 1);
    }
    return {};
}

} // namespace

std::string printableLine(std::string text, size_t limit)
{
    for (char &ch : text)
        if (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f)
            ch = '?';
    if (text.size() > limit)
        text = text.substr(0, limit) + "... (cut)";
    return text;
}

Parsed<json> jsonFromText(std::string_view text)
{
    if (text.find_first_not_of(" \t\r\n") == std::string_view::npos)
        return Parsed<json>::fail("the file is empty (expected JSON)");
    if (const auto nul = text.find('\0'); nul != std::string_view::npos)
        return Parsed<json>::fail("not valid JSON: a NUL byte at offset " + std::to_string(nul) +
                                  " (not a text file?)");
    try {
        // A callback rejects absurd nesting before it can exhaust the stack.
        return Parsed<json>::ok(json::parse(text, [](int depth, json::parse_event_t, json &) {
            if (depth > 64)
                throw std::runtime_error("nesting deeper than 64 levels");
            return true;
        }));
    } catch (const json::parse_error &e) {
        std::string what = e.what();
        // Drop nlohmann's prefix and cut its echo of the token read so far.
        if (const auto pos = what.find("parse error"); pos != std::string::npos)
            what = what.substr(pos);
        if (const auto echo = what.find("; last read: '");
            echo != std::string::npos && what.size() - echo > 60)
            what = what.substr(0, echo + 50) + "...'";
        return Parsed<json>::fail(printableLine("not valid JSON: " + what));
    } catch (const json::out_of_range &) {
        // A number beyond double's range; nlohmann names no position for it, so find it.
        return Parsed<json>::fail("not valid JSON: a number too large for a double" +
                                  overflowPosition(text));
    } catch (const std::exception &e) {
        return Parsed<json>::fail(
            printableLine(std::string("not a usable JSON document: ") + e.what()));
    }
}

Parsed<json> hfJsonFromText(std::string_view text)
{
    std::string clean;
    clean.reserve(text.size());
    bool inString = false;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            clean += c;
            if (c == '\\' && i + 1 < text.size())
                clean += text[++i];
            else if (c == '"')
                inString = false;
            continue;
        }
        if (c == '"')
            inString = true;
        bool replaced = false;
        for (std::string_view literal : {"-Infinity", "Infinity", "NaN"}) {
            if (text.substr(i, literal.size()) == literal) {
                clean += "null";
                i += literal.size() - 1;
                replaced = true;
                break;
            }
        }
        if (!replaced)
            clean += c;
    }
    return jsonFromText(clean);
}

Parsed<Scenario> scenarioFromText(std::string_view text)
{
    auto document = jsonFromText(text);
    if (!document) {
        if (document.error.rfind("the file is empty", 0) == 0)
            return Parsed<Scenario>::fail("the file is empty (expected a JSON scenario)");
        return Parsed<Scenario>::fail(document.error);
    }
    return scenarioFromJson(*document.value);
}

} // namespace vramplan
