// A TOML file (torchtitan's train_configs/*.toml) as a ConfigDoc: tables become sections, each
// key keeps its line. Through toml++ (Debian: libtomlplusplus-dev), header-only.

#include "imports/import_draft.h"

#include "formats/scenario_json.h"
#include "json_value_text.h"

// toml++ 3.x asserts (TOML_ASSERT_ASSUME in parser.inl parse_key) on some malformed keys that
// its own callers let through; builds with NDEBUG compile the check out and the parser reports
// the error. The fuzzer found such a key under the sanitizer build (no NDEBUG): every build
// behaves as the release one, and ASan/UBSan still watch the parser's memory.
#define TOML_ASSERT(expr) static_assert(true)
#include <toml++/toml.h>

namespace vramplan::imports {
namespace {

constexpr std::size_t maxNodes = 200000;
constexpr int maxDepth = 64;

struct TomlConverter
{
    std::map<std::string, int, std::less<>> &lines;
    std::size_t nodes = 0;

    nlohmann::json convert(const toml::node &node, const std::string &path, int depth)
    {
        if (++nodes > maxNodes)
            throw ImportError(": more than 200000 values");
        if (depth > maxDepth)
            throw ImportError(": " + path + ": nested more than 64 levels deep");
        if (const auto *table = node.as_table()) {
            nlohmann::json object = nlohmann::json::object();
            for (const auto &[key, value] : *table) {
                const std::string name(key.str());
                const std::string dotted = path.empty() ? name : path + "." + name;
                lines.emplace(dotted, int(key.source().begin.line));
                object[name] = convert(value, dotted, depth + 1);
            }
            return object;
        }
        if (const auto *array = node.as_array()) {
            nlohmann::json list = nlohmann::json::array();
            for (const auto &item : *array)
                list.push_back(convert(item, path, depth + 1));
            return list;
        }
        if (const auto *v = node.as_string())
            return v->get();
        if (const auto *v = node.as_integer())
            return v->get();
        if (const auto *v = node.as_floating_point())
            return v->get();
        if (const auto *v = node.as_boolean())
            return v->get();
        // Dates and times: no setting the planner reads is one; kept as a marker so the key is
        // still listed.
        return "(a TOML date or time)";
    }
};

} // namespace

std::unique_ptr<ConfigDoc> tomlDocument(const std::string &file, std::string_view text)
{
    if (text.find('\0') != std::string_view::npos)
        throw ImportError(file + ": holds a NUL byte; not a TOML file");
    std::map<std::string, int, std::less<>> lines;
    nlohmann::json root;
    try {
        const toml::table table = toml::parse(text, file);
        TomlConverter converter{lines};
        root = converter.convert(table, "", 0);
    } catch (const toml::parse_error &e) {
        throw ImportError(file + ":" + std::to_string(e.source().begin.line) + ": " +
                          printableLine(std::string(e.description()), 200));
    } catch (const ImportError &e) {
        throw ImportError(file + e.what());
    }
    return std::make_unique<ConfigDoc>(file, std::move(root), std::move(lines));
}

} // namespace vramplan::imports
