#pragma once
// What the pieces of readShellScript share (shell_script.h): the lexer's segments and tokens, the
// variables and the words being built, and the walk over the commands. The lexer is
// shell_script_lexer.cpp; the walker's parts are shell_script_commands.cpp (tokens grouped into
// simple commands), shell_script_expand.cpp (words expanded), shell_script_vars.cpp (assignment
// and arithmetic), shell_script_control.cpp (if, loops, case, functions) and shell_script.cpp
// (the driver). Internal to core/imports/.

#include "imports/shell_script.h"

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace vramplan::imports::shell {

inline constexpr std::size_t maxTokens = 200000;
inline constexpr std::size_t maxWordBytes = 1u << 20; // one expanded word
inline constexpr std::size_t maxArrayItems = 100000;
inline constexpr int maxNesting = 16; // ${a:-${b:-...}} and $(( (( )) ))
inline constexpr std::size_t maxFrames = 64;

enum class SegKind
{
    Literal,
    Param,
    Arith,
    Command
};

struct Segment
{
    SegKind kind = SegKind::Literal;
    std::string text; // literal text, parameter name, arithmetic or command text
    bool quoted = false;
    std::string op;           // ${NAME<op>arg}: "", ":-", "-", ":=", "=", ":+", "+", "other"
    std::vector<Segment> arg; // the word after op
    std::string index;        // ${NAME[index]}: "", "@", "*", digits
    std::string raw;          // as written, for what is left unexpanded
};

struct RawWord
{
    std::vector<Segment> segs;
    int line = 0;
};

enum class Tok
{
    Word,
    Newline,
    Semi,
    And,
    Or,
    Pipe,
    Amp,
    LParen,
    RParen
};

struct Token
{
    Tok kind = Tok::Word;
    RawWord word;
    int line = 0;
    bool glued = false; // a '(' written right after a word: NAME=( or name()
};

inline bool isNameStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
inline bool isNameChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
inline bool isIdentifier(std::string_view s)
{
    return !s.empty() && isNameStart(s[0]) && std::all_of(s.begin(), s.end(), isNameChar);
}

// The script's text as tokens: words (as segments, with their quoting) and operators.
class Lexer
{
public:
    Lexer(const std::string &file, std::string_view s) : m_file(file), m_s(s) {}

    std::vector<Token> run();

private:
    const std::string &m_file;
    std::string_view m_s;
    std::size_t m_p = 0;
    int m_line = 1;
    std::size_t m_lastWordEnd = std::string_view::npos;

    char peek(std::size_t ahead) const
    {
        return m_p + ahead < m_s.size() ? m_s[m_p + ahead] : '\0';
    }
    [[noreturn]] void fail(const std::string &why) const;

    // `> file`, `2>&1`, `<<EOF ... EOF`: dropped from the command (a file descriptor number
    // written before it is part of the redirection, not a word).
    void redirection(std::vector<Token> &out, std::size_t start);
    void literal(std::vector<Segment> &segs, char c, bool quoted);
    // A word up to the next unquoted blank or operator; `stopAtBrace` inside ${NAME:-...}.
    RawWord readWord(int depth, bool stopAtBrace = false, bool quotedContext = false);
    void doubleQuoted(std::vector<Segment> &segs, int depth);
    // The text up to the parenthesis that closes one already opened, quotes respected.
    std::string balanced(std::size_t &p, int open) const;
    void dollar(std::vector<Segment> &segs, bool quoted, int depth);
};

// A variable: one value, or a bash array's elements; and what it was built from that the script
// does not set.
struct Variable
{
    std::vector<ShellWord> items; // each with what it read that the script does not set
    bool array = false;
    std::vector<std::string> unknowns;
    std::vector<std::string> defaulted;
    int line = 0;
};

void addUnique(std::vector<std::string> &list, const std::string &name);

// Words being built from segments: fields split where an unquoted expansion holds blanks. What
// a word read that the script does not set is kept for the whole word, except an array's items,
// whose own names go only to the fields each item makes ("${ARGS[@]}" where one item read $PWD).
struct Fields
{
    std::vector<std::string> list;
    bool open = false;
    std::vector<std::string> unknowns, defaulted;          // the whole word's
    std::vector<std::vector<std::string>> itemU, itemD;     // per field, from array items
    std::vector<int> itemLine;                              // per field: its item's line, or 0
    const ShellWord *item = nullptr;                        // the array item being added

    void add(const std::string &text, bool split);
    // Everything the word read, for a value that is not split (an assignment, a default).
    std::vector<std::string> allUnknowns() const;
    std::vector<std::string> allDefaulted() const;
    ShellWord field(std::size_t i, int line) const;
};

// The walk over the tokens: variables assigned, `if` decided where the script's own values
// decide it, every simple command the script would run kept.
class Walker
{
public:
    Walker(const std::string &file, std::vector<Token> tokens)
        : m_file(file), m_tokens(std::move(tokens))
    {
    }

    ShellScript run();

private:
    struct Frame
    {
        enum Kind
        {
            If,
            Skip // a loop, case or function body: not run
        } kind;
        bool parentActive = true;
        bool active = false;
        bool taken = false;
        bool inCondition = false;
        std::optional<bool> condition; // nullopt: undecided
        bool conditionStarted = false;
        Tok lastConnector = Tok::Semi;
        std::string undecidedBy;
        bool skippedWork = false;
        int line = 0;
        std::string end; // the keyword closing a Skip frame: done, esac, }
        int braces = 0;
    };

    const std::string &m_file;
    std::vector<Token> m_tokens;
    std::size_t m_i = 0;
    int m_line = 0;
    std::map<std::string, Variable, std::less<>> m_vars;
    std::vector<Frame> m_frames;
    ShellScript m_out;
    bool m_exited = false;
    bool m_notedPositional = false;
    std::vector<std::string> m_defaultNoted;

    bool active() const
    {
        return m_frames.empty() || (m_frames.back().parentActive && m_frames.back().active &&
                                    !m_frames.back().inCondition);
    }
    bool outerActive() const
    {
        return m_frames.empty() || (m_frames.back().parentActive && m_frames.back().active);
    }

    struct Assignment
    {
        std::string name;
        bool append = false;
        std::vector<Segment> value;
        bool isArray = false;
        std::vector<RawWord> items;
    };

    struct RawCommand
    {
        std::vector<Assignment> assignments;
        std::vector<RawWord> words;
        Tok connector = Tok::Semi;
        int line = 0;
        bool functionHeader = false;
    };

    static std::optional<Assignment> assignmentOf(const RawWord &w);
    static std::string plainText(const RawWord &w);
    // The next simple command (words up to a separator), or nullopt at the end.
    std::optional<RawCommand> next();

    // --- expansion (shell_script_expand.cpp) ---------------------------------------------------
    void noteUnknown(Fields &f, const std::string &name, bool defaulted = false);
    void expand(const std::vector<Segment> &segs, Fields &f, int depth);
    void parameter(const Segment &seg, Fields &f, int depth);
    std::vector<ShellWord> words(const std::vector<RawWord> &raw);
    ShellWord scalar(const std::vector<Segment> &segs, int line);

    // --- variables (shell_script_vars.cpp) -----------------------------------------------------
    std::optional<int64_t> arithmetic(const std::string &expr, Fields &f);
    void assign(const Assignment &a, int line);

    // --- control flow (shell_script_control.cpp) -----------------------------------------------
    // `[[ a == b ]]`, `[ -z x ]`, `test a != b`: true, false, or nullopt when it depends on what
    // the script does not set (`undecidedBy` names it) or on the machine (-f, -d, command -v).
    std::optional<bool> test(const std::vector<RawWord> &raw, std::string &undecidedBy);
    static std::optional<bool> combine(std::optional<bool> a, Tok op, std::optional<bool> b);
    void pushFrame(Frame f);
    void closeIf();
    void markSkipped();
    void walk();
    void handle(RawCommand &cmd);
};

} // namespace vramplan::imports::shell
