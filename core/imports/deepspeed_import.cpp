// A DeepSpeed config JSON (https://www.deepspeed.ai/docs/config-json/): ZeRO stage, offload,
// bf16/fp16, the batch triple and activation checkpointing. "auto" is Hugging Face's: filled from
// the trainer's arguments when they are imported too (transformers/integrations/deepspeed.py,
// HfTrainerDeepSpeedConfig.trainer_config_process), as the Trainer fills it.

#include "imports/import_draft.h"

#include "json_value_text.h"

namespace vramplan::imports {
namespace {

constexpr int64_t maxBatch = int64_t(1) << 24;

struct BatchValue
{
    std::optional<int64_t> value;
    std::string origin;
};

bool isAuto(const nlohmann::json *v) { return v && v->is_string() && *v == "auto"; }

// One of the batch triple: a number, "auto" filled from the trainer's fact, or absent.
BatchValue batchValue(ConfigDoc &doc, Draft &draft, const char *key, const char *fact)
{
    const nlohmann::json *v = doc.find(key);
    if (isAuto(v)) {
        doc.use(key);
        const auto it = fact ? draft.trainer.find(fact) : draft.trainer.end();
        if (it != draft.trainer.end())
            return {it->second.value.get<int64_t>(),
                    doc.origin(key) + " \"auto\" = " + it->second.origin};
        return {};
    }
    const auto n = doc.takeInt(key, 1, maxBatch);
    if (n && fact) {
        const auto it = draft.trainer.find(fact);
        if (it != draft.trainer.end() && it->second.value.get<int64_t>() != *n)
            doc.fail(key, std::to_string(*n) + " differs from " + it->second.origin + " (" +
                              std::to_string(it->second.value.get<int64_t>()) +
                              "), which the Trainer refuses; write \"auto\" or the same number");
    }
    return {n, n ? doc.origin(key) : std::string()};
}

std::string offloadDevice(ConfigDoc &doc, const std::string &key)
{
    const nlohmann::json *section = doc.find(key);
    if (!section)
        return "";
    const auto device = doc.takeString(key + ".device");
    doc.use(key + ".pin_memory");
    if (!device)
        return "";
    if (*device != "cpu" && *device != "nvme" && *device != "none")
        doc.fail(key + ".device", "must be cpu, nvme or none, got '" + *device + "'");
    return *device;
}

// bf16.enabled / fp16.enabled: true, false, "auto" (from the trainer's flag) or absent.
std::optional<bool> precisionFlag(ConfigDoc &doc, Draft &draft, const std::string &section,
                                  std::string &origin)
{
    const std::string key = section + ".enabled";
    const nlohmann::json *v = doc.take(key);
    origin = doc.origin(key);
    if (!v)
        return std::nullopt;
    if (isAuto(v)) {
        const auto it = draft.trainer.find(section);
        if (it == draft.trainer.end())
            return std::nullopt;
        origin += " \"auto\" = " + it->second.origin;
        return it->second.value.get<bool>();
    }
    if (!v->is_boolean())
        doc.fail(key, "must be true, false or \"auto\", got " + describeJson(*v));
    return v->get<bool>();
}

void importBatch(ConfigDoc &doc, Draft &draft)
{
    BatchValue micro = batchValue(doc, draft, "train_micro_batch_size_per_gpu", "micro");
    BatchValue accum = batchValue(doc, draft, "gradient_accumulation_steps", "accum");
    BatchValue total = batchValue(doc, draft, "train_batch_size", nullptr);
    if (isAuto(doc.find("train_batch_size")) && micro.value && accum.value)
        total = {}; // the Trainer writes micro x accumulation x world size
    const int64_t world = draft.gpuCount();
    // deepspeed/runtime/config.py, DeepSpeedConfig._set_batch_related_parameters.
    const auto need = [&](const char *why) {
        if (world < 1)
            throw ImportError(std::string("--gpus: ") + doc.file() + " gives " + why +
                              ", which needs the GPU count; give --gpus N");
    };
    const auto divide = [&](int64_t a, int64_t b, const char *key) {
        if (b < 1 || a % b != 0)
            doc.fail(key, std::to_string(a) + " is not divisible by " + std::to_string(b) +
                              " (micro-batch x accumulation x " + std::to_string(world) +
                              " GPUs)");
        return a / b;
    };
    if (total.value) {
        need("train_batch_size");
        if (micro.value && accum.value) {
            if (*micro.value * *accum.value * world != *total.value)
                doc.fail("train_batch_size",
                         std::to_string(*total.value) + " is not micro-batch " +
                             std::to_string(*micro.value) + " x accumulation " +
                             std::to_string(*accum.value) + " x " + std::to_string(world) +
                             " GPUs");
        } else if (micro.value) {
            accum = {divide(*total.value, *micro.value * world, "train_batch_size"),
                     total.origin + " / (" + micro.origin + " x --gpus)"};
        } else if (accum.value) {
            micro = {divide(*total.value, *accum.value * world, "train_batch_size"),
                     total.origin + " / (" + accum.origin + " x --gpus)"};
        } else {
            micro = {divide(*total.value, world, "train_batch_size"),
                     total.origin + " / --gpus"};
            accum = {1, "DeepSpeed's rule for train_batch_size alone "
                        "(deepspeed/runtime/config.py, _set_batch_related_parameters)"};
        }
    }
    if (micro.value)
        draft.set("training.micro_batch_size", *micro.value, micro.origin);
    else if (isAuto(doc.find("train_micro_batch_size_per_gpu")))
        draft.warn(doc.origin("train_micro_batch_size_per_gpu") +
                   " is \"auto\" and no trainer arguments were imported to fill it");
    if (accum.value)
        draft.set("training.gradient_accumulation_steps", *accum.value, accum.origin);
}

} // namespace

void importDeepSpeed(ConfigDoc &doc, Draft &draft)
{
    draft.set("framework", "deepspeed", doc.file() + " (a DeepSpeed config)");
    importBatch(doc, draft);

    if (doc.find("zero_optimization")) {
        const nlohmann::json *stage = doc.find("zero_optimization.stage");
        if (isAuto(stage))
            doc.fail("zero_optimization.stage", "\"auto\" is no stage the Trainer fills; "
                                                "write 0, 1, 2 or 3");
        if (const auto s = doc.takeInt("zero_optimization.stage", 0, 3))
            draft.set("parallelism.zero_stage", *s, doc.origin("zero_optimization.stage"));
        const std::string opt = offloadDevice(doc, "zero_optimization.offload_optimizer");
        if (!opt.empty())
            draft.set("parallelism.offload_optimizer", opt,
                      doc.origin("zero_optimization.offload_optimizer.device"));
        else if (doc.takeBool("zero_optimization.cpu_offload").value_or(false))
            draft.set("parallelism.offload_optimizer", "cpu",
                      doc.origin("zero_optimization.cpu_offload"));
        const std::string param = offloadDevice(doc, "zero_optimization.offload_param");
        if (!param.empty())
            draft.set("parallelism.offload_parameters", param,
                      doc.origin("zero_optimization.offload_param.device"));
        if (doc.take("zero_optimization.zenflow"))
            draft.warn(doc.origin("zero_optimization.zenflow") +
                       ": ZenFlow's split of the optimizer step between GPU and CPU is not "
                       "modelled; planned as the offload it names");
        if (const auto hpz = doc.takeInt("zero_optimization.zero_hpz_partition_size", 1, 1 << 20);
            hpz && *hpz > 1)
            draft.warn(doc.origin("zero_optimization.zero_hpz_partition_size") +
                       ": ZeRO++'s secondary partition of the weights is not modelled");
    } else {
        draft.set("parallelism.zero_stage", 0,
                  "not in " + doc.file() +
                      ": DeepSpeed's default stage 0 (deepspeed/runtime/zero/config.py)");
    }

    std::string bf16Origin, fp16Origin;
    const auto bf16 = precisionFlag(doc, draft, "bf16", bf16Origin);
    const auto bfloat16 = bf16 ? bf16 : precisionFlag(doc, draft, "bfloat16", bf16Origin);
    const auto fp16 = precisionFlag(doc, draft, "fp16", fp16Origin);
    if (bfloat16.value_or(false) && fp16.value_or(false))
        doc.fail("bf16.enabled", "bf16 and fp16 are both enabled, which DeepSpeed refuses");
    if (bfloat16.value_or(false))
        draft.set("training.precision", "bf16_mixed", bf16Origin);
    else if (fp16.value_or(false))
        draft.set("training.precision", "fp16_mixed", fp16Origin);
    else if (!isAuto(doc.find("bf16.enabled")) && !isAuto(doc.find("fp16.enabled")))
        draft.set("training.precision", "fp32",
                  doc.file() + ": neither bf16 nor fp16 enabled (DeepSpeed's default, "
                               "deepspeed/runtime/config.py)");
    else
        draft.warn(doc.file() + ": bf16/fp16 \"auto\" with no trainer arguments to fill it; "
                                "precision not imported");

    if (const auto type = doc.takeString("optimizer.type")) {
        doc.use("optimizer.params");
        if (*type == "Adam" || *type == "AdamW" || *type == "adam" || *type == "adamw")
            // FusedAdam with adam_w_mode on by default (deepspeed/ops/adam/fused_adam.py).
            draft.set("training.optimizer", "adamw", doc.origin("optimizer.type"));
        else if (*type == "Lion")
            draft.set("training.optimizer", "lion", doc.origin("optimizer.type"));
        else
            draft.warn(doc.origin("optimizer.type") + ": '" + *type +
                       "' is not an optimizer the planner models; the optimizer is not imported");
    }
    if (const nlohmann::json *ac = doc.find("activation_checkpointing")) {
        doc.use("activation_checkpointing");
        if (ac->is_object() && ac->value("cpu_checkpointing", false) == true)
            draft.warn(doc.origin("activation_checkpointing.cpu_checkpointing") +
                       ": checkpoints kept on the CPU are not modelled");
        draft.warn(doc.origin("activation_checkpointing") +
                   ": configures deepspeed.checkpointing, which only a model that calls it "
                   "uses (Megatron-DeepSpeed); a Hugging Face model recomputes by the trainer's "
                   "gradient_checkpointing");
    }
}

} // namespace vramplan::imports
