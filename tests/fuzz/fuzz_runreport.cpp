// Fuzzing what reads a measured run's files (core/runs/, `vramplan-cli run-report`):
//   - readPickle (our pickle reader: any bytes, nothing executed) and the JSON copy of its data,
//   - readJsonData (JSON through the SAX reader),
//   - readRunSource (the kind detection, the snapshot analysis, MemTracker, memory_stats and the
//     nvidia-smi CSV), then the report, its JSON and its table.
// An accepted file must give a sane report: every byte count >= 0, at most maxTimelinePoints
// points, no point above the peak, the component rules covering the allocated peak. A refused
// one must say why. A violation, a crash, an exception escaping the core or a sanitizer report
// ends the run with abort().
//
// Two drivers share LLVMFuzzerTestOneInput (as fuzz_scenario.cpp):
//   - with -DVRAMPLAN_LIBFUZZER and -fsanitize=fuzzer (Clang): libFuzzer, for long runs by hand;
//   - otherwise the main() below: a deterministic mutation loop (fixed seed) for CTest,
//       fuzz_runreport [ITERATIONS=20000] [CORPUS_DIR...]
//     over every file under the corpus folders (tests/data/runs: pickles of protocols 0-5, JSON,
//     CSV, the refused and truncated ones). A failing input is written to
//     fuzz_runreport_crash.bin in the working folder before the check aborts.

#include "fuzz_corpus.h"
#include "runs/data_readers.h"
#include "runs/run_report.h"
#include "runs/run_source.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <string_view>

#ifndef VRAMPLAN_LIBFUZZER
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <vector>
#endif

const fuzz::Target fuzz::target = {"fuzz_runreport", "fuzz_runreport_crash.bin"};

namespace {

using namespace vramplan;
using fuzz::check;
using fuzz::currentInput;
using fuzz::violated;

std::size_t picklesRead = 0, reportsMade = 0;


void checkRefusal(const std::string &error)
{
    check(!error.empty(), "a refused input has a reason");
    check(error.size() < 4 * currentInput.size() + 1024, "an error is no longer than its input",
          error.substr(0, 200));
}

// The document as JSON (bounded), written out: must not throw.
void checkDoc(const Parsed<DataDoc> &doc)
{
    if (!doc) {
        checkRefusal(doc.error);
        return;
    }
    const auto json = doc.value->toJson(doc.value->root(), 64, 20000);
    if (json)
        (void)json.value->dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    else
        checkRefusal(json.error);
}

void checkSource(const RunSource &s)
{
    for (const auto *figure : {&s.allocated, &s.reserved, &s.device})
        check(!*figure || **figure >= 0, "a peak >= 0");
    check(s.timeline.size() <= maxTimelinePoints, "the timeline is bounded");
    for (const auto &p : s.timeline) {
        // (Without a trace a snapshot's one point is its end, and its peaks are null.)
        check(!p.allocated || (*p.allocated >= 0 && (!s.allocated || *p.allocated <= *s.allocated)),
              "a timeline point within the allocated peak");
        check(!p.reserved || (*p.reserved >= 0 && (!s.reserved || *p.reserved <= *s.reserved)),
              "a timeline point within the reserved peak");
        check(!p.device || (*p.device >= 0 && s.device && *p.device <= *s.device),
              "a timeline point within the device peak");
    }
    for (const auto &c : s.components)
        check(!c || *c >= 0, "a component >= 0");
    int64_t ruled = 0;
    for (const auto &r : s.rules) {
        check(r.bytes >= 0 && !r.rule.empty(), "a rule with a name and bytes >= 0");
        ruled = std::min<int64_t>(INT64_MAX / 2, ruled + r.bytes);
    }
    if (s.kind == "torch_snapshot" && s.allocated && s.unknownBytes)
        check(ruled >= *s.allocated, "the rules cover the allocated peak");
}

void runSource(std::string_view text, int device)
{
    auto source = readRunSource("fuzz", text, device);
    if (!source) {
        checkRefusal(source.error);
        return;
    }
    checkSource(*source.value);
    const std::vector<RunSource> sources{*source.value, *source.value};
    const nlohmann::json report = runReportJson(sources, device);
    check(report.at("format") == "vramplan-run", "the report's format");
    (void)report.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
    check(!runReportTable(report).empty(), "a table is written");
    ++reportsMade;
}

// Inputs larger than this are cut: every reader is linear, the structure is at the start.
constexpr std::size_t maxInputBytes = 256 * 1024;

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const std::string_view text(reinterpret_cast<const char *>(data),
                                std::min(size, maxInputBytes));
    currentInput = text;
    try {
        const auto pickle = readPickle(text);
        picklesRead += bool(pickle);
        checkDoc(pickle);
        checkDoc(readJsonData(text));
        runSource(text, 0);
        if (!text.empty() && (text[0] & 1))
            runSource(text, 1);
    } catch (const std::exception &e) {
        violated("an exception escaped the core", e.what());
    }
    return 0;
}

#ifndef VRAMPLAN_LIBFUZZER

namespace {

// Pieces worth inserting: opcodes (refused ones too), memo references, lengths at the edges,
// and the words a snapshot's analysis looks for.
using namespace std::string_view_literals; // "..."sv: NULs included
// clang-format off
const std::string_view dictionary[] = {
    "\x80\x04"sv, "\x80\x02"sv, "\x95\x10\x00\x00\x00\x00\x00\x00\x00"sv, "("sv, "e"sv, "u"sv,
    "a"sv, "s"sv, "t"sv, "0"sv, "1"sv, "2"sv, "N"sv, "\x88"sv, "\x89"sv, "]"sv, "}"sv, ")"sv,
    "\x85"sv, "\x86"sv, "\x87"sv, "\x94"sv, "h\x00"sv, "h\x01"sv, "h\xff"sv,
    "j\xff\xff\xff\x7f"sv, "q\x00"sv, "r\x00\x00\x01\x00"sv, "."sv,
    "\x8a\x09\x00\x00\x00\x00\x00\x00\x00\x80\x00"sv,
    "\x8a\x08\xff\xff\xff\xff\xff\xff\xff\x7f"sv, "\x8b\xff\xff\xff\x7f"sv,
    "J\xff\xff\xff\xff"sv, "K\x07"sv, "M\xff\xff"sv, "\x8c\x05" "alloc"sv,
    "\x8c\x0e" "free_completed"sv, "\x8c\x0d" "segment_alloc"sv, "\x8c\x04" "size"sv,
    "\x8c\x04" "addr"sv, "\x8c\x07" "time_us"sv, "\x8c\x06" "frames"sv, "\x8c\x05" "state"sv,
    "\x8c\x10" "active_allocated"sv, "X\xff\xff\xff\xff"sv,
    "\x8d\x00\x00\x00\x00\x00\x00\x00\x80"sv, "G\x7f\xf0\x00\x00\x00\x00\x00\x00"sv, "c"sv,
    "\x93"sv, "R"sv, "b"sv, "\x81"sv, "\x8f"sv, "I01\n"sv, "L99999999999999999999999L\n"sv,
    "F1e308\n"sv, "V\\u00e9\n"sv, "g0\n"sv, "p0\n"sv, "\"size\": -1"sv,
    "\"size\": 9223372036854775807"sv, "\"action\": \"segment_free\""sv,
    "\"state\": \"inactive\""sv, "\"device\": 1"sv, "nan"sv,
    "2025/01/15 10:00:00.000, 99999999 MiB\n"sv, ", N/A\n"sv,
    "timestamp, index, memory.used [MiB]\n"sv};
// clang-format on

std::string mutate(std::string s, std::mt19937 &rng, const std::vector<std::string> &seeds)
{
    auto below = [&rng](std::size_t n) {
        return n == 0 ? std::size_t(0) : std::uniform_int_distribution<std::size_t>(0, n - 1)(rng);
    };
    // One draw per statement: the sequence of inputs must not depend on the compiler.
    const std::size_t kind = below(8);
    const std::size_t at = below(s.size() + 1);
    const std::size_t position = s.empty() ? 0 : below(s.size());
    switch (kind) {
    case 0:
        if (!s.empty())
            s[position] ^= char(1u << below(8));
        break;
    case 1:
        if (!s.empty())
            s[position] = char(below(256));
        break;
    case 2:
    case 3: {
        const std::string_view piece = dictionary[below(std::size(dictionary))];
        if (kind == 3 && !s.empty())
            s.erase(position, std::min<std::size_t>(piece.size(), s.size() - position));
        s.insert(std::min(at, s.size()), piece);
        break;
    }
    case 4:
        s.resize(below(s.size() + 1));
        break;
    case 5: {
        if (s.empty())
            break;
        const std::size_t length = 1 + below(std::min<std::size_t>(s.size() - position, 512));
        s.insert(at, s.substr(position, length));
        break;
    }
    case 6:
        if (!s.empty())
            s.erase(position, 1 + below(std::min<std::size_t>(s.size() - position, 64)));
        break;
    default: {
        const std::string &other = seeds[below(seeds.size())];
        const std::size_t cut = below(other.size() + 1);
        s = s.substr(0, at) + other.substr(cut);
        break;
    }
    }
    return s;
}

} // namespace

int main(int argc, char **argv)
{
    const long iterations = argc > 1 ? std::strtol(argv[1], nullptr, 10) : 20000;
    if (iterations < 0) {
        std::fprintf(stderr, "usage: fuzz_runreport [ITERATIONS] [CORPUS_DIR...]\n");
        return 2;
    }
    std::vector<std::string> seeds = {std::string("\x80\x04}\x94.", 5), "{}", "[]"};
    std::vector<fuzz::CorpusFile> corpus;
    if (!fuzz::readCorpus(argc, argv, 4 * 1024 * 1024, [](const auto &) { return true; }, corpus))
        return 2;
    for (auto &file : corpus)
        seeds.push_back(std::move(file.text));
    const auto start = std::chrono::steady_clock::now();
    auto run = [](const std::string &input) {
        LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t *>(input.data()), input.size());
    };
    for (const auto &seed : seeds)
        run(seed);
    std::mt19937 rng(20261127u);
    std::vector<std::string> accepted; // inputs that made a report, mutated further
    std::size_t acceptedNext = 0;
    std::string previous = seeds.front();
    for (long i = 0; i < iterations; ++i) {
        const std::size_t base = std::uniform_int_distribution<std::size_t>(0, 9)(rng);
        std::string input =
            base < 2 ? previous
            : base < 6 && !accepted.empty()
                ? accepted[std::uniform_int_distribution<std::size_t>(0, accepted.size() - 1)(rng)]
                : seeds[std::uniform_int_distribution<std::size_t>(0, seeds.size() - 1)(rng)];
        const std::size_t rounds = 1 + std::uniform_int_distribution<std::size_t>(0, 3)(rng);
        for (std::size_t r = 0; r < rounds; ++r)
            input = mutate(std::move(input), rng, seeds);
        if (input.size() > maxInputBytes)
            input.resize(maxInputBytes);
        const std::size_t before = reportsMade;
        run(input);
        if (reportsMade != before) {
            if (accepted.size() < 512)
                accepted.push_back(input);
            else
                accepted[acceptedNext++ % 512] = input;
        }
        previous = std::move(input);
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("fuzz_runreport: %zu seeds, %ld mutated inputs; %zu pickles read, %zu reports "
                "made; %.1f s, no invariant violated\n",
                seeds.size(), iterations, picklesRead, reportsMade, seconds);
    return 0;
}

#endif // VRAMPLAN_LIBFUZZER
