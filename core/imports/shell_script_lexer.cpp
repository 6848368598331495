// readShellScript's lexer: the script's text as tokens, each word as segments with their quoting.

#include "imports/shell_script_internal.h"

#include "imports/config_document.h"

#include <algorithm>
#include <cctype>

namespace vramplan::imports::shell {

std::vector<Token> Lexer::run()
{
    std::vector<Token> out;
    while (m_p < m_s.size()) {
        if (out.size() > maxTokens)
            fail("more than 200000 words; not a launch script");
        const char c = m_s[m_p];
        const std::size_t start = m_p;
        if (c == ' ' || c == '\t' || c == '\r') {
            ++m_p;
        } else if (c == '\\' && peek(1) == '\n') {
            m_p += 2;
            ++m_line;
        } else if (c == '\n') {
            out.push_back({Tok::Newline, {}, m_line});
            ++m_line;
            ++m_p;
        } else if (c == '#') {
            while (m_p < m_s.size() && m_s[m_p] != '\n')
                ++m_p;
        } else if (c == ';') {
            m_p += peek(1) == ';' ? 2 : 1;
            out.push_back({Tok::Semi, {}, m_line});
        } else if (c == '&') {
            const bool two = peek(1) == '&';
            m_p += two ? 2 : 1;
            out.push_back({two ? Tok::And : Tok::Amp, {}, m_line});
        } else if (c == '|') {
            const bool two = peek(1) == '|';
            m_p += two ? 2 : 1;
            out.push_back({two ? Tok::Or : Tok::Pipe, {}, m_line});
        } else if (c == '(' || c == ')') {
            Token t{c == '(' ? Tok::LParen : Tok::RParen, {}, m_line};
            t.glued = start == m_lastWordEnd && !out.empty() && out.back().kind == Tok::Word;
            out.push_back(std::move(t));
            ++m_p;
        } else if (c == '<' || c == '>') {
            redirection(out, start);
        } else {
            Token t{Tok::Word, readWord(0), m_line};
            t.word.line = t.line;
            m_lastWordEnd = m_p;
            out.push_back(std::move(t));
        }
    }
    return out;
}

void Lexer::fail(const std::string &why) const
{
    throw ImportError(m_file + ":" + std::to_string(m_line) + ": " + why);
}

// `> file`, `2>&1`, `<<EOF ... EOF`: dropped from the command (a file descriptor number
// written before it is part of the redirection, not a word).
void Lexer::redirection(std::vector<Token> &out, std::size_t start)
{
    if (start == m_lastWordEnd && !out.empty() && out.back().kind == Tok::Word &&
        out.back().word.segs.size() == 1 && !out.back().word.segs[0].quoted &&
        std::all_of(out.back().word.segs[0].text.begin(), out.back().word.segs[0].text.end(),
                    [](char d) { return std::isdigit(static_cast<unsigned char>(d)); }))
        out.pop_back();
    const bool heredoc = m_s[m_p] == '<' && peek(1) == '<';
    while (m_p < m_s.size() && (m_s[m_p] == '<' || m_s[m_p] == '>' || m_s[m_p] == '&' ||
                                m_s[m_p] == '|' || m_s[m_p] == '-'))
        ++m_p;
    while (m_p < m_s.size() && (m_s[m_p] == ' ' || m_s[m_p] == '\t'))
        ++m_p;
    if (m_p >= m_s.size() || m_s[m_p] == '\n')
        return;
    const RawWord target = readWord(0);
    if (!heredoc)
        return;
    std::string delimiter;
    for (const auto &seg : target.segs)
        delimiter += seg.kind == SegKind::Literal ? seg.text : seg.raw;
    // The here-document's lines are the command's input, not script: skip to its end.
    while (m_p < m_s.size() && m_s[m_p] != '\n')
        ++m_p;
    while (m_p < m_s.size()) {
        ++m_p; // the newline
        ++m_line;
        std::size_t end = m_s.find('\n', m_p);
        if (end == std::string_view::npos)
            end = m_s.size();
        std::string_view text = m_s.substr(m_p, end - m_p);
        while (!text.empty() && (text.front() == '\t'))
            text.remove_prefix(1);
        m_p = end;
        if (text == delimiter)
            return;
    }
}

void Lexer::literal(std::vector<Segment> &segs, char c, bool quoted)
{
    if (segs.empty() || segs.back().kind != SegKind::Literal || segs.back().quoted != quoted)
        segs.push_back({SegKind::Literal, {}, quoted});
    segs.back().text += c;
}

// A word up to the next unquoted blank or operator; `stopAtBrace` inside ${NAME:-...}.
RawWord Lexer::readWord(int depth, bool stopAtBrace, bool quotedContext)
{
    RawWord w;
    w.line = m_line;
    while (m_p < m_s.size()) {
        const char c = m_s[m_p];
        if (stopAtBrace && c == '}')
            break;
        if (!stopAtBrace && std::string_view(" \t\r\n;&|()<>").find(c) != std::string_view::npos)
            break;
        if (c == '\\') {
            if (peek(1) == '\n') {
                m_p += 2;
                ++m_line;
                continue;
            }
            if (m_p + 1 < m_s.size())
                literal(w.segs, m_s[m_p + 1], true);
            m_p += 2;
        } else if (c == '\'' && !quotedContext) {
            const std::size_t end = m_s.find('\'', m_p + 1);
            if (end == std::string_view::npos)
                fail("a single quote is never closed");
            w.segs.push_back({SegKind::Literal, std::string(m_s.substr(m_p + 1, end - m_p - 1)), true});
            m_line += int(std::count(m_s.begin() + m_p, m_s.begin() + end, '\n'));
            m_p = end + 1;
        } else if (c == '"') {
            doubleQuoted(w.segs, depth);
        } else if (c == '$') {
            dollar(w.segs, quotedContext, depth);
        } else if (c == '`') {
            const std::size_t end = m_s.find('`', m_p + 1);
            if (end == std::string_view::npos)
                fail("a backquote is never closed");
            Segment seg{SegKind::Command, std::string(m_s.substr(m_p + 1, end - m_p - 1)), quotedContext};
            seg.raw = std::string(m_s.substr(m_p, end + 1 - m_p));
            m_line += int(std::count(m_s.begin() + m_p, m_s.begin() + end, '\n'));
            m_p = end + 1;
            w.segs.push_back(std::move(seg));
        } else {
            if (c == '\n')
                ++m_line;
            literal(w.segs, c, quotedContext);
            ++m_p;
        }
    }
    return w;
}

void Lexer::doubleQuoted(std::vector<Segment> &segs, int depth)
{
    const int opened = m_line;
    ++m_p;
    // An empty "" is still a word: an empty quoted literal keeps it.
    segs.push_back({SegKind::Literal, {}, true});
    while (true) {
        if (m_p >= m_s.size())
            throw ImportError(m_file + ":" + std::to_string(opened) +
                              ": a double quote is never closed");
        const char c = m_s[m_p];
        if (c == '"') {
            ++m_p;
            return;
        }
        if (c == '\\' && std::string_view("$`\"\\\n").find(peek(1)) != std::string_view::npos &&
            peek(1) != '\0') {
            if (peek(1) == '\n')
                ++m_line;
            else
                literal(segs, peek(1), true);
            m_p += 2;
        } else if (c == '$') {
            dollar(segs, true, depth);
        } else if (c == '`') {
            const std::size_t end = m_s.find('`', m_p + 1);
            if (end == std::string_view::npos)
                fail("a backquote is never closed");
            Segment seg{SegKind::Command, std::string(m_s.substr(m_p + 1, end - m_p - 1)), true};
            seg.raw = std::string(m_s.substr(m_p, end + 1 - m_p));
            m_p = end + 1;
            segs.push_back(std::move(seg));
        } else {
            if (c == '\n')
                ++m_line;
            literal(segs, c, true);
            ++m_p;
        }
    }
}

// The text up to the parenthesis that closes one already opened, quotes respected.
std::string Lexer::balanced(std::size_t &p, int open) const
{
    const std::size_t start = p;
    while (p < m_s.size()) {
        const char c = m_s[p];
        if (c == '\'' || c == '"') {
            const std::size_t end = m_s.find(c, p + 1);
            if (end == std::string_view::npos)
                break;
            p = end + 1;
            continue;
        }
        if (c == '(')
            ++open;
        else if (c == ')' && --open == 0)
            return std::string(m_s.substr(start, p - start));
        ++p;
    }
    fail("a parenthesis of $( ... ) is never closed");
}

void Lexer::dollar(std::vector<Segment> &segs, bool quoted, int depth)
{
    if (depth > maxNesting)
        fail("expansions nested more than 16 deep");
    const std::size_t start = m_p;
    ++m_p;
    const char c = m_p < m_s.size() ? m_s[m_p] : '\0';
    Segment seg;
    seg.quoted = quoted;
    if (c == '(' && peek(1) == '(') {
        m_p += 2;
        std::size_t p = m_p;
        std::string inner = balanced(p, 2);
        // balanced stops at the first ')' of '))'; the arithmetic is what lies inside.
        seg.kind = SegKind::Arith;
        if (!inner.empty() && inner.back() == ')')
            inner.pop_back();
        seg.text = inner;
        m_p = p + 1;
    } else if (c == '(') {
        ++m_p;
        std::size_t p = m_p;
        seg.kind = SegKind::Command;
        seg.text = balanced(p, 1);
        m_p = p + 1;
    } else if (c == '{') {
        ++m_p;
        seg.kind = SegKind::Param;
        if (peek(0) == '#' && peek(1) != '}')
            seg.op = "other"; // ${#NAME}: a length
        std::size_t n = m_p + (seg.op.empty() ? 0 : 1);
        if (n < m_s.size() && (isNameStart(m_s[n]))) {
            while (n < m_s.size() && isNameChar(m_s[n]))
                ++n;
        } else if (n < m_s.size() && std::string_view("@*#?$!-0123456789").find(m_s[n]) !=
                                         std::string_view::npos) {
            ++n;
            while (std::isdigit(static_cast<unsigned char>(m_s[n - 1])) && n < m_s.size() &&
                   std::isdigit(static_cast<unsigned char>(m_s[n])))
                ++n;
        }
        seg.text = std::string(m_s.substr(m_p + (seg.op.empty() ? 0 : 1),
                                          n - m_p - (seg.op.empty() ? 0 : 1)));
        m_p = n;
        if (peek(0) == '[') {
            const std::size_t close = m_s.find(']', m_p);
            if (close == std::string_view::npos)
                fail("a [ of ${NAME[...]} is never closed");
            seg.index = std::string(m_s.substr(m_p + 1, close - m_p - 1));
            m_p = close + 1;
        }
        if (peek(0) != '}') {
            for (const char *op : {":-", ":=", ":+", "-", "=", "+"})
                if (seg.op.empty() && m_s.substr(m_p).starts_with(op)) {
                    seg.op = op;
                    m_p += std::string_view(op).size();
                    seg.arg = readWord(depth + 1, true, quoted).segs;
                }
            if (seg.op.empty() || seg.op == "other") {
                // %, #, /, ^, ?: not modelled; the value is left as written.
                seg.op = "other";
                int open = 1;
                while (m_p < m_s.size() && open > 0) {
                    if (m_s[m_p] == '{')
                        ++open;
                    else if (m_s[m_p] == '}' && --open == 0)
                        break;
                    ++m_p;
                }
            }
        }
        if (peek(0) != '}')
            fail("a ${ is never closed");
        ++m_p;
    } else if (isNameStart(c)) {
        seg.kind = SegKind::Param;
        while (m_p < m_s.size() && isNameChar(m_s[m_p]))
            seg.text += m_s[m_p++];
    } else if (c != '\0' && std::string_view("@*#?$!-0123456789").find(c) != std::string_view::npos) {
        seg.kind = SegKind::Param;
        seg.text = std::string(1, c);
        ++m_p;
    } else {
        literal(segs, '$', quoted);
        return;
    }
    seg.raw = std::string(m_s.substr(start, m_p - start));
    segs.push_back(std::move(seg));
}

} // namespace vramplan::imports::shell
