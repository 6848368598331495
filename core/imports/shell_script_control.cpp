// readShellScript's control flow: `if` decided by the script's own values, loops and case skipped.

#include "imports/shell_script_internal.h"

#include "imports/config_document.h"
#include "formats/scenario_json.h"
#include "json_value_text.h"

#include <algorithm>
#include <cctype>

namespace vramplan::imports::shell {

// `[[ a == b ]]`, `[ -z x ]`, `test a != b`: true, false, or nullopt when it depends on what
// the script does not set (`undecidedBy` names it) or on the machine (-f, -d, command -v).
std::optional<bool> Walker::test(const std::vector<RawWord> &raw, std::string &undecidedBy)
{
    std::vector<ShellWord> w = words(raw);
    if (w.empty())
        return std::nullopt;
    const std::string head = w.front().text;
    if (head == "[[" || head == "[") {
        w.erase(w.begin());
        if (!w.empty() && (w.back().text == "]]" || w.back().text == "]"))
            w.pop_back();
    } else if (head == "test") {
        w.erase(w.begin());
    } else if (head == "true" || head == "false") {
        return head == "true";
    } else {
        undecidedBy = "the command " + printableLine(head, 40);
        return std::nullopt;
    }
    bool negate = false;
    if (!w.empty() && w.front().text == "!") {
        negate = true;
        w.erase(w.begin());
    }
    for (const auto &word : w) {
        if (!word.unknowns.empty()) {
            undecidedBy = word.unknowns.front();
            return std::nullopt;
        }
        // A default stands in for what is not given: decided as the script runs without it.
        for (const auto &name : word.defaulted)
            if (std::find(m_defaultNoted.begin(), m_defaultNoted.end(), name) == m_defaultNoted.end()) {
                m_defaultNoted.push_back(name);
                m_out.notes.push_back(std::to_string(m_line) + ": this `if` reads the default of " +
                                      name + " (not set in the script)");
            }
    }
    std::optional<bool> r;
    if (w.size() == 2 && (w[0].text == "-z" || w[0].text == "-n"))
        r = w[0].text == "-z" ? w[1].text.empty() : !w[1].text.empty();
    else if (w.size() == 1)
        r = !w[0].text.empty();
    else if (w.size() == 3 && (w[1].text == "==" || w[1].text == "=" || w[1].text == "!="))
        r = (w[0].text == w[2].text) != (w[1].text == "!=");
    else
        undecidedBy = "a test of the machine (" + printableLine(w.front().text, 20) + ")";
    if (r && negate)
        r = !*r;
    return r;
}

std::optional<bool> Walker::combine(std::optional<bool> a, Tok op, std::optional<bool> b)
{
    if (op == Tok::And) {
        if ((a && !*a) || (b && !*b))
            return false;
        if (a && b)
            return true;
        return std::nullopt;
    }
    if (op == Tok::Or) {
        if ((a && *a) || (b && *b))
            return true;
        if (a && b)
            return false;
        return std::nullopt;
    }
    return b; // `a; b`: the last command decides
}

void Walker::pushFrame(Frame f)
{
    if (m_frames.size() >= maxFrames)
        throw ImportError(": if/for/case nested more than 64 deep");
    f.line = m_line;
    f.parentActive = outerActive();
    m_frames.push_back(std::move(f));
}

void Walker::closeIf()
{
    const Frame f = m_frames.back();
    m_frames.pop_back();
    if (!f.undecidedBy.empty() && f.skippedWork && f.parentActive)
        m_out.notes.push_back(std::to_string(f.line) + ": this `if` depends on " +
                              f.undecidedBy +
                              ", which the script does not set; none of its branches is read");
}

void Walker::markSkipped()
{
    for (auto &f : m_frames)
        f.skippedWork = true;
}

void Walker::walk()
{
    while (!m_exited) {
        auto cmd = next();
        if (!cmd)
            break;
        m_line = cmd->line;
        handle(*cmd);
    }
    if (!m_frames.empty() && !m_exited)
        throw ImportError(": a `" + std::string(m_frames.back().kind == Frame::If ? "if" : "block") +
                          "` opened on line " + std::to_string(m_frames.back().line) +
                          " is never closed");
}

void Walker::handle(RawCommand &cmd)
{
    const std::string head = cmd.words.empty() || !cmd.assignments.empty()
                                 ? std::string()
                                 : plainText(cmd.words.front());
    const auto rest = [&cmd]() {
        RawCommand r = cmd;
        r.words.erase(r.words.begin());
        return r;
    };
    if (!m_frames.empty() && m_frames.back().kind == Frame::Skip) {
        Frame &f = m_frames.back();
        if (head == "{" || (cmd.functionHeader && f.end == "}"))
            ++f.braces;
        if (head == f.end && (f.end != "}" || --f.braces <= 0)) {
            const Frame closed = f;
            m_frames.pop_back();
            if (closed.skippedWork && closed.parentActive)
                m_out.notes.push_back(std::to_string(closed.line) + ": a " +
                                      (closed.end == "done" ? "loop"
                                       : closed.end == "esac" ? "case"
                                                              : "function") +
                                      " is not run; what it sets is not read");
        } else if (head == "for" || head == "while" || head == "until") {
            pushFrame({Frame::Skip, true, false, false, false, {}, false, Tok::Semi, {}, false, 0, "done"});
        } else if (head == "case") {
            pushFrame({Frame::Skip, true, false, false, false, {}, false, Tok::Semi, {}, false, 0, "esac"});
        } else if (!cmd.assignments.empty() || !cmd.words.empty()) {
            m_frames.back().skippedWork = m_frames.back().skippedWork || !cmd.assignments.empty() || cmd.words.size() > 1;
        }
        return;
    }
    if (!m_frames.empty() && m_frames.back().inCondition) {
        Frame &f = m_frames.back();
        if (head == "then") {
            f.inCondition = false;
            if (f.condition)
                f.undecidedBy.clear(); // `a || b`: a decided it
            if (!f.taken) {
                if (!f.condition) {
                    f.taken = true; // undecided: no branch of this if is read
                    f.active = false;
                } else {
                    f.active = *f.condition;
                    f.taken = *f.condition;
                }
            } else {
                f.active = false;
            }
            RawCommand r = rest();
            if (!r.words.empty() || !r.assignments.empty())
                handle(r);
            return;
        }
        std::string by;
        const auto value = test(cmd.words, by);
        if (!value && f.undecidedBy.empty())
            f.undecidedBy = by;
        f.condition = f.conditionStarted ? combine(f.condition, f.lastConnector, value) : value;
        f.conditionStarted = true;
        f.lastConnector = cmd.connector;
        return;
    }
    if (head == "if") {
        pushFrame({Frame::If, true, false, false, true});
        RawCommand r = rest();
        if (!r.words.empty())
            handle(r);
        return;
    }
    if (head == "elif" || head == "else" || head == "fi" || head == "then") {
        if (m_frames.empty() || m_frames.back().kind != Frame::If)
            throw ImportError(": `" + head + "` without its `if`");
        Frame &f = m_frames.back();
        if (head == "fi") {
            closeIf();
        } else if (head == "else") {
            f.active = !f.taken;
            f.taken = true;
        } else if (head == "elif") {
            f.active = false;
            f.inCondition = true;
            f.conditionStarted = false;
            f.condition.reset();
        }
        RawCommand r = rest();
        if (!r.words.empty() || !r.assignments.empty())
            handle(r);
        return;
    }
    if (head == "for" || head == "while" || head == "until" || head == "case" ||
        head == "function" || cmd.functionHeader) {
        Frame f{Frame::Skip};
        f.end = head == "case" ? "esac" : (head == "function" || cmd.functionHeader) ? "}" : "done";
        // `name() {` on one line opens its brace at once.
        for (const auto &w : cmd.words)
            if (plainText(w) == "{")
                ++f.braces;
        f.skippedWork = head != "for" && head != "while" && head != "until" && head != "case";
        pushFrame(std::move(f));
        if (head == "for" || head == "while" || head == "until")
            m_frames.back().skippedWork = false;
        return;
    }
    if (!active()) {
        if (!cmd.assignments.empty() || (!cmd.words.empty() && head != "echo" && head != "exit"))
            markSkipped();
        return;
    }
    if (head == "exit" && m_frames.empty()) {
        m_exited = true;
        return;
    }
    if (cmd.words.empty()) {
        for (const auto &a : cmd.assignments)
            assign(a, cmd.line);
        return;
    }
    if (head == "export" || head == "declare" || head == "local" || head == "readonly" ||
        head == "typeset") {
        for (std::size_t i = 1; i < cmd.words.size(); ++i)
            if (const auto a = assignmentOf(cmd.words[i]))
                assign(*a, cmd.line);
        return;
    }
    if (head == "source" || head == ".") {
        m_out.notes.push_back(std::to_string(cmd.line) +
                              ": a sourced file is not read; what it sets is not known");
        return;
    }
    ShellCommand out;
    out.line = cmd.line;
    for (const auto &a : cmd.assignments)
        out.environment.emplace_back(a.name, scalar(a.value, cmd.line));
    out.words = words(cmd.words);
    if (out.words.empty())
        return;
    if (m_out.commands.size() > maxTokens)
        throw ImportError(": more than 200000 commands");
    m_out.commands.push_back(std::move(out));
}

} // namespace vramplan::imports::shell
