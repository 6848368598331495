#pragma once
// What tst_exports.cpp reads an exported file with, independently of the importers: the scenario
// a row names, the lines a user reads, the keys a file sets, the keys its tool documents
// (tests/data/imports/exports/documented_keys.json), and the file as the tool reads it.

#include "formats/scenario_json.h"
#include "imports/export_setup.h"

#include <QtGlobal>

#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>

namespace vramplan::test {

using nlohmann::json;

inline std::string readText(const std::string &path)
{
    std::ifstream in(path);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

// A scenario: inline JSON, or a file under tests/data/.
inline Scenario scenario(const std::string &source)
{
    const std::string text =
        source.front() == '{' ? source : readText(std::string(VRAMPLAN_TEST_DATA "/") + source);
    auto s = scenarioFromJson(json::parse(text));
    if (!s)
        qFatal("%s", s.error.c_str());
    return *s.value;
}

inline bool shellFormat(ExportFormat f)
{
    return f == ExportFormat::Megatron || f == ExportFormat::Verl || f == ExportFormat::Swift;
}

// A line as the user reads it: a launch script's without its indent and continuation.
inline std::string plainLine(std::string line, ExportFormat f)
{
    if (!shellFormat(f))
        return line;
    if (line.size() >= 2 && line.compare(line.size() - 2, 2, " \\") == 0)
        line.resize(line.size() - 2);
    return line.substr(std::min(line.size(), line.find_first_not_of(' ')));
}

inline void leafKeys(const json &node, const std::string &path, std::set<std::string> &out)
{
    if (node.is_object() && !node.empty()) {
        for (const auto &[k, v] : node.items())
            leafKeys(v, path.empty() ? k : path + "." + k, out);
        return;
    }
    out.insert(path);
}

// The keys a file sets, read independently of the importers: JSON leaves; YAML keys (one level
// of nesting, "  - item" lists); TOML [section] keys; key=value overrides; a launch script's
// flags, Hydra overrides and NAME=value environment.
inline std::set<std::string> writtenKeys(const std::string &text, ExportFormat format)
{
    std::set<std::string> out;
    if (format == ExportFormat::DeepSpeed) {
        leafKeys(json::parse(text), "", out);
        return out;
    }
    std::istringstream lines(text);
    std::string parent, section;
    for (std::string raw; std::getline(lines, raw);) {
        const std::string line = plainLine(raw, format);
        if (line.empty() || line[0] == '#')
            continue;
        if (shellFormat(format)) {
            const std::size_t eq = line.find('='), space = line.find(' ');
            if (line.rfind("--", 0) == 0)
                out.insert(line.substr(0, space));
            else if (eq != std::string::npos && eq < space)
                out.insert(line.substr(0, eq));
            continue;
        }
        if (format == ExportFormat::Torchtune) {
            out.insert(line.substr(0, line.find('=')));
        } else if (format == ExportFormat::Torchtitan) {
            if (line[0] == '[')
                section = line.substr(1, line.find(']') - 1);
            else
                out.insert(section + "." + line.substr(0, line.find(" =")));
        } else if (line.rfind("  - ", 0) == 0) {
            out.insert(parent);
        } else if (line.rfind("  ", 0) == 0) {
            out.insert(parent + "." + line.substr(2, line.find(':') - 2));
        } else {
            parent = line.substr(0, line.find(':'));
            if (line.find(": ") != std::string::npos)
                out.insert(parent);
        }
    }
    return out;
}

inline std::string formatName(ExportFormat f)
{
    return exportFormatNames()[std::size_t(f)];
}

// The keys the tool documents (tests/data/imports/exports/documented_keys.json).
inline std::set<std::string> documentedKeys(ExportFormat f, const std::string &text)
{
    static const json all =
        json::parse(readText(VRAMPLAN_TEST_DATA "/imports/exports/documented_keys.json"));
    std::string name = formatName(f);
    if (f == ExportFormat::Swift && text.find("megatron sft") != std::string::npos)
        name = "swift_megatron";
    return all.at(name).at("keys").get<std::set<std::string>>();
}

// The exported text as the file the tool reads.
inline std::string fileOf(ExportFormat f, const std::string &text, const Scenario &s,
                          std::string &name)
{
    name = formatName(f) + exportFileSuffix(f);
    if (f == ExportFormat::Megatron)
        return "torchrun --nproc_per_node " + std::to_string(s.parallelism.gpus) +
               " pretrain_gpt.py \\\n" + text;
    if (f != ExportFormat::Torchtune)
        return text;
    // The overrides as the recipe config they override: key=value -> a nested JSON.
    json config = json::object();
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        const std::size_t eq = line.find('=');
        std::string key = line.substr(0, eq), value = line.substr(eq + 1);
        json v = value == "True" ? json(true) : value == "False" ? json(false) : json(value);
        if (!value.empty() && value.find_first_not_of("0123456789") == std::string::npos)
            v = std::stoll(value);
        if (value.size() > 1 && value.front() == '[') {
            v = json::array();
            std::istringstream items(value.substr(1, value.size() - 2));
            for (std::string item; std::getline(items, item, ',');)
                v.push_back(item);
        }
        json *node = &config;
        for (std::size_t dot; (dot = key.find('.')) != std::string::npos; key.erase(0, dot + 1))
            node = &(*node)[key.substr(0, dot)];
        (*node)[key] = v;
    }
    name = "recipe.json";
    return config.dump(2);
}

} // namespace vramplan::test
