// Reading a checkpoint folder without its weights: the safetensors format is an 8-byte
// little-endian header length, a JSON header {name: {dtype, shape, data_offsets}, __metadata__},
// then the data (huggingface/safetensors docs, "Format"); only the header is read, within bounds
// that keep a hostile file from taking the program down.

#include "formats/checkpoint_folder.h"

#include "formats/scenario_json.h"
#include "json_value_text.h"

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <limits>

namespace vramplan {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

constexpr uint64_t maxHeaderBytes = 100u << 20; // a header of a million tensors is ~100 MB
constexpr size_t maxFiles = 4096;
constexpr size_t maxTensors = 2'000'000;
constexpr int64_t maxElements = int64_t(1) << 50;

int64_t dtypeBytes(const std::string &dtype)
{
    if (dtype == "F64" || dtype == "I64" || dtype == "U64")
        return 8;
    if (dtype == "F32" || dtype == "I32" || dtype == "U32")
        return 4;
    if (dtype == "F16" || dtype == "BF16" || dtype == "I16" || dtype == "U16")
        return 2;
    return 1; // F8_E4M3, F8_E5M2, I8, U8 (packed 4-bit blocks count as bytes), BOOL
}

Parsed<std::string> readText(const fs::path &path, uintmax_t limit)
{
    std::error_code ec;
    const auto size = fs::file_size(path, ec);
    if (ec)
        return Parsed<std::string>::fail(path.filename().string() + ": cannot be read");
    if (size > limit)
        return Parsed<std::string>::fail(path.filename().string() + ": larger than " +
                                         std::to_string(limit >> 20) + " MiB");
    std::ifstream in(path, std::ios::binary);
    std::string text(size, '\0');
    if (!in.read(text.data(), std::streamsize(size)))
        return Parsed<std::string>::fail(path.filename().string() + ": cannot be read");
    return Parsed<std::string>::ok(std::move(text));
}

// The header length a safetensors file's first 8 bytes give (little-endian).
uint64_t headerLength(std::string_view prefix)
{
    uint64_t length = 0;
    for (int i = 7; i >= 0; --i)
        length = (length << 8) | uint64_t(static_cast<unsigned char>(prefix[size_t(i)]));
    return length;
}

// One safetensors file's tensors, from its header (read from the file's beginning only).
std::string readSafetensorsHeader(const fs::path &path, std::vector<CheckpointTensor> &out)
{
    const std::string name = path.filename().string();
    std::ifstream in(path, std::ios::binary);
    std::string start(8, '\0');
    if (!in.read(start.data(), 8))
        return name + ": shorter than a safetensors header";
    const uint64_t length = headerLength(start);
    if (length >= 2 && length <= maxHeaderBytes) {
        start.resize(8 + length);
        if (!in.read(start.data() + 8, std::streamsize(length)))
            return name + ": the file ends inside its safetensors header";
    }
    return safetensorsTensors(start, name, out);
}

bool contains(const std::string &name, std::initializer_list<const char *> parts)
{
    return std::any_of(parts.begin(), parts.end(),
                       [&](const char *p) { return name.find(p) != std::string::npos; });
}

} // namespace

std::string safetensorsTensors(std::string_view start, const std::string &name,
                               std::vector<CheckpointTensor> &out)
{
    if (start.size() < 8)
        return name + ": shorter than a safetensors header";
    const uint64_t length = headerLength(start);
    if (length < 2 || length > maxHeaderBytes)
        return name + ": header length " + std::to_string(length) +
               " is not that of a safetensors file (at most 100 MiB)";
    if (start.size() - 8 < length)
        return name + ": the file ends inside its safetensors header";
    auto header = jsonFromText(start.substr(8, size_t(length)));
    if (!header)
        return name + ": header: " + header.error;
    if (!header.value->is_object())
        return name + ": header: must be a JSON object";
    for (const auto &[key, info] : header.value->items()) {
        if (key == "__metadata__")
            continue;
        if (out.size() >= maxTensors)
            return name + ": more than " + std::to_string(maxTensors) + " tensors";
        const auto shape = info.is_object() ? info.find("shape") : info.end();
        const auto dtype = info.is_object() ? info.find("dtype") : info.end();
        if (!info.is_object() || shape == info.end() || !shape->is_array() ||
            dtype == info.end() || !dtype->is_string())
            return name + ": tensor '" + printableLine(key, 80) + "' has no shape and dtype";
        int64_t elements = 1;
        for (const auto &dim : *shape) {
            if (!dim.is_number_integer() || dim.get<int64_t>() < 0 ||
                dim.get<int64_t>() > maxElements)
                return name + ": tensor '" + printableLine(key, 80) + "' has a bad dimension " +
                       describeJson(dim);
            const int64_t d = dim.get<int64_t>();
            if (d > 0 && elements > maxElements / d)
                return name + ": tensor '" + printableLine(key, 80) + "' is too large";
            elements *= d;
        }
        out.push_back({key, elements, dtype->get<std::string>()});
    }
    return {};
}

CheckpointParts classifyTensors(const std::vector<CheckpointTensor> &tensors)
{
    CheckpointParts p;
    for (const auto &t : tensors) {
        const std::string &n = t.name;
        int64_t *part = &p.other;
        if (contains(n, {"visual.", "vision_tower", "vision_model", "embed_vision",
                         "multi_modal_projector", "mm_projector"}))
            part = &p.vision;
        else if (n.rfind("mtp.", 0) == 0 || contains(n, {".mtp.", "nextn"}))
            part = &p.mtp;
        else if (contains(n, {"lm_head", "output_layer", "embed_out"}) ||
                 n == "output.weight" || n.ends_with(".output.weight"))
            part = &p.outputHead;
        else if (contains(n, {"embed_tokens", "word_embeddings", "wte.", "wpe.", "tok_embeddings",
                              "embeddings."}) ||
                 n == "model.embed_tokens.weight")
            part = &p.embedding;
        else if (contains(n, {"norm", "ln_", "layernorm"}) && !contains(n, {"experts"}))
            part = &p.norms;
        else if (contains(n, {"shared_expert", "shared_mlp"}))
            part = &p.sharedExperts;
        else if (contains(n, {"experts."}) || contains(n, {".experts"}))
            part = &p.routedExperts;
        else if (contains(n, {".gate.", "router", "gate.wg", "e_score_correction"}))
            part = &p.router;
        else if (contains(n, {"linear_attn"}))
            part = &p.linearAttention;
        else if (contains(n, {"mixer.", "mamba."}))
            part = &p.mamba;
        else if (contains(n, {".conv."}))
            part = &p.shortConv;
        else if (contains(n, {"self_attn", "attention", "attn."}))
            part = &p.attention;
        else if (contains(n, {"mlp", "feed_forward", "ffn"}))
            part = &p.mlp;
        *part += t.elements;
    }
    return p;
}

json checkpointPartsJson(const CheckpointParts &p)
{
    return {{"embedding", p.embedding},         {"output_head", p.outputHead},
            {"attention", p.attention},         {"linear_attention", p.linearAttention},
            {"mamba", p.mamba},                 {"short_conv", p.shortConv},
            {"mlp", p.mlp},                     {"routed_experts", p.routedExperts},
            {"shared_experts", p.sharedExperts}, {"router", p.router},
            {"norms", p.norms},                 {"vision", p.vision},
            {"mtp", p.mtp},                     {"other", p.other}};
}

Parsed<Checkpoint> readCheckpointFolder(const std::string &folder)
{
    std::error_code ec;
    const fs::path dir(folder);
    if (!fs::is_directory(dir, ec))
        return Parsed<Checkpoint>::fail(folder + ": is not a folder");
    Checkpoint c;
    const fs::path configPath = dir / "config.json";
    auto configText = readText(configPath, 64u << 20);
    if (!configText)
        return Parsed<Checkpoint>::fail(folder + "/config.json: is missing or unreadable");
    auto config = hfJsonFromText(*configText.value);
    if (!config)
        return Parsed<Checkpoint>::fail(folder + "/config.json: " + config.error);
    c.config = std::move(*config.value);

    std::vector<fs::path> files;
    for (const auto &entry : fs::directory_iterator(dir, ec)) {
        if (entry.is_regular_file(ec) && entry.path().extension() == ".safetensors")
            files.push_back(entry.path());
        if (files.size() > maxFiles)
            return Parsed<Checkpoint>::fail(folder + ": more than 4096 safetensors files");
    }
    std::sort(files.begin(), files.end());
    for (const auto &file : files)
        if (const std::string problem = readSafetensorsHeader(file, c.tensors); !problem.empty())
            return Parsed<Checkpoint>::fail(folder + "/" + problem);
    if (!c.tensors.empty()) {
        for (const auto &t : c.tensors) {
            c.total += t.elements;
            c.bytes += t.elements * dtypeBytes(t.dtype);
        }
        c.exact = true;
        c.parts = classifyTensors(c.tensors);
        c.source = "safetensors headers (" + std::to_string(files.size()) + " files, " +
                   std::to_string(c.tensors.size()) + " tensors)";
        return Parsed<Checkpoint>::ok(std::move(c));
    }
    // No weights here: the index's totals (total_parameters where the writer gave it, else
    // total_size over the bytes of the config's dtype).
    auto indexText = readText(dir / "model.safetensors.index.json", 256u << 20);
    if (!indexText)
        return Parsed<Checkpoint>::fail(
            folder + ": has no *.safetensors files and no model.safetensors.index.json");
    auto index = jsonFromText(*indexText.value);
    if (!index || !index.value->is_object())
        return Parsed<Checkpoint>::fail(folder + "/model.safetensors.index.json: " +
                                        (index ? "must be a JSON object" : index.error));
    const json metadata = index.value->value("metadata", json::object());
    const json params = metadata.is_object() ? metadata.value("total_parameters", json()) : json();
    const json size = metadata.is_object() ? metadata.value("total_size", json()) : json();
    if (params.is_number_integer() && params.get<int64_t>() > 0) {
        c.total = params.get<int64_t>();
        c.source = "model.safetensors.index.json metadata.total_parameters";
    } else if (size.is_number_integer() && size.get<int64_t>() > 0) {
        std::string dtype = "bfloat16";
        for (const char *key : {"torch_dtype", "dtype"})
            if (c.config.is_object() && c.config.contains(key) && c.config[key].is_string()) {
                dtype = c.config[key].get<std::string>();
                break;
            }
        const int64_t per = dtype == "float32" ? 4 : 2;
        c.total = size.get<int64_t>() / per;
        c.bytes = size.get<int64_t>();
        c.source = "model.safetensors.index.json metadata.total_size / " + std::to_string(per) +
                   " bytes (" + dtype + ")";
    } else {
        return Parsed<Checkpoint>::fail(folder +
                                        "/model.safetensors.index.json: metadata gives neither "
                                        "total_parameters nor total_size");
    }
    return Parsed<Checkpoint>::ok(std::move(c));
}

} // namespace vramplan
