// Timings of reading a measured run (core/runs/): a large synthetic torch memory snapshot,
// pickled as pickle.dump writes it (protocol 4: memoized strings and containers, shared frame
// lists, batches of 1000 items), read by our pickle reader and then analysed whole (replay,
// phases, components at the peak). Run with `ninja bench`, or
//   bench_runs [--benchmark_repetitions=5] [--snapshot_mb=N]   (default 200 MB)
//   bench_runs --snapshot_mb=300 --write_snapshot=big.pickle   (writes the file and stops, to
//                                   measure `vramplan-cli run-report big.pickle` with time -v)
// Counters: MB/s of the file, and the document's bytes per byte of the file (memory; the file
// itself is read piece by piece and not held).

#include "runs/data_readers.h"
#include "runs/run_source.h"

#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <vector>

using namespace vramplan;

namespace {

std::size_t snapshotMegabytes = 200;

// The opcodes CPython's pickler (protocol 4) writes for plain data.
class PickleWriter
{
public:
    std::string out = std::string("\x80\x04", 2);

    void memoize() { out += '\x94', ++memoSize_; }
    void get(uint32_t index)
    {
        if (index < 256) {
            out += 'h';
            out += char(index);
        } else {
            out += 'j';
            out.append(reinterpret_cast<const char *>(&index), 4);
        }
    }
    void str(const std::string &s) // interned strings are written once, then fetched
    {
        if (const auto it = strings_.find(s); it != strings_.end())
            return get(it->second);
        out += '\x8c';
        out += char(s.size());
        out += s;
        memoize();
        strings_[s] = memoSize_ - 1;
    }
    void integer(int64_t v)
    {
        if (v >= 0 && v < 256) {
            out += 'K';
            out += char(v);
        } else if (v >= INT32_MIN && v <= INT32_MAX) {
            const int32_t i = int32_t(v);
            out += 'J';
            out.append(reinterpret_cast<const char *>(&i), 4);
        } else {
            out += '\x8a';
            out += char(8);
            out.append(reinterpret_cast<const char *>(&v), 8);
        }
    }
    uint32_t beginList() { return begin(']'); }
    uint32_t beginDict() { return begin('}'); }
    void mark() { out += '('; }
    void appends() { out += 'e'; }
    void setItems() { out += 'u'; }
    void stop() { out += '.'; }

private:
    uint32_t begin(char op)
    {
        out += op;
        memoize();
        return memoSize_ - 1;
    }
    std::map<std::string, uint32_t> strings_;
    uint32_t memoSize_ = 0;
};

// A snapshot of about `megabytes` MB: 3 segments; one device trace of alloc, free_requested and
// free_completed entries with time_us, each with one of 4,000 tracebacks (20-40 frames from a
// pool of 3,000 frames), as a long training run records them.
std::string syntheticSnapshot(std::size_t megabytes)
{
    PickleWriter w;
    std::mt19937 rng(7);
    w.beginDict();
    w.mark();
    w.str("segments");
    w.beginList();
    w.mark();
    for (int s = 0; s < 3; ++s) {
        w.beginDict();
        w.mark();
        w.str("device"), w.integer(0);
        w.str("address"), w.integer(0x7f0000000000 + (int64_t(s) << 32));
        w.str("total_size"), w.integer(int64_t(1) << 32);
        w.str("blocks");
        w.beginList();
        w.mark();
        w.beginDict();
        w.mark();
        w.str("address"), w.integer(0x7f0000000000 + (int64_t(s) << 32));
        w.str("size"), w.integer(int64_t(1) << 32);
        w.str("requested_size"), w.integer(0);
        w.str("state"), w.str("inactive");
        w.setItems();
        w.appends();
        w.setItems();
    }
    w.appends();
    // The frames, defined once in a list of their own (torch's are inside the first tracebacks
    // that use them), then shared by reference.
    std::vector<uint32_t> frames, tracebacks;
    w.str("frame_pool");
    w.beginList();
    w.mark();
    for (int f = 0; f < 3000; ++f) {
        frames.push_back(w.beginDict());
        w.mark();
        w.str("filename"), w.str("/opt/venv/lib/python3.11/site-packages/torch/nn/modules/m" +
                                 std::to_string(f % 300) + ".py");
        w.str("name"), w.str("forward_" + std::to_string(f % 700));
        w.str("line"), w.integer(f * 7 % 2000);
        w.setItems();
    }
    w.appends();
    w.str("device_traces");
    w.beginList();
    w.mark();
    w.beginList();
    const std::size_t target = megabytes * 1000000;
    int64_t time = 1700000000000000, entry = 0;
    while (w.out.size() < target) {
        w.mark();
        for (int i = 0; i < 999; ++i, ++entry) { // batches of 1000 (with the MARK's), as pickle
            const int64_t addr = 0x7f0000000000 + (entry / 3) % 100000 * 4096;
            const char *action = entry % 3 == 0   ? "alloc"
                                 : entry % 3 == 1 ? "free_requested"
                                                  : "free_completed";
            w.beginDict();
            w.mark();
            w.str("action"), w.str(action);
            w.str("addr"), w.integer(addr);
            w.str("size"), w.integer(4096);
            w.str("stream"), w.integer(0);
            w.str("frames");
            if (tracebacks.size() < 4000 && entry % 3 == 0) {
                tracebacks.push_back(w.beginList());
                w.mark();
                const int depth = 20 + int(rng() % 21);
                for (int d = 0; d < depth; ++d)
                    w.get(frames[rng() % frames.size()]);
                w.appends();
            } else {
                w.get(tracebacks[rng() % tracebacks.size()]);
            }
            w.str("time_us"), w.integer(time += 3);
            w.setItems();
        }
        w.appends();
    }
    w.appends();
    w.setItems();
    w.stop();
    return w.out;
}

const std::string &snapshot()
{
    static const std::string bytes = syntheticSnapshot(snapshotMegabytes);
    return bytes;
}

void BM_ReadPickle(benchmark::State &state)
{
    const std::string &bytes = snapshot();
    double heldPerByte = 0;
    for (auto _ : state) {
        auto doc = readPickle(std::string_view(bytes));
        if (!doc) {
            state.SkipWithError(doc.error.c_str());
            return;
        }
        heldPerByte = double(doc.value->bytesHeld()) / double(bytes.size());
        benchmark::DoNotOptimize(doc.value->root());
    }
    state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(bytes.size()));
    state.counters["MB"] = double(bytes.size()) / 1e6;
    state.counters["held_per_file_byte"] = heldPerByte;
}
BENCHMARK(BM_ReadPickle)->Unit(benchmark::kMillisecond)->UseRealTime();

// The whole of `run-report`'s work on the file: read, replay, phases, components.
void BM_RunSource(benchmark::State &state)
{
    const std::string &bytes = snapshot();
    for (auto _ : state) {
        auto source = readRunSource("synthetic.pickle", std::string_view(bytes), 0);
        if (!source) {
            state.SkipWithError(source.error.c_str());
            return;
        }
        benchmark::DoNotOptimize(source.value->allocated);
    }
    state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(bytes.size()));
}
BENCHMARK(BM_RunSource)->Unit(benchmark::kMillisecond)->UseRealTime();

} // namespace

int main(int argc, char **argv)
{
    const char *writeTo = nullptr;
    for (int i = 1; i < argc; ++i) {
        if (std::strncmp(argv[i], "--snapshot_mb=", 14) == 0)
            snapshotMegabytes = std::size_t(std::strtoul(argv[i] + 14, nullptr, 10));
        if (std::strncmp(argv[i], "--write_snapshot=", 17) == 0)
            writeTo = argv[i] + 17;
    }
    if (writeTo) {
        std::ofstream(writeTo, std::ios::binary) << snapshot();
        return 0;
    }
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
