#pragma once
// A launch script (Megatron-LM's examples/*.sh, ms-swift's examples/**/*.sh, verl's
// examples/**/*.sh) read as POSIX sh and bash split it into words, without running anything:
// quotes, backslash-newline, comments, `NAME=value` and bash arrays `NAME=( ... )`, `NAME+=(...)`,
// `$NAME`, `${NAME}`, `${NAME:-default}`, `${NAME[@]}` (quoted or not), `$((arithmetic))` over
// the script's own numbers, and `if [[ a == b ]]` / `[ -z x ]` where the script decides the
// answer. What the script does not set (its arguments `$1`, the environment, `$(command)`) is
// left as written and named in `unknowns`; a branch whose condition depends on it is not taken
// and noted. No Debian library splits shell words this way, hence this small reader; it is
// bounded (script size, words, expansion length, nesting) and fuzzed (tests/fuzz/fuzz_imports).
// Internal to core/imports/.

#include <string>
#include <string_view>
#include <vector>

namespace vramplan::imports {

// One word of a command after expansion, with the script's line it starts on, the names it
// read that the script does not set ("$1", "MASTER_ADDR": left as written in `text`), and those
// whose `${NAME:-default}` default stood in for them (the script as run without arguments and
// without that variable in the environment). Either way the word is not a literal of the script.
struct ShellWord
{
    std::string text;
    int line = 0;
    std::vector<std::string> unknowns;
    std::vector<std::string> defaulted;
    bool literal() const { return unknowns.empty() && defaulted.empty(); }
};

struct ShellCommand
{
    std::vector<ShellWord> words;
    // `NAME=value command`: the environment given to this command alone (NPROC_PER_NODE=8).
    std::vector<std::pair<std::string, ShellWord>> environment;
    int line = 0;
};

struct ShellScript
{
    std::vector<ShellCommand> commands; // every simple command the script runs, in order
    std::vector<std::string> notes;     // "LINE: ..." for branches not taken, loops skipped
    // The value of a variable as the script leaves it ("" with found=false when it sets none).
    std::vector<std::pair<std::string, ShellWord>> variables;
    const ShellWord *variable(std::string_view name) const;
};

// Throws ImportError naming `file` and the line (an unterminated quote, too deep, too long).
ShellScript readShellScript(const std::string &file, std::string_view text);

// True when the text looks like a shell script rather than YAML/JSON/TOML: a `#!` line naming
// a shell, or a line continued with a backslash, or a `torchrun`/`python`/`swift`/`megatron`
// command at the start of a line.
bool looksLikeShellScript(std::string_view text);

} // namespace vramplan::imports
