#include "imports/config_document.h"

#include "formats/scenario_json.h"
#include "json_value_text.h"

#include <yaml-cpp/yaml.h>

#include <cerrno>
#include <cstdlib>

namespace vramplan::imports {
namespace {

// Bounds on what a file may expand to: YAML aliases can make a small file a huge tree
// ("billion laughs"), and a deep one would exhaust the stack.
constexpr std::size_t maxNodes = 200000;
constexpr int maxDepth = 64;

bool isWhole(const std::string &t)
{
    std::size_t i = (t[0] == '-' || t[0] == '+') ? 1 : 0;
    if (i >= t.size())
        return false;
    for (; i < t.size(); ++i)
        if (t[i] < '0' || t[i] > '9')
            return false;
    return true;
}

} // namespace

// A plain (unquoted) YAML scalar as the Python readers of these tools (PyYAML, OmegaConf) type
// it: null, a bool (YAML 1.1 spellings too), a whole number, a float, else a string.
nlohmann::json plainScalar(const std::string &t)
{
    if (t.empty() || t == "~" || t == "null" || t == "Null" || t == "NULL")
        return nullptr;
    for (const char *yes : {"true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON"})
        if (t == yes)
            return true;
    for (const char *no : {"false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF"})
        if (t == no)
            return false;
    if (isWhole(t) && t.size() < 19) {
        return std::strtoll(t.c_str(), nullptr, 10);
    }
    const bool numeric = t.find_first_not_of("0123456789+-.eE_") == std::string::npos &&
                         t.find_first_of("0123456789") != std::string::npos;
    if (numeric && t.find('_') == std::string::npos) {
        char *end = nullptr;
        errno = 0;
        const double v = std::strtod(t.c_str(), &end);
        if (end && *end == '\0' && errno == 0)
            return v;
    }
    return t;
}

namespace {

struct YamlConverter
{
    std::map<std::string, int, std::less<>> &lines;
    std::size_t nodes = 0;

    nlohmann::json convert(const YAML::Node &node, const std::string &path, int depth)
    {
        if (++nodes > maxNodes)
            throw ImportError(": more than 200000 values (aliases expanding?)");
        if (depth > maxDepth)
            throw ImportError(": " + (path.empty() ? std::string("the document") : path) +
                              ": nested more than 64 levels deep");
        switch (node.Type()) {
        case YAML::NodeType::Null:
        case YAML::NodeType::Undefined:
            return nullptr;
        case YAML::NodeType::Scalar:
            // yaml-cpp tags a quoted scalar "!" and a plain one "?".
            return node.Tag() == "!" ? nlohmann::json(node.Scalar()) : plainScalar(node.Scalar());
        case YAML::NodeType::Sequence: {
            nlohmann::json list = nlohmann::json::array();
            for (const auto &item : node)
                list.push_back(convert(item, path, depth + 1));
            return list;
        }
        case YAML::NodeType::Map: {
            nlohmann::json object = nlohmann::json::object();
            for (const auto &entry : node) {
                if (!entry.first.IsScalar())
                    throw ImportError(":" + std::to_string(entry.first.Mark().line + 1) +
                                      ": a key that is not a plain name");
                const std::string key = entry.first.Scalar();
                const std::string dotted = path.empty() ? key : path + "." + key;
                lines.emplace(dotted, entry.first.Mark().line + 1);
                object[key] = convert(entry.second, dotted, depth + 1);
            }
            return object;
        }
        }
        return nullptr;
    }
};

} // namespace

ConfigDoc::ConfigDoc(std::string file, std::string_view text) : m_file(std::move(file))
{
    const std::size_t first = text.find_first_not_of(" \t\r\n");
    const bool yamlName = m_file.ends_with(".yaml") || m_file.ends_with(".yml");
    std::optional<nlohmann::json> json;
    if (first != std::string_view::npos && text[first] == '{') {
        // JSON, or a YAML file written in flow style ({a: 1}), which JSON refuses.
        auto parsed = jsonFromText(text);
        if (parsed)
            json = std::move(*parsed.value);
        else if (!yamlName)
            throw ImportError(m_file + ": " + parsed.error);
    }
    if (json) {
        m_root = std::move(*json);
    } else {
        if (text.find('\0') != std::string_view::npos)
            throw ImportError(m_file + ": holds a NUL byte; not a YAML or JSON file");
        try {
            const YAML::Node node = YAML::Load(std::string(text));
            YamlConverter converter{m_lines};
            m_root = converter.convert(node, "", 0);
        } catch (const YAML::Exception &e) {
            throw ImportError(m_file + ":" + std::to_string(e.mark.line + 1) + ": " +
                              printableLine(e.msg, 200));
        } catch (const ImportError &e) { // ": ..." or ":LINE: ..."
            throw ImportError(m_file + e.what());
        }
    }
    if (!m_root.is_object())
        throw ImportError(m_file + ": the top level is " + describeJson(m_root) +
                          ", not a mapping of settings");
}

ConfigDoc::ConfigDoc(std::string file, nlohmann::json root,
                     std::map<std::string, int, std::less<>> lines, std::string keyPrefix)
    : m_file(std::move(file)), m_root(std::move(root)), m_lines(std::move(lines)),
      m_prefix(std::move(keyPrefix))
{
    if (!m_root.is_object())
        throw ImportError(m_file + ": holds no settings");
}

const nlohmann::json *ConfigDoc::find(std::string_view dotted) const
{
    const nlohmann::json *node = &m_root;
    std::size_t start = 0;
    while (true) {
        const std::size_t dot = dotted.find('.', start);
        const std::string key(dotted.substr(start, dot - start));
        if (!node->is_object())
            return nullptr;
        const auto it = node->find(key);
        if (it == node->end())
            return nullptr;
        node = &*it;
        if (dot == std::string_view::npos)
            break;
        start = dot + 1;
    }
    return node->is_null() ? nullptr : node;
}

const nlohmann::json *ConfigDoc::take(std::string_view dotted)
{
    use(dotted);
    return find(dotted);
}

void ConfigDoc::use(std::string_view dotted) { m_used.emplace(dotted); }

std::string ConfigDoc::origin(std::string_view dotted) const
{
    return m_file + ":" + m_prefix + std::string(dotted);
}

std::string ConfigDoc::where(std::string_view dotted) const
{
    const auto line = m_lines.find(dotted);
    return line == m_lines.end() ? m_file + ": " + m_prefix + std::string(dotted)
                                 : m_file + ":" + std::to_string(line->second) + ": " +
                                       m_prefix + std::string(dotted);
}

void ConfigDoc::fail(std::string_view dotted, const std::string &problem) const
{
    throw ImportError(where(dotted) + ": " + problem);
}

std::vector<std::string> ConfigDoc::unused() const
{
    std::vector<std::string> out;
    // A key is used when it or a section above it was taken.
    const auto isUsed = [this](std::string path) {
        while (true) {
            if (m_used.count(path))
                return true;
            const std::size_t dot = path.rfind('.');
            if (dot == std::string::npos)
                return false;
            path.resize(dot);
        }
    };
    const auto walk = [&](auto &self, const nlohmann::json &node, const std::string &path) -> void {
        if (node.is_object() && !node.empty()) {
            for (const auto &[key, value] : node.items())
                self(self, value, path.empty() ? key : path + "." + key);
            return;
        }
        if (!path.empty() && !isUsed(path))
            out.push_back(path);
    };
    walk(walk, m_root, "");
    return out;
}

std::optional<int64_t> ConfigDoc::takeInt(std::string_view dotted, int64_t min, int64_t max)
{
    const nlohmann::json *v = take(dotted);
    if (!v)
        return std::nullopt;
    int64_t n = 0;
    if (v->is_number_integer())
        n = v->get<int64_t>();
    else if (v->is_number_float() && v->get<double>() >= -1e15 && v->get<double>() <= 1e15 &&
             v->get<double>() == double(int64_t(v->get<double>())))
        n = int64_t(v->get<double>()); // 1e9, 2.0: whole numbers written as floats
    else
        fail(dotted, "must be a whole number, got " + describeJson(*v));
    if (n < min || n > max)
        fail(dotted, "must be from " + std::to_string(min) + " to " + std::to_string(max) +
                         ", got " + std::to_string(n));
    return n;
}

std::optional<bool> ConfigDoc::takeBool(std::string_view dotted)
{
    const nlohmann::json *v = take(dotted);
    if (!v)
        return std::nullopt;
    if (!v->is_boolean())
        fail(dotted, "must be true or false, got " + describeJson(*v));
    return v->get<bool>();
}

std::optional<std::string> ConfigDoc::takeString(std::string_view dotted)
{
    const nlohmann::json *v = take(dotted);
    if (!v)
        return std::nullopt;
    if (!v->is_string())
        fail(dotted, "must be a string, got " + describeJson(*v));
    return v->get<std::string>();
}

} // namespace vramplan::imports
