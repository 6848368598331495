// readShellScript's tokens grouped into simple commands: assignments, NAME=( ... ), name() {.

#include "imports/shell_script_internal.h"

#include "imports/config_document.h"

namespace vramplan::imports::shell {

std::optional<Walker::Assignment> Walker::assignmentOf(const RawWord &w)
{
    if (w.segs.empty() || w.segs[0].kind != SegKind::Literal || w.segs[0].quoted)
        return std::nullopt;
    const std::string &t = w.segs[0].text;
    const std::size_t eq = t.find('=');
    if (eq == std::string::npos || eq == 0)
        return std::nullopt;
    Assignment a;
    a.append = t[eq - 1] == '+';
    a.name = t.substr(0, a.append ? eq - 1 : eq);
    if (!isIdentifier(a.name))
        return std::nullopt;
    if (eq + 1 < t.size())
        a.value.push_back({SegKind::Literal, t.substr(eq + 1), false});
    a.value.insert(a.value.end(), w.segs.begin() + 1, w.segs.end());
    return a;
}

std::string Walker::plainText(const RawWord &w)
{
    if (w.segs.size() != 1 || w.segs[0].kind != SegKind::Literal || w.segs[0].quoted)
        return "";
    return w.segs[0].text;
}

// The next simple command (words up to a separator), or nullopt at the end.
std::optional<Walker::RawCommand> Walker::next()
{
    RawCommand cmd;
    while (m_i < m_tokens.size() && m_tokens[m_i].kind == Tok::Newline)
        ++m_i;
    if (m_i >= m_tokens.size())
        return std::nullopt;
    cmd.line = m_tokens[m_i].line;
    bool wordsStarted = false;
    while (m_i < m_tokens.size()) {
        Token &t = m_tokens[m_i];
        if (t.kind == Tok::Word) {
            auto assignment = wordsStarted ? std::nullopt : assignmentOf(t.word);
            if (assignment && assignment->value.empty() && m_i + 1 < m_tokens.size() &&
                m_tokens[m_i + 1].kind == Tok::LParen && m_tokens[m_i + 1].glued) {
                // NAME=( items ... ): newlines and comments allowed inside.
                assignment->isArray = true;
                m_i += 2;
                while (m_i < m_tokens.size() && m_tokens[m_i].kind != Tok::RParen) {
                    if (m_tokens[m_i].kind == Tok::Word)
                        assignment->items.push_back(std::move(m_tokens[m_i].word));
                    ++m_i;
                }
                if (m_i >= m_tokens.size())
                    throw ImportError(m_file + ":" + std::to_string(cmd.line) + ": the ( of " +
                                      assignment->name + "=( is never closed");
                ++m_i;
                cmd.assignments.push_back(std::move(*assignment));
                continue;
            }
            if (assignment) {
                cmd.assignments.push_back(std::move(*assignment));
            } else {
                wordsStarted = true;
                cmd.words.push_back(std::move(t.word));
            }
            ++m_i;
            continue;
        }
        if (t.kind == Tok::LParen && t.glued && m_i + 1 < m_tokens.size() &&
            m_tokens[m_i + 1].kind == Tok::RParen) {
            cmd.functionHeader = true; // name() { ... }
            m_i += 2;
            continue;
        }
        ++m_i;
        if (t.kind == Tok::LParen || t.kind == Tok::RParen) {
            if (cmd.words.empty() && cmd.assignments.empty())
                continue; // ( subshell ): its commands are read as the script's
            cmd.connector = Tok::Semi;
            break;
        }
        cmd.connector = t.kind;
        break;
    }
    return cmd;
}

} // namespace vramplan::imports::shell
