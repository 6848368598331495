// Fuzzing the importers of training setups (core/imports/, `vramplan-cli import`, issue 24):
// any bytes as a DeepSpeed JSON or a YAML of Hugging Face/TRL, Axolotl, LLaMA-Factory,
// torchtune or LitGPT, a torchtitan TOML (toml++), or a Megatron-LM / ms-swift / verl launch
// script (the shell-word splitter of core/imports/shell_script.h, also driven on its own: it
// must end, within its bounds, on any bytes), into a scenario. An accepted file must give a
// consistent scenario (checkScenario empty, its JSON read back to the same JSON) with an origin
// for every field; a refused one one printable line. A violation, a crash, an exception escaping
// the core or a sanitizer report ends the run with abort().
//
// Two drivers share LLVMFuzzerTestOneInput (as fuzz_scenario.cpp):
//   - with -DVRAMPLAN_LIBFUZZER and -fsanitize=fuzzer (Clang): libFuzzer, for long runs by hand;
//   - otherwise the main() below: a deterministic mutation loop (fixed seed) for CTest,
//       fuzz_imports [ITERATIONS=20000] [CORPUS_DIR...]
//     over every file under the corpus folders (tests/data/imports: the tools' real files). A
//     failing input is written to fuzz_imports_crash.bin in the working folder.

#include "formats/scenario_json.h"
#include "fuzz_corpus.h"
#include "imports/config_document.h"
#include "imports/import_setup.h"
#include "imports/shell_script.h"

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

const fuzz::Target fuzz::target = {"fuzz_imports", "fuzz_imports_crash.bin"};

namespace {

using namespace vramplan;
using fuzz::check;
using fuzz::currentInput;
using fuzz::violated;

std::size_t imported = 0;

std::size_t leaves(const nlohmann::json &node, bool inHfConfig)
{
    if (node.is_object() && !node.empty() && !inHfConfig) {
        std::size_t n = 0;
        for (const auto &[key, value] : node.items())
            n += leaves(value, key == "hf_config");
        return n;
    }
    return 1;
}

void runImport(std::string_view text, const ImportOptions &options)
{
    // A TOML table header makes the input a torchtitan file (the importer goes by the name);
    // shell scripts are told by their text.
    const bool toml = text.find("\n[") != std::string_view::npos || text.starts_with("[");
    const auto r = importTrainingText(toml ? "fuzz.toml" : "fuzz.yaml", text, options);
    if (!r) {
        check(!r.error.empty(), "a refused input has a reason");
        check(r.error.find('\n') == std::string::npos, "an error is one line", r.error);
        check(r.error.size() <= 600, "an error is short", r.error.substr(0, 200));
        return;
    }
    ++imported;
    const ImportResult &result = *r.value;
    check(checkScenario(result.scenario).empty(), "an imported scenario is consistent",
          checkScenario(result.scenario));
    const auto back = scenarioFromJson(result.scenarioJson);
    check(bool(back), "an imported scenario reads back", back.error);
    check(scenarioToJson(*back.value) == result.scenarioJson, "it reads back to the same JSON");
    check(result.fields.size() == leaves(result.scenarioJson, false),
          "one origin per field of the scenario");
    for (const auto &f : result.fields)
        check(!f.path.empty() && !f.origin.empty(), "every field has an origin", f.path);
    (void)result.scenarioJson.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
}

// Inputs larger than this are cut: a training config is a few kilobytes.
constexpr std::size_t maxInputBytes = 64 * 1024;

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const std::string_view text(reinterpret_cast<const char *>(data),
                                std::min(size, maxInputBytes));
    currentInput = text;
    try {
        // The launcher's facts from the first byte: 1 to 8 GPUs, with or without --model.
        const unsigned first = text.empty() ? 0u : static_cast<unsigned char>(text[0]);
        ImportOptions options;
        options.gpus = 1 + (first & 7);
        options.gpu = "h100-80gb";
        options.model = (first & 8) ? "" : "llama-3.2-1b";
        runImport(text, options);
        try {
            const auto script = imports::readShellScript("fuzz.sh", text);
            for (const auto &command : script.commands)
                check(!command.words.empty(), "a command has words");
        } catch (const imports::ImportError &e) {
            const std::string error = e.what();
            check(error.find('\n') == std::string::npos || error.size() < 600,
                  "a shell error is short", error.substr(0, 200));
        }
    } catch (const std::exception &e) {
        violated("an exception escaped the core", e.what());
    }
    return 0;
}

#ifndef VRAMPLAN_LIBFUZZER

namespace {

// Pieces worth inserting: the keys the importers read, "auto", YAML's structure and aliases.
const std::string_view dictionary[] = {
    "\nmicro_batch_size: 4", "\ngradient_accumulation_steps: 3", "\nbatch_size: 7",
    "\nsequence_len: 100000000000", "\nadapter: qlora", "\nload_in_8bit: true",
    "\nlora_target_linear: true", "\nlora_r: 0", "\nfsdp: full_shard offload",
    "\nfsdp_config:\n  fsdp_version: 2\n  reshard_after_forward: false",
    "\nfinetuning_type: full", "\nquantization_bit: 4", "\ncutoff_len: -1",
    "\nper_device_train_batch_size: 2", "\nbf16: auto", "\nfp16: true", "\noptim: adafactor",
    "\ngradient_checkpointing: offload", "\ndtype: bf16", "\nbatch_size: 0",
    "\nmodel:\n  _component_: torchtune.models.llama3_1.qlora_llama3_1_8b\n  lora_rank: 8",
    "\noptimizer:\n  _component_: torch.optim.AdamW\n  fused: true",
    "\"train_batch_size\": 30,", "\"zero_optimization\": {\"stage\": 3, \"offload_param\": "
    "{\"device\": \"nvme\"}},", "\"auto\"", "\"bf16\": {\"enabled\": true},",
    "&a [1, 2, *a]", "*a", "&x ", "[", "]", "{", "}", ": ", "- ", "\n  ", "'", "\"", "#",
    "null", "~", "1e400", "-9223372036854775809", "\ttab", "\ndeepspeed: ds.json",
    "\nbase_model: Qwen/Qwen3-8B", "\nmodel_name_or_path: meta-llama/Llama-3.2-1B",
    // Launch scripts, TOML, LitGPT.
    " \\\n    --micro-batch-size 4", " --global-batch-size 7", " --tensor-model-parallel-size 3",
    "\nARGS=(\n --bf16\n)\n", " ${ARGS[@]}", " \"${ARGS[@]}\"", " $((GPUS*2))", " ${X:-8}",
    " $(hostname)", "\nif [[ \"$A\" == \"b\" ]]; then\n", "\nfi\n", "\nelse\n", "\nfor i in 1; do\n",
    "\ndone\n", " <<EOF\nx\nEOF\n", "\ntorchrun --nproc_per_node 8 pretrain_gpt.py",
    "\nNPROC_PER_NODE=2 swift sft --tuner_type lora", " actor_rollout_ref.rollout.n=0",
    " actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=3", " trainer.n_gpus_per_node=0",
    "\n[parallelism]\ndata_parallel_shard_degree = -1", "\n[training]\nlocal_batch_size = 0",
    "\ntrain:\n  global_batch_size: 3\n  micro_batch_size: 2", "\nquantize: bnb.nf4",
    "\ndevices: 0"};

std::string mutate(std::string s, std::mt19937 &rng, const std::vector<std::string> &seeds)
{
    auto below = [&rng](std::size_t n) {
        return n == 0 ? std::size_t(0) : std::uniform_int_distribution<std::size_t>(0, n - 1)(rng);
    };
    // One draw per statement: the sequence of inputs must not depend on the compiler.
    const std::size_t kind = below(7);
    const std::size_t at = below(s.size() + 1);
    const std::size_t position = s.empty() ? 0 : below(s.size());
    switch (kind) {
    case 0:
        if (!s.empty())
            s[position] ^= char(1u << below(8));
        break;
    case 1:
    case 2: {
        const std::string_view piece = dictionary[below(std::size(dictionary))];
        s.insert(std::min(at, s.size()), piece);
        break;
    }
    case 3:
        s.resize(below(s.size() + 1));
        break;
    case 4: {
        if (s.empty())
            break;
        const std::size_t length = 1 + below(std::min<std::size_t>(s.size() - position, 256));
        s.insert(at, s.substr(position, length));
        break;
    }
    case 5:
        if (!s.empty())
            s.erase(position, 1 + below(std::min<std::size_t>(s.size() - position, 64)));
        break;
    default: {
        const std::string &other = seeds[below(seeds.size())];
        s = s.substr(0, at) + other.substr(below(other.size() + 1));
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
        std::fprintf(stderr, "usage: fuzz_imports [ITERATIONS] [CORPUS_DIR...]\n");
        return 2;
    }
    std::vector<std::string> seeds = {"{}", "micro_batch_size: 1\n"};
    std::vector<fuzz::CorpusFile> corpus;
    if (!fuzz::readCorpus(argc, argv, maxInputBytes,
                          [](const auto &path) { return path.extension() != ".md"; }, corpus))
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
    std::string previous = seeds.front();
    for (long i = 0; i < iterations; ++i) {
        const bool fromPrevious = std::uniform_int_distribution<int>(0, 3)(rng) == 0;
        std::string input =
            fromPrevious ? previous
                         : seeds[std::uniform_int_distribution<std::size_t>(0, seeds.size() - 1)(rng)];
        const std::size_t rounds = 1 + std::uniform_int_distribution<std::size_t>(0, 3)(rng);
        for (std::size_t r = 0; r < rounds; ++r)
            input = mutate(std::move(input), rng, seeds);
        if (input.size() > maxInputBytes)
            input.resize(maxInputBytes);
        run(input);
        previous = std::move(input);
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("fuzz_imports: %zu seeds, %ld mutated inputs; %zu imported; %.1f s, no invariant "
                "violated\n",
                seeds.size(), iterations, imported, seconds);
    return 0;
}

#endif // VRAMPLAN_LIBFUZZER
