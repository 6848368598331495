#pragma once
// The spelling of every enumeration in scenario files and on the command line (SPEC §3).

#include "scenario.h"

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>

namespace vramplan {

template <typename E> struct EnumName
{
    E value;
    std::string_view name;
};

template <typename E> std::span<const EnumName<E>> enumNames();

// Defines enumNames<Type>() from its {value, "spelling"} pairs, in the .cpp that owns the
// enumeration's spellings (enum_names.cpp; serving_json.cpp for the serving section's).
#define VRAMPLAN_ENUM_TABLE(Type, ...)                                                             \
    template <> std::span<const EnumName<Type>> enumNames<Type>()                                  \
    {                                                                                              \
        static constexpr EnumName<Type> table[] = {__VA_ARGS__};                                   \
        return table;                                                                              \
    }

template <typename E> std::string_view toString(E value)
{
    for (const auto &entry : enumNames<E>())
        if (entry.value == value)
            return entry.name;
    return "?";
}

template <typename E> std::optional<E> fromString(std::string_view text)
{
    for (const auto &entry : enumNames<E>())
        if (entry.name == text)
            return entry.value;
    return std::nullopt;
}

// "a, b or c": the accepted spellings, for error messages.
template <typename E> std::string acceptedNames()
{
    std::string out;
    const auto names = enumNames<E>();
    for (size_t i = 0; i < names.size(); ++i) {
        if (i > 0)
            out += i + 1 == names.size() ? " or " : ", ";
        out += names[i].name;
    }
    return out;
}

} // namespace vramplan
