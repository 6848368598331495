#pragma once
// What the import and export suites share: the fixtures' folder, a dotted path into a scenario's
// JSON, and a field's origin and list lookups of an ImportResult.

#include "imports/import_setup.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace vramplan::test {

inline std::string fixture(const std::string &relative)
{
    return std::string(VRAMPLAN_TEST_DATA "/imports/") + relative;
}

// `dotted` ("training.micro_batch_size") in `root`, or null where any part is missing.
inline const nlohmann::json *at(const nlohmann::json &root, const std::string &dotted)
{
    const nlohmann::json *node = &root;
    std::size_t start = 0;
    while (true) {
        const std::size_t dot = dotted.find('.', start);
        const std::string key = dotted.substr(start, dot - start);
        if (!node->is_object() || !node->contains(key))
            return nullptr;
        node = &(*node)[key];
        if (dot == std::string::npos)
            return node;
        start = dot + 1;
    }
}

inline std::string originOf(const ImportResult &r, const std::string &path)
{
    for (const auto &f : r.fields)
        if (f.path == path)
            return f.origin;
    return "<no field " + path + ">";
}

inline bool contains(const std::vector<std::string> &list, const std::string &needle)
{
    for (const auto &item : list)
        if (item.find(needle) != std::string::npos)
            return true;
    return false;
}

inline std::string joined(const std::vector<std::string> &list)
{
    std::string out;
    for (const auto &item : list)
        out += item + "\n";
    return out;
}

} // namespace vramplan::test
