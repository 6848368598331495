// readShellScript's words expanded: $NAME, ${NAME:-default}, ${NAME[@]}, $((...)), field splitting.

#include "imports/shell_script_internal.h"

#include "imports/config_document.h"
#include "formats/scenario_json.h"
#include "json_value_text.h"

#include <algorithm>
#include <cctype>

namespace vramplan::imports::shell {

void addUnique(std::vector<std::string> &list, const std::string &name)
{
    if (std::find(list.begin(), list.end(), name) == list.end())
        list.push_back(name);
}

void Fields::add(const std::string &text, bool split)
{
    const auto start = [this] {
        list.emplace_back();
        itemU.emplace_back();
        itemD.emplace_back();
        itemLine.push_back(item ? item->line : 0);
        open = true;
    };
    const auto mark = [this] {
        if (!item)
            return;
        for (const auto &u : item->unknowns)
            addUnique(itemU.back(), u);
        for (const auto &u : item->defaulted)
            addUnique(itemD.back(), u);
    };
    if (!split) {
        if (!open)
            start();
        list.back() += text;
        mark();
    } else {
        for (const char c : text) {
            if (c == ' ' || c == '\t' || c == '\n') {
                open = false;
            } else {
                if (!open)
                    start();
                list.back() += c;
                mark();
            }
        }
    }
    if (!list.empty() && list.back().size() > maxWordBytes)
        throw ImportError(": a word expands to more than 1 MiB");
}

// Everything the word read, for a value that is not split (an assignment, a default).
std::vector<std::string> Fields::allUnknowns() const
{
    std::vector<std::string> out = unknowns;
    for (const auto &field : itemU)
        for (const auto &u : field)
            addUnique(out, u);
    return out;
}

std::vector<std::string> Fields::allDefaulted() const
{
    std::vector<std::string> out = defaulted;
    for (const auto &field : itemD)
        for (const auto &u : field)
            addUnique(out, u);
    return out;
}

ShellWord Fields::field(std::size_t i, int line) const
{
    // A word from an array item is placed where the item was written.
    ShellWord w{list[i], itemLine[i] > 0 ? itemLine[i] : line, unknowns, defaulted};
    for (const auto &u : itemU[i])
        addUnique(w.unknowns, u);
    for (const auto &u : itemD[i])
        addUnique(w.defaulted, u);
    return w;
}

void Walker::noteUnknown(Fields &f, const std::string &name, bool defaulted)
{
    if (name == "@" || name == "*") {
        if (!m_notedPositional) {
            m_out.notes.push_back(std::to_string(m_line) + ": $" + name +
                                  " (the script's own arguments) is read as none");
            m_notedPositional = true;
        }
        return;
    }
    addUnique(defaulted ? f.defaulted : f.unknowns,
              (std::isdigit(static_cast<unsigned char>(name[0])) ? "$" : "") + name);
}

void Walker::expand(const std::vector<Segment> &segs, Fields &f, int depth)
{
    if (depth > maxNesting)
        throw ImportError(": expansions nested more than 16 deep");
    for (const Segment &seg : segs) {
        switch (seg.kind) {
        case SegKind::Literal: f.add(seg.text, false); break;
        case SegKind::Command:
            f.add(seg.raw.empty() ? "$(" + seg.text + ")" : seg.raw, false);
            addUnique(f.unknowns, printableLine(seg.raw.empty() ? "$(" + seg.text + ")" : seg.raw, 60));
            break;
        case SegKind::Arith: {
            Fields inner;
            if (const auto v = arithmetic(seg.text, inner)) {
                f.add(std::to_string(*v), false);
            } else {
                f.add(seg.raw, false);
                if (inner.unknowns.empty())
                    addUnique(f.unknowns, printableLine(seg.raw, 60));
            }
            for (const auto &u : inner.unknowns)
                addUnique(f.unknowns, u);
            for (const auto &u : inner.defaulted)
                addUnique(f.defaulted, u);
            break;
        }
        case SegKind::Param: parameter(seg, f, depth); break;
        }
    }
}

void Walker::parameter(const Segment &seg, Fields &f, int depth)
{
    const auto it = m_vars.find(seg.text);
    const Variable *var = it == m_vars.end() ? nullptr : &it->second;
    const bool empty = !var || var->items.empty() || (var->items.size() == 1 && var->items[0].text.empty());
    if (seg.op == "other" || (seg.text == "@" || seg.text == "*") ||
        (!var && seg.op.empty())) {
        noteUnknown(f, seg.text);
        if (seg.text != "@" && seg.text != "*")
            f.add(seg.raw, false);
        return;
    }
    if (!seg.op.empty()) {
        const bool colon = seg.op[0] == ':';
        const char kind = seg.op.back();
        const bool unset = colon ? empty : !var;
        if (kind == '+') {
            if (!var)
                noteUnknown(f, seg.text, true);
            if (!unset)
                expand(seg.arg, f, depth + 1);
            return;
        }
        if (unset) {
            if (!var)
                noteUnknown(f, seg.text, true); // the default stands in for what may be set outside
            Fields value;
            expand(seg.arg, value, depth + 1);
            for (const auto &u : value.allUnknowns())
                addUnique(f.unknowns, u);
            for (const auto &u : value.allDefaulted())
                addUnique(f.defaulted, u);
            std::string joined;
            for (const auto &item : value.list)
                joined += (joined.empty() ? "" : " ") + item;
            if (kind == '=')
                m_vars[seg.text] = {{ShellWord{joined, m_line, f.unknowns, f.defaulted}}, false,
                                    f.unknowns, f.defaulted, m_line};
            if (!value.list.empty() || seg.quoted)
                f.add(joined, !seg.quoted);
            return;
        }
    }
    const auto note = [&f](const ShellWord &item) {
        for (const auto &u : item.unknowns)
            addUnique(f.unknowns, u);
        for (const auto &u : item.defaulted)
            addUnique(f.defaulted, u);
    };
    if (seg.index == "@" || seg.index == "*") {
        bool first = true;
        // Each item's words carry what that item read (Fields keeps them apart).
        for (const auto &item : var->items) {
            f.item = &item;
            if (seg.quoted && seg.index == "@") {
                if (!first) {
                    f.open = false;
                    f.add(item.text, false);
                } else {
                    f.add(item.text, false);
                }
            } else {
                if (!first)
                    f.add(" ", !seg.quoted);
                f.add(item.text, !seg.quoted);
            }
            f.item = nullptr;
            first = false;
        }
        return;
    }
    std::size_t index = 0;
    if (!seg.index.empty()) {
        if (!std::all_of(seg.index.begin(), seg.index.end(),
                         [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }) ||
            seg.index.size() > 6) {
            noteUnknown(f, seg.text);
            f.add(seg.raw, false);
            return;
        }
        index = std::stoul(seg.index);
    }
    if (index < var->items.size()) {
        note(var->items[index]);
        f.add(var->items[index].text, !seg.quoted);
    }
}

std::vector<ShellWord> Walker::words(const std::vector<RawWord> &raw)
{
    std::vector<ShellWord> out;
    for (const RawWord &w : raw) {
        Fields f;
        expand(w.segs, f, 0);
        for (std::size_t i = 0; i < f.list.size(); ++i)
            out.push_back(f.field(i, w.line));
        if (out.size() > maxArrayItems)
            throw ImportError(": more than 100000 words");
    }
    return out;
}

ShellWord Walker::scalar(const std::vector<Segment> &segs, int line)
{
    Fields f;
    // An assignment's value is not split: every segment counts as quoted.
    std::vector<Segment> quoted = segs;
    for (auto &seg : quoted)
        seg.quoted = true;
    expand(quoted, f, 0);
    ShellWord w{{}, line, f.allUnknowns(), f.allDefaulted()};
    for (const auto &item : f.list)
        w.text += (w.text.empty() ? "" : " ") + item;
    return w;
}

} // namespace vramplan::imports::shell
