// The capability table (capabilities.h). A knob is listed as present only where the framework's
// own documentation or code offers it to a training run; where a framework reaches a knob only
// through another one (transformers through DeepSpeed or FSDP), the row says so in its source.

#include "training/capabilities.h"

#include <array>

namespace vramplan {
namespace {

using K = Knob;

struct Row
{
    Framework framework;
    std::array<bool, knobCount> has;
    std::string_view source;
};

constexpr std::array<bool, knobCount> with(std::initializer_list<Knob> knobs)
{
    std::array<bool, knobCount> has{};
    for (Knob k : knobs)
        has[static_cast<int>(k)] = true;
    return has;
}

const Row rows[] = {
    {Framework::Transformers,
     with({K::Zero1, K::Zero2, K::Zero3, K::OffloadOptimizerCpu, K::OffloadOptimizerNvme,
           K::OffloadParametersCpu, K::OffloadParametersNvme, K::TensorParallel,
           K::RecomputeFull, K::Lora, K::Qlora, K::Fp8, K::EightBitOptimizer,
           K::PagedOptimizer, K::FusedLinearLoss, K::Compile, K::LigerKernels,
           K::LowBitOptimizerStates}),
     "transformers Trainer docs (use_liger_kernel: Liger's kernels and fused linear "
     "cross-entropy; torch_compile; deepspeed.md: ZeRO 1-3, offload_optimizer/offload_param to cpu "
     "or nvme; fsdp.md: FULL_SHARD, SHARD_GRAD_OP, cpu offload; tp_plan='auto'), "
     "gradient_checkpointing, PEFT, bitsandbytes optimizers (optim='adamw_bnb_8bit', "
     "'paged_adamw_32bit'; optim='adamw_torch_8bit' / 'adamw_torch_4bit': torchao's low-bit "
     "AdamW), accelerate fp8 (TransformerEngine / torchao)"},
    {Framework::Pytorch,
     with({K::Zero1, K::Zero2, K::Zero3, K::OffloadOptimizerCpu, K::OffloadParametersCpu,
           K::TensorParallel, K::SequenceParallel, K::PipelineParallel, K::VirtualPipeline,
           K::ContextParallel, K::RecomputeSelective, K::RecomputeFull, K::RecomputePartial,
           K::Lora, K::Qlora, K::Fp8, K::EightBitOptimizer, K::PagedOptimizer, K::ChunkedLoss,
           K::FusedLinearLoss, K::Compile, K::LigerKernels, K::LowBitOptimizerStates}),
     "a plain loop may chunk its loss, compile, or call Liger / Cut Cross-Entropy; "
     "torch.distributed: ZeroRedundancyOptimizer, FSDP (SHARD_GRAD_OP, FULL_SHARD, "
     "CPUOffload), DTensor parallelize_module (ColwiseParallel, SequenceParallel), "
     "torch.distributed.pipelining (ScheduleInterleaved1F1B), context_parallel, "
     "torch.utils.checkpoint with selective policies; PEFT, bitsandbytes, torchao float8 and "
     "torchao.optim AdamW8bit / AdamW4bit / AdamWFp8"},
    {Framework::Litgpt,
     with({K::Zero3, K::RecomputeFull, K::Lora, K::Qlora, K::EightBitOptimizer,
           K::PagedOptimizer, K::ChunkedLoss}),
     "litgpt chunked_cross_entropy; litgpt finetune/pretrain: Fabric FSDPStrategy (full shard, activation_checkpointing_policy "
     "={Block}), --quantize bnb.nf4, --optimizer class paths (bitsandbytes)"},
    {Framework::Torchtune,
     with({K::Zero2, K::Zero3, K::OffloadOptimizerCpu, K::OffloadParametersCpu,
           K::TensorParallel, K::RecomputeFull, K::Lora, K::Qlora, K::Fp8, K::EightBitOptimizer,
           K::PagedOptimizer, K::ChunkedLoss, K::Compile, K::LowBitOptimizerStates}),
     "torchtune CEWithChunkedOutputLoss; compile: True; torchtune recipes: FSDP2 fully_shard (fsdp_reshard_after_forward), fsdp_cpu_offload, "
     "tensor_parallel_dim, enable_activation_checkpointing, LoRA/QLoRA recipes, "
     "enable_fp8_training, bitsandbytes PagedAdamW in the low-memory configs, "
     "optimizer._component_ torchao.optim.AdamW8bit / AdamW4bit"},
    {Framework::Torchtitan,
     with({K::Zero2, K::Zero3, K::OffloadOptimizerCpu, K::OffloadParametersCpu,
           K::TensorParallel, K::SequenceParallel, K::PipelineParallel, K::VirtualPipeline,
           K::ContextParallel, K::ExpertParallel, K::RecomputeSelective, K::RecomputeFull,
           K::RecomputePartial, K::Fp8, K::Compile}),
     "torchtitan JobConfig: FSDP2 (reshard_after_forward), training.enable_cpu_offload, "
     "training.compile / compile.enable, "
     "tensor/pipeline/context/expert parallel degrees, interleaved schedules, activation "
     "checkpoint full / selective (op, layer every N), float8"},
    {Framework::Megatron,
     with({K::Zero1, K::Zero2, K::Zero3, K::OffloadOptimizerCpu, K::TensorParallel,
           K::SequenceParallel, K::PipelineParallel, K::VirtualPipeline, K::ContextParallel,
           K::ExpertParallel, K::RecomputeSelective, K::RecomputeFull, K::RecomputePartial,
           K::Fp8, K::PrecisionAwareOptimizer, K::FusedLoss, K::GroupedGemm}),
     "Megatron-LM arguments: --use-distributed-optimizer, --use-megatron-fsdp "
     "(optim_grads, optim_grads_params), --optimizer-cpu-offload, --tensor/--pipeline/"
     "--context/--expert-model-parallel-size, --num-layers-per-virtual-pipeline-stage, "
     "--sequence-parallel, --recompute-granularity selective|full with --recompute-num-layers, "
     "--fp8-format, --use-precision-aware-optimizer (--main-params-dtype fp32|fp16, "
     "--main-grads-dtype fp32|bf16, --exp-avg-dtype / --exp-avg-sq-dtype fp32|fp16|bf16|fp8), --cross-entropy-loss-fusion, --moe-grouped-gemm; "
     "no parameter offload, no NVMe, no LoRA"},
    {Framework::Deepspeed,
     with({K::Zero1, K::Zero2, K::Zero3, K::OffloadOptimizerCpu, K::OffloadOptimizerNvme,
           K::OffloadParametersCpu, K::OffloadParametersNvme, K::PipelineParallel,
           K::ContextParallel, K::ExpertParallel, K::RecomputeFull, K::Lora, K::Qlora,
           K::EightBitOptimizer, K::PagedOptimizer, K::FusedLinearLoss, K::LigerKernels,
           K::PrecisionAwareOptimizer}),
     "DeepSpeed config: zero_optimization stage 1-3, offload_optimizer/offload_param device "
     "cpu|nvme, PipelineModule, Ulysses sequence parallelism (as context parallel), "
     "deepspeed.moe expert parallelism, activation_checkpointing, bf16 "
     "bf16_master_weights_and_grads / bf16_optimizer_states; LoRA/QLoRA and "
     "bitsandbytes optimizers, Liger kernels and loss through transformers"},
    {Framework::Unsloth,
     with({K::RecomputeFull, K::Lora, K::Qlora, K::EightBitOptimizer, K::PagedOptimizer,
           K::FusedLinearLoss}),
     "Unsloth docs: FastLanguageModel.from_pretrained(load_in_4bit, full_finetuning), "
     "get_peft_model(use_gradient_checkpointing='unsloth'), its fused cross-entropy; TRL "
     "SFTTrainer optim='adamw_8bit' / 'paged_adamw_8bit'; single-GPU data parallelism only "
     "through accelerate DDP"},
};

const Row &rowOf(Framework f)
{
    for (const auto &row : rows)
        if (row.framework == f)
            return row;
    return rows[0];
}

} // namespace

bool frameworkHas(Framework framework, Knob knob)
{
    return knob != Knob::Count && rowOf(framework).has[static_cast<int>(knob)];
}

std::string_view capabilitySource(Framework framework)
{
    return rowOf(framework).source;
}

std::string_view knobLabel(Knob knob)
{
    static constexpr std::string_view labels[knobCount] = {
        "ZeRO-1 (sharded optimizer states)",
        "ZeRO-2 (sharded gradients)",
        "ZeRO-3 / FSDP full shard",
        "optimizer offload to the CPU",
        "optimizer offload to NVMe",
        "parameter offload to the CPU",
        "parameter offload to NVMe",
        "tensor parallelism",
        "sequence parallelism",
        "pipeline parallelism",
        "interleaved (virtual) pipeline stages",
        "context parallelism",
        "expert parallelism",
        "selective recomputation",
        "full recomputation",
        "recomputation of some of the layers",
        "LoRA",
        "QLoRA",
        "fp8 training",
        "8-bit optimizer states",
        "paged optimizer states",
        "chunked cross-entropy",
        "fused linear cross-entropy",
        "torch.compile",
        "Liger kernels",
        "precision-aware optimizer (16-bit or fp8 master weights, gradients or states)",
        "low-bit optimizer states (torchao int8 / int4 / fp8 AdamW)",
        "fused cross-entropy kernel",
        "grouped GEMM of the experts (Transformer Engine)",
    };
    const int i = static_cast<int>(knob);
    return i >= 0 && i < knobCount ? labels[i] : "?";
}

int fsdpVersionOf(const Scenario &s)
{
    switch (s.framework) {
    case Framework::Torchtitan:
    case Framework::Torchtune:
    case Framework::Pytorch:
    case Framework::Transformers:
    case Framework::Litgpt:
        if (s.parallelism.fsdpVersion > 0)
            return int(s.parallelism.fsdpVersion);
        return s.framework == Framework::Transformers || s.framework == Framework::Litgpt ? 1 : 2;
    default:
        return 0;
    }
}

bool fsdpFloat8AllGatherApplies(const Scenario &s)
{
    // LitGPT's Fabric keeps its FSDP1 layout whatever fsdp_version says (fsdp_buffers.cpp
    // fabricUnsharded): no fsdp_pre_all_gather hook there.
    return s.training.mode == Mode::Train && s.training.precision == Precision::Fp8Mixed &&
           s.parallelism.zeroStage >= 3 && s.parallelism.dataParallel() > 1 &&
           s.framework != Framework::Litgpt && fsdpVersionOf(s) == 2;
}

int missingCapabilities(const Scenario &s, Knob out[knobCount])
{
    const auto &p = s.parallelism;
    const auto &t = s.training;
    const bool training = t.mode == Mode::Train;
    bool uses[knobCount] = {};
    const auto use = [&](Knob k, bool on) { uses[static_cast<int>(k)] = uses[static_cast<int>(k)] || on; };
    const bool sharded = p.dataParallel() * p.contextParallel > 1;
    use(Knob::Zero1, training && sharded && p.zeroStage == 1);
    use(Knob::Zero2, training && sharded && p.zeroStage == 2);
    use(Knob::Zero3, training && sharded && p.zeroStage >= 3);
    use(Knob::OffloadOptimizerCpu, training && p.offloadOptimizer == Offload::Cpu);
    use(Knob::OffloadOptimizerNvme, training && p.offloadOptimizer == Offload::Nvme);
    use(Knob::OffloadParametersCpu, p.offloadParameters == Offload::Cpu);
    use(Knob::OffloadParametersNvme, p.offloadParameters == Offload::Nvme);
    use(Knob::TensorParallel, p.tensorParallel > 1);
    use(Knob::SequenceParallel, p.sequenceParallel && p.tensorParallel > 1);
    use(Knob::PipelineParallel, p.pipelineParallel > 1);
    use(Knob::VirtualPipeline, p.pipelineParallel > 1 && p.virtualPipelineParallel > 1);
    use(Knob::ContextParallel, p.contextParallel > 1);
    use(Knob::ExpertParallel, p.expertParallel > 1);
    use(Knob::RecomputeSelective, training && t.recompute == Recompute::Selective);
    use(Knob::RecomputeFull, training && t.recompute == Recompute::Full && t.recomputeLayers < 0);
    use(Knob::RecomputePartial, training && t.recompute == Recompute::Full &&
                                    t.recomputeLayers >= 0 && t.recomputeLayers < s.model.layers);
    use(Knob::RecomputeFull, training && t.recompute == Recompute::Full &&
                                 t.recomputeLayers >= s.model.layers);
    use(Knob::Lora, training && t.finetune.method == FinetuneMethod::Lora);
    use(Knob::Qlora, training && t.finetune.method == FinetuneMethod::Qlora);
    use(Knob::Fp8, training && t.precision == Precision::Fp8Mixed);
    use(Knob::EightBitOptimizer, training && (t.optimizer == Optimizer::Adamw8bit ||
                                              t.optimizer == Optimizer::PagedAdamw8bit));
    use(Knob::PagedOptimizer, training && (t.optimizer == Optimizer::PagedAdamw ||
                                           t.optimizer == Optimizer::PagedAdamw8bit));
    use(Knob::ChunkedLoss, training && t.loss == LossKind::Chunked);
    use(Knob::FusedLinearLoss, training && t.loss == LossKind::FusedLinear);
    use(Knob::FusedLoss, training && t.loss == LossKind::Fused);
    use(Knob::GroupedGemm, training && t.groupedGemm && s.model.isMoe());
    use(Knob::Compile, t.compile);
    use(Knob::LigerKernels, t.kernels == Kernels::Liger);
    // Which optimizer_precision asks for: int8 / int4 states are torchao's, and so is fp8
    // outside Megatron; anything else chosen per field is a precision-aware optimizer's.
    const OptimizerPrecision &o = t.optimizerPrecision;
    const auto lowBit = [&](StateDtype d) {
        return d == StateDtype::Int8 || d == StateDtype::Int4 ||
               (d == StateDtype::Fp8 && s.framework != Framework::Megatron);
    };
    const auto sixteenBit = [&](StateDtype d) {
        return d == StateDtype::Bf16 || d == StateDtype::Fp16 ||
               (d == StateDtype::Fp8 && s.framework == Framework::Megatron);
    };
    use(Knob::LowBitOptimizerStates, training && (lowBit(o.expAvg) || lowBit(o.expAvgSq)));
    use(Knob::PrecisionAwareOptimizer,
        training && ((o.masterWeights != MasterDtype::Auto && o.masterWeights != MasterDtype::Fp32) ||
                     o.gradients == GradientDtype::Bf16 ||
                     ((sixteenBit(o.expAvg) || sixteenBit(o.expAvgSq)) &&
                      t.precision != Precision::Bf16)));
    int n = 0;
    for (int k = 0; k < knobCount; ++k)
        if (uses[k] && !frameworkHas(s.framework, static_cast<Knob>(k)))
            out[n++] = static_cast<Knob>(k);
    return n;
}

} // namespace vramplan
