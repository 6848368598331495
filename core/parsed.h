#pragma once
// A value, or the one-line reason there is none ("training.micro_batch_size: must be >= 1, got 0").

#include <optional>
#include <string>
#include <utility>

namespace vramplan {

template <typename T> struct Parsed
{
    std::optional<T> value;
    std::string error;

    static Parsed ok(T v) { return {std::move(v), {}}; }
    static Parsed fail(std::string why) { return {std::nullopt, std::move(why)}; }
    explicit operator bool() const { return value.has_value(); }
};

} // namespace vramplan
