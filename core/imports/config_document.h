#pragma once
// One file of a training setup, read into a JSON tree whatever its syntax (JSON, YAML), with the
// line of every YAML key and a record of the keys an importer used: the rest are reported as
// ignored, never dropped silently. Internal to core/imports/.

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace vramplan::imports {

// The one-line reason an import stops; importTrainingSetup turns it into Parsed::fail.
struct ImportError : std::runtime_error
{
    using std::runtime_error::runtime_error;
};

class ConfigDoc
{
public:
    // Parses `text` (JSON when it starts with '{', else YAML); throws ImportError naming the
    // file and the line. A top level that is not a mapping is an error.
    ConfigDoc(std::string file, std::string_view text);
    // A tree built by a reader of another syntax (a launch command's flags, a TOML file): the
    // line of each dotted key, and what origins write before a key ("--" for flags).
    ConfigDoc(std::string file, nlohmann::json root, std::map<std::string, int, std::less<>> lines,
              std::string keyPrefix = "");

    const std::string &file() const { return m_file; }
    const nlohmann::json &root() const { return m_root; }
    // The value at a dotted key ("zero_optimization.stage"), or nullptr; a YAML null (an empty
    // value) counts as absent. take() also marks the key used.
    const nlohmann::json *find(std::string_view dotted) const;
    const nlohmann::json *take(std::string_view dotted);
    // Marks every key under `dotted` used (a section read as a whole, or known to be irrelevant
    // only as a whole).
    void use(std::string_view dotted);
    // "FILE:KEY" for origins; "FILE:LINE: KEY" for errors where the line is known.
    std::string origin(std::string_view dotted) const;
    std::string where(std::string_view dotted) const;
    [[noreturn]] void fail(std::string_view dotted, const std::string &problem) const;
    // Every leaf key (dotted) no importer took, in file order for JSON, sorted for YAML.
    std::vector<std::string> unused() const;

    // Typed reads (marking the key used); each throws ImportError naming the key on a value of
    // the wrong type or out of [min, max].
    std::optional<int64_t> takeInt(std::string_view dotted, int64_t min, int64_t max);
    std::optional<bool> takeBool(std::string_view dotted);
    std::optional<std::string> takeString(std::string_view dotted);

private:
    std::string m_file;
    nlohmann::json m_root;
    std::map<std::string, int, std::less<>> m_lines; // YAML: dotted key -> 1-based line
    std::set<std::string, std::less<>> m_used;
    std::string m_prefix;
};

// A plain YAML scalar (or a shell word, a Hydra override's value) typed as the Python readers of
// these tools type it: null, a bool, a whole number, a float, else the string.
nlohmann::json plainScalar(const std::string &text);

} // namespace vramplan::imports
