#pragma once
// The corpus folders a standalone fuzz driver is given after its iteration count (argv[2] on):
// every regular file under them that the target takes, read whole, in a deterministic order.

#include "fuzz_invariants.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <system_error>
#include <vector>

namespace fuzz {

struct CorpusFile
{
    std::filesystem::path path;
    std::string text;
};

// False (having said why on stderr) when a folder cannot be read.
inline bool readCorpus(int argc, char **argv, std::uintmax_t maxBytes,
                       const std::function<bool(const std::filesystem::path &)> &takes,
                       std::vector<CorpusFile> &out)
{
    for (int a = 2; a < argc; ++a) {
        std::error_code ec;
        std::vector<std::filesystem::path> files;
        for (auto it = std::filesystem::recursive_directory_iterator(argv[a], ec);
             !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec))
            if (it->is_regular_file() && it->file_size() <= maxBytes && takes(it->path()))
                files.push_back(it->path());
        if (ec) {
            std::fprintf(stderr, "%s: cannot read corpus folder %s: %s\n", target.name, argv[a],
                         ec.message().c_str());
            return false;
        }
        std::sort(files.begin(), files.end()); // a deterministic order
        for (const auto &path : files) {
            std::ifstream in(path, std::ios::binary);
            out.push_back({path, std::string(std::istreambuf_iterator<char>(in),
                                             std::istreambuf_iterator<char>())});
        }
    }
    return true;
}

} // namespace fuzz
