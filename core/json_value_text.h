#pragma once
// How a JSON value is named in an error message ("must be a whole number, got \"12\""): short,
// printable, with its type where the text alone would not say it. Shared by the readers of
// scenario files (formats/json_reader.h) and of Hugging Face configs (model/hf_reader.h).

#include <nlohmann/json.hpp>

#include <string>

namespace vramplan {

inline std::string jsonTypeName(const nlohmann::json &v)
{
    return v.type_name();
}

inline std::string describeJson(const nlohmann::json &v)
{
    std::string text = v.dump(-1, ' ', true, nlohmann::json::error_handler_t::replace);
    if (text.size() > 40)
        text = text.substr(0, 37) + "...";
    return v.is_string() || v.is_number() || v.is_boolean() ? text : jsonTypeName(v) + " " + text;
}

} // namespace vramplan
