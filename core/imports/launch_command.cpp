// readLaunchScript: the launch command of a script and its flags as a ConfigDoc
// (launch_command.h).

#include "imports/launch_command.h"

#include "formats/scenario_json.h"
#include "json_value_text.h"

#include <algorithm>

namespace vramplan::imports {
namespace {

std::string baseName(const std::string &path)
{
    const std::size_t slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

nlohmann::json typed(const ShellWord &w)
{
    // A value the script does not give (`$MBS`) stays the text it was written as, so that a
    // read of it names it.
    return w.unknowns.empty() ? plainScalar(w.text) : nlohmann::json(w.text);
}

bool isNumber(const std::string &t)
{
    return t.size() > 1 && t[0] == '-' &&
           (std::isdigit(static_cast<unsigned char>(t[1])) || t[1] == '.');
}

void addUser(std::vector<std::string> &users, const std::string &key)
{
    if (std::find(users.begin(), users.end(), key) == users.end())
        users.push_back(key);
}

struct Builder
{
    nlohmann::json root = nlohmann::json::object();
    std::map<std::string, int, std::less<>> lines;
};

void flagArguments(const std::vector<ShellWord> &words, std::size_t from, LaunchScript &out,
                   Builder &b, const std::string &file)
{
    std::string key;
    std::vector<ShellWord> values;
    const auto flush = [&] {
        if (key.empty())
            return;
        nlohmann::json value;
        std::string text;
        if (values.empty()) {
            value = true;
        } else if (values.size() == 1) {
            value = typed(values[0]);
        } else {
            value = nlohmann::json::array();
            for (const ShellWord &w : values)
                value.push_back(typed(w));
        }
        for (const ShellWord &w : values) {
            text += (text.empty() ? "" : " ") + w.text;
            for (const auto &u : w.unknowns)
                addUser(out.unknowns[u], "--" + key);
            for (const auto &u : w.defaulted)
                addUser(out.defaulted[u], "--" + key);
        }
        // argparse: a flag given twice keeps its last value.
        b.root[key] = std::move(value);
        key.clear();
        values.clear();
    };
    for (std::size_t i = from; i < words.size(); ++i) {
        const ShellWord &w = words[i];
        if (w.text.size() > 2 && w.text.starts_with("--")) {
            flush();
            key = w.text.substr(2);
            b.lines[key] = w.line;
            const std::size_t eq = key.find('=');
            if (eq != std::string::npos) {
                values.push_back({key.substr(eq + 1), w.line, w.unknowns, w.defaulted});
                key.resize(eq);
                b.lines[key] = w.line;
            }
            // A dotted flag would read as a section; flags have none, so keep the dots out.
            std::replace(key.begin(), key.end(), '.', '_');
        } else if (!key.empty() || isNumber(w.text)) {
            if (key.empty())
                out.notes.push_back(file + ":" + std::to_string(w.line) + ": '" +
                                    printableLine(w.text, 60) + "' follows no flag; not read");
            else
                values.push_back(w);
        } else {
            out.notes.push_back(file + ":" + std::to_string(w.line) + ": '" +
                                printableLine(w.text, 60) + "' follows no flag; not read");
        }
    }
    flush();
}

void hydraOverrides(const std::vector<ShellWord> &words, std::size_t from, LaunchScript &out,
                    Builder &b, const std::string &file)
{
    for (std::size_t i = from; i < words.size(); ++i) {
        const ShellWord &w = words[i];
        std::string text = w.text;
        const std::size_t eq = text.find('=');
        if (eq == std::string::npos || text.starts_with("~") || text.starts_with("-")) {
            out.notes.push_back(file + ":" + std::to_string(w.line) + ": '" +
                                printableLine(text, 60) +
                                "' is not a key=value override; not read");
            continue;
        }
        std::string key = text.substr(0, eq);
        // Hydra's +key= adds a key the config lacks, ++key= adds or overrides: the same value.
        while (!key.empty() && key[0] == '+')
            key.erase(0, 1);
        if (key.empty())
            continue;
        ShellWord value{text.substr(eq + 1), w.line, w.unknowns, w.defaulted};
        nlohmann::json *node = &b.root;
        std::size_t start = 0;
        while (true) {
            const std::size_t dot = key.find('.', start);
            const std::string part = key.substr(start, dot - start);
            if (!node->is_object())
                *node = nlohmann::json::object();
            if (dot == std::string::npos) {
                (*node)[part] = typed(value);
                break;
            }
            node = &(*node)[part];
            start = dot + 1;
        }
        b.lines[key] = w.line;
        for (const auto &u : w.unknowns)
            addUser(out.unknowns[u], key);
        for (const auto &u : w.defaulted)
            addUser(out.defaulted[u], key);
    }
}

} // namespace

std::optional<int64_t> LaunchScript::literalNumber(const ShellWord &word) const
{
    if (!word.literal() || word.text.empty() || word.text.size() > 9 ||
        !std::all_of(word.text.begin(), word.text.end(),
                     [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
        return std::nullopt;
    return std::stoll(word.text);
}

const ShellWord *LaunchScript::env(std::string_view name) const
{
    for (const auto &[n, w] : environment)
        if (n == name)
            return &w;
    return script.variable(name);
}

std::optional<LaunchScript> readLaunchScript(const std::string &file, std::string_view text)
{
    LaunchScript out;
    out.script = readShellScript(file, text);
    for (const auto &note : out.script.notes)
        out.notes.push_back(file + ":" + note);
    const ShellCommand *found = nullptr;
    std::size_t argsFrom = 0, scriptAt = 0;
    int launches = 0;
    for (const ShellCommand &cmd : out.script.commands) {
        for (std::size_t j = 0; j < cmd.words.size(); ++j) {
            const std::string &w = cmd.words[j].text;
            const std::string base = baseName(w);
            std::optional<LaunchTool> tool;
            std::size_t from = j + 1;
            std::string sub;
            if (base == "pretrain_gpt.py") {
                tool = LaunchTool::Megatron;
            } else if (w == "verl.trainer.main_ppo" || base == "main_ppo.py") {
                tool = LaunchTool::Verl;
            } else if ((base == "swift" || base == "megatron") && j + 1 < cmd.words.size() &&
                       (cmd.words[j + 1].text == "sft" || cmd.words[j + 1].text == "pt" ||
                        cmd.words[j + 1].text == "rlhf")) {
                tool = LaunchTool::MsSwift;
                sub = base + " " + cmd.words[j + 1].text;
                from = j + 2;
            }
            if (!tool)
                continue;
            if (++launches == 1) {
                found = &cmd;
                out.tool = *tool;
                out.subcommand = sub;
                argsFrom = from;
                scriptAt = j;
                out.line = cmd.line;
            }
            break;
        }
    }
    if (!found)
        return std::nullopt;
    if (launches > 1)
        out.notes.push_back(file + ":" + std::to_string(out.line) + ": the script launches " +
                            std::to_string(launches) + " runs; the first (this line) is read");
    out.environment = found->environment;
    // torchrun's own flags, before the script: --nproc_per_node 8, --nnodes=2.
    for (std::size_t j = 0; j < scriptAt; ++j) {
        std::string name = found->words[j].text;
        if (!name.starts_with("--"))
            continue;
        name.erase(0, 2);
        std::replace(name.begin(), name.end(), '-', '_');
        const std::size_t eq = name.find('=');
        if (eq != std::string::npos) {
            out.launcher[name.substr(0, eq)] = {name.substr(eq + 1), found->words[j].line,
                                                found->words[j].unknowns,
                                                found->words[j].defaulted};
        } else if (j + 1 < scriptAt && !found->words[j + 1].text.starts_with("-")) {
            out.launcher[name] = found->words[j + 1];
            ++j;
        }
    }
    Builder b;
    if (out.tool == LaunchTool::Verl)
        hydraOverrides(found->words, argsFrom, out, b, file);
    else
        flagArguments(found->words, argsFrom, out, b, file);
    out.flags = std::make_unique<ConfigDoc>(file, std::move(b.root), std::move(b.lines),
                                            out.tool == LaunchTool::Verl ? "" : "--");
    return out;
}

std::vector<std::string> launchWarnings(const LaunchScript &launch)
{
    std::vector<std::string> out;
    const ConfigDoc &doc = *launch.flags;
    const auto list = [](const std::vector<std::string> &keys) {
        std::string text;
        for (const auto &key : keys)
            text += (text.empty() ? "" : ", ") + key;
        return text;
    };
    for (const auto &[name, keys] : launch.unknowns)
        out.push_back(doc.file() + ":" + std::to_string(launch.line) + ": " + name +
                      " is not set in the script (its arguments or the environment); left as "
                      "written in " + list(keys));
    for (const auto &[name, keys] : launch.defaulted)
        out.push_back(doc.file() + ":" + std::to_string(launch.line) + ": " + name +
                      " is not set in the script; the default the script gives it is read in " +
                      list(keys));
    return out;
}

} // namespace vramplan::imports
