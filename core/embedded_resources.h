#pragma once
// resources/ compiled into the binary (cmake/EmbedResources.cmake writes the definition).

#include <span>
#include <string_view>

namespace vramplan {

struct EmbeddedResource
{
    std::string_view path; // relative to resources/, e.g. "models/llama-2-7b.json"
    std::string_view content;
};

std::span<const EmbeddedResource> embeddedResources();

} // namespace vramplan
