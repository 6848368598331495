// readShellScript's variables: NAME=value, NAME+=value, bash arrays, and $((arithmetic)).

#include "imports/shell_script_internal.h"

#include "imports/config_document.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>

namespace vramplan::imports::shell {

std::optional<int64_t> Walker::arithmetic(const std::string &expr, Fields &f)
{
    // Replace $NAME / ${NAME} / NAME by the script's integers, then + - * / % ( ).
    std::size_t p = 0;
    bool ok = true;
    const auto skip = [&] {
        while (p < expr.size() && std::isspace(static_cast<unsigned char>(expr[p])))
            ++p;
    };
    std::function<std::optional<int64_t>(int)> sum;
    const auto atom = [&](int depth) -> std::optional<int64_t> {
        skip();
        if (p >= expr.size())
            return std::nullopt;
        if (expr[p] == '(') {
            ++p;
            auto v = sum(depth + 1);
            skip();
            if (p >= expr.size() || expr[p] != ')')
                return std::nullopt;
            ++p;
            return v;
        }
        if (expr[p] == '-') {
            ++p;
            auto v = sum(depth + 1);
            return v ? std::optional<int64_t>(-*v) : std::nullopt;
        }
        if (std::isdigit(static_cast<unsigned char>(expr[p]))) {
            int64_t v = 0;
            while (p < expr.size() && std::isdigit(static_cast<unsigned char>(expr[p]))) {
                if (v > (int64_t(1) << 50))
                    return std::nullopt;
                v = v * 10 + (expr[p++] - '0');
            }
            return v;
        }
        bool braced = false;
        if (expr[p] == '$') {
            ++p;
            if (p < expr.size() && expr[p] == '{') {
                braced = true;
                ++p;
            }
        }
        std::string name;
        while (p < expr.size() && isNameChar(expr[p]))
            name += expr[p++];
        if (braced && p < expr.size() && expr[p] == '}')
            ++p;
        if (name.empty())
            return std::nullopt;
        const auto it = m_vars.find(name);
        if (it == m_vars.end() || it->second.items.empty()) {
            noteUnknown(f, name);
            ok = false;
            return std::nullopt;
        }
        for (const auto &u : it->second.unknowns)
            addUnique(f.unknowns, u);
        for (const auto &u : it->second.defaulted)
            addUnique(f.defaulted, u);
        const std::string &text = it->second.items[0].text;
        if (text.empty() || text.size() > 15 ||
            !std::all_of(text.begin(), text.end(),
                         [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
            return std::nullopt;
        return std::stoll(text);
    };
    const auto product = [&](int depth) -> std::optional<int64_t> {
        auto v = atom(depth);
        while (v) {
            skip();
            if (p >= expr.size() || std::string_view("*/%").find(expr[p]) == std::string_view::npos)
                break;
            const char op = expr[p++];
            const auto r = atom(depth);
            if (!r || ((op == '/' || op == '%') && *r == 0))
                return std::nullopt;
            if (op == '*' && *r != 0 && std::abs(*v) > (int64_t(1) << 50) / std::abs(*r))
                return std::nullopt;
            v = op == '*' ? *v * *r : op == '/' ? *v / *r : *v % *r;
        }
        return v;
    };
    sum = [&](int depth) -> std::optional<int64_t> {
        if (depth > maxNesting)
            return std::nullopt;
        auto v = product(depth);
        while (v) {
            skip();
            if (p >= expr.size() || (expr[p] != '+' && expr[p] != '-'))
                break;
            const char op = expr[p++];
            const auto r = product(depth);
            if (!r)
                return std::nullopt;
            v = op == '+' ? *v + *r : *v - *r;
        }
        return v;
    };
    auto v = sum(0);
    skip();
    if (!ok || p != expr.size())
        return std::nullopt;
    return v;
}

void Walker::assign(const Assignment &a, int line)
{
    if (m_vars.size() > 10000)
        throw ImportError(": more than 10000 variables");
    Variable &var = m_vars[a.name];
    if (!a.append) {
        var = {};
    }
    var.line = line;
    if (a.isArray) {
        var.array = true;
        for (auto &w : words(a.items)) {
            for (const auto &u : w.unknowns)
                addUnique(var.unknowns, u);
            for (const auto &u : w.defaulted)
                addUnique(var.defaulted, u);
            var.items.push_back(std::move(w));
        }
    } else {
        ShellWord w = scalar(a.value, line);
        for (const auto &u : w.unknowns)
            addUnique(var.unknowns, u);
        for (const auto &u : w.defaulted)
            addUnique(var.defaulted, u);
        if (a.append && !var.items.empty() && !var.array) {
            var.items[0].text += w.text;
            for (const auto &u : w.unknowns)
                addUnique(var.items[0].unknowns, u);
            for (const auto &u : w.defaulted)
                addUnique(var.items[0].defaulted, u);
        } else if (a.append && var.array) {
            var.items.push_back(std::move(w));
        } else {
            var.items = {std::move(w)};
        }
    }
    if (var.items.size() > maxArrayItems)
        throw ImportError(": an array of more than 100000 items");
}

} // namespace vramplan::imports::shell
