#pragma once
// The command a launch script runs (Megatron-LM's `torchrun ... pretrain_gpt.py --flags`,
// ms-swift's `swift sft --flags` / `megatron sft --flags`, verl's `python3 -m
// verl.trainer.main_ppo key=value ...`) as a ConfigDoc: flags by name ("--micro-batch-size 4"
// -> "micro-batch-size": 4, a bare flag -> true, several values -> a list; `--name=value` too),
// Hydra overrides by dotted key. The launcher's own flags (torchrun's --nproc_per_node,
// --nnodes) and the command's environment (NPROC_PER_NODE=8) are kept beside it. Internal to
// core/imports/.

#include "imports/config_document.h"
#include "imports/shell_script.h"

#include <memory>
#include <optional>

namespace vramplan::imports {

enum class LaunchTool
{
    Megatron, // pretrain_gpt.py
    MsSwift,  // swift sft|pt|rlhf, megatron sft|pt|rlhf
    Verl      // verl.trainer.main_ppo
};

struct LaunchScript
{
    ShellScript script;
    LaunchTool tool = LaunchTool::Megatron;
    std::string subcommand;    // ms-swift: "swift sft", "megatron sft"
    int line = 0;              // the launch command's first line
    std::unique_ptr<ConfigDoc> flags;
    // torchrun's flags before the script (Megatron), by name without dashes and with '_'.
    std::map<std::string, ShellWord, std::less<>> launcher;
    std::vector<std::pair<std::string, ShellWord>> environment;
    // What the command's words read that the script does not set: name -> the keys using it;
    // left as written (unknowns) or replaced by the ${NAME:-default} (defaulted).
    std::map<std::string, std::vector<std::string>, std::less<>> unknowns, defaulted;
    std::vector<std::string> notes; // "FILE:LINE: ..." from the reader and the splitting

    // A launcher flag or an environment variable of the command, or of the script, as a whole
    // number when the script writes it literally (nothing it read is unknown).
    std::optional<int64_t> literalNumber(const ShellWord &word) const;
    const ShellWord *env(std::string_view name) const;
};

// nullopt when the script runs none of the three tools; throws ImportError for a script that
// cannot be read. The warnings for unknowns are added by warnUnknowns once the keys are read.
std::optional<LaunchScript> readLaunchScript(const std::string &file, std::string_view text);

// Every name the command read that the script does not set, and the flags that used it, as
// warnings ("run.sh:3: DATA_PATH is not set in the script (an argument or the environment):
// --data-path left as written").
std::vector<std::string> launchWarnings(const LaunchScript &launch);

} // namespace vramplan::imports
