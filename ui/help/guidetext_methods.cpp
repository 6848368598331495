// The guide's second part: what the techniques of the controls change, serving, and the window.

#include "help/guidesections.h"

#include <QCoreApplication>

namespace vramplan::ui {
namespace {

struct Words
{
    Q_DECLARE_TR_FUNCTIONS(vramplan::ui::Guide)
};

} // namespace

std::vector<GuideSection> techniqueSections()
{
    return {
        {QStringLiteral("precision"), Words::tr("Mixed precision"),
         Words::tr(
             "<p>Tensor cores run bf16 and fp16 far faster than fp32, and 16-bit activations "
             "take half the memory; but small updates vanish in 16 bits. Mixed precision keeps "
             "both: compute and activations in 16 bits, the optimizer's copy of the weights and "
             "its moments in fp32.</p><ul>"
             "<li><b>bf16 mixed / fp16 mixed</b> (16-bit weights with an fp32 master copy, as "
             "DeepSpeed and Megatron keep them): 2 (weights) + 2 (gradients) + 4 (master) + 8 "
             "(Adam) = 16 bytes per parameter; fp16 adds loss scaling, no memory.</li>"
             "<li><b>amp_bf16 / amp_fp16</b> (<tt>torch.autocast</tt> over fp32 weights, the HF "
             "Trainer's <tt>bf16=True</tt> on an fp32 model): 4 + 4 + 8 = 16, no separate master; "
             "the 16-bit copies made for compute are temporaries.</li>"
             "<li><b>bf16</b> (pure, no master): 2 + 2 + the optimizer's states in bf16; least "
             "memory, less accurate updates.</li>"
             "<li><b>fp8 mixed</b> (Transformer Engine): fp8 compute and some fp8 activations, "
             "master weights as bf16 mixed.</li></ul>"
             "<p>So mixed precision does not save model-state memory against fp32 training; it "
             "saves activations and time.</p>")},
        {QStringLiteral("zero"), Words::tr("ZeRO and FSDP"),
         Words::tr(
             "<p>Plain data parallelism (DDP) gives every GPU a full copy of the model states. "
             "ZeRO (Rajbhandari et al. 2020) shards them over the N data-parallel GPUs instead, "
             "in stages:</p><ul>"
             "<li><b>Stage 1</b>: optimizer states (moments and master weights) / N;</li>"
             "<li><b>Stage 2</b>: gradients / N as well (each GPU reduces only its shard);</li>"
             "<li><b>Stage 3</b> (FSDP's FULL_SHARD): parameters / N as well; each layer is "
             "all-gathered just before its forward and backward and freed after, so one or two "
             "gathered layers appear as temporary buffers.</li></ul>"
             "<p>Activations are not sharded: each GPU still runs its own micro-batch. "
             "<b>Offload</b> moves optimizer states (and with stage 3 the parameters) to CPU "
             "memory or NVMe, trading GPU memory for PCIe traffic at every step.</p>")},
        {QStringLiteral("recompute"), Words::tr("Activation recomputation"),
         Words::tr(
             "<p>Also called gradient checkpointing. Instead of saving every activation of a "
             "layer, forward keeps only the layer's input and backward runs the layer's forward "
             "again when it gets there. <b>Full</b> recomputation keeps b &times; s &times; h "
             "per layer plus one layer's activations at a time, for about a third more compute. "
             "<b>Selective</b> recomputation (Korthikanti et al. 2022) recomputes only the "
             "cheap, large parts (attention's scores and softmax), which flash attention already "
             "avoids saving. Recomputation changes activations only; model states are "
             "untouched.</p>")},
        {QStringLiteral("lora"), Words::tr("LoRA and QLoRA"),
         Words::tr(
             "<p><b>LoRA</b> (Hu et al. 2021) freezes the base model and trains two small "
             "matrices per adapted weight, of rank r: r &times; (in + out) parameters instead of "
             "in &times; out. The frozen base needs no gradients and no optimizer states, so the "
             "model states shrink to the base's weights (2 bytes per parameter in bf16) plus the "
             "adapters with their gradients and states. Activations remain: backward still "
             "passes through every frozen layer, so their inputs are still saved.</p>"
             "<p><b>QLoRA</b> (Dettmers et al. 2023) stores the frozen linear weights in 4-bit "
             "NF4 with double-quantised scales (about 0.52 bytes per weight) and dequantises "
             "each to bf16 when it is used; norms and embeddings stay in 16 bits.</p>")},
        {QStringLiteral("parallelism"), Words::tr("Tensor, sequence, pipeline and other parallelism"),
         Words::tr(
             "<ul><li><b>Tensor parallelism</b> (TP, Megatron-LM) splits each layer's matrices "
             "over t GPUs: weights, gradients and states / t, and the activations inside "
             "attention and the MLP / t; the activations at the layer's boundaries stay whole "
             "on every GPU unless sequence parallelism is on.</li>"
             "<li><b>Sequence parallelism</b> (with TP) splits those boundary activations "
             "(norms, dropout) along the sequence: with it all activations are / t.</li>"
             "<li><b>Pipeline parallelism</b> (PP) gives each of p GPUs a contiguous stage of "
             "layers: model states / p; but the first stage holds the activations of up to p "
             "micro-batches in flight (1F1B schedule), and the last holds the output head and "
             "the loss. vramplan reports the stage with the larger peak.</li>"
             "<li><b>Context parallelism</b> splits the sequence of every layer over c GPUs "
             "(ring attention): activations / c.</li>"
             "<li><b>Expert parallelism</b> places a mixture-of-experts layer's experts on "
             "different GPUs: expert weights / e; routing imbalance makes some GPUs hold more "
             "tokens than the average.</li>"
             "<li><b>Data parallelism</b> is whatever is left of the GPUs: copies of the model "
             "that ZeRO/FSDP can shard.</li></ul>")},
    };
}

std::vector<GuideSection> windowSections()
{
    return {
        {QStringLiteral("serving"), Words::tr("Serving: KV cache and gpu_memory_utilization"),
         Words::tr(
             "<p>Inference keeps no gradients or optimizer states: the weights, the activations "
             "of one forward pass, and the <b>KV cache</b>. Each generated token attends to the "
             "keys and values of every token before it, so they are kept: 2 (K and V) &times; "
             "layers &times; KV heads &times; head dimension &times; bytes per element, for "
             "every token of every request in flight. Grouped-query attention, multi-head latent "
             "attention and an fp8 KV cache make it smaller.</p>"
             "<p>vLLM and SGLang do not grow the cache as requests come: at start-up they take "
             "<b>gpu_memory_utilization</b> &times; the GPU's memory (0.9 by default), subtract "
             "the weights, the activation peak they profile and their other buffers, and turn the rest into "
             "KV-cache blocks. The breakdown draws that budget line; the engine refuses to start "
             "when the cache cannot hold one request of <b>max_model_len</b> tokens. How many "
             "requests run at once is the cache's tokens / tokens per request, capped by "
             "<b>max_num_seqs</b>. Choose inference as the mode and an engine in the Serving "
             "group to plan a server.</p>")},
        {QStringLiteral("window"), Words::tr("Using the window"),
         Words::tr(
             "<ul><li><b>Controls</b> (left): the model (a preset, or File &gt; Import Hugging "
             "Face config.json), batch and sequence, precision and optimizer, memory savers, "
             "parallelism, the GPU.</li>"
             "<li><b>Breakdown</b>: memory per GPU at the peak against the GPU's capacity; hover "
             "a segment for its largest items and their formulas.</li>"
             "<li><b>Help &gt; How This Is Computed</b> (Ctrl+I): every item of the current "
             "estimate with its formula, this run's numbers and its source, grouped by "
             "component; it follows every change.</li>"
             "<li><b>Make it fit</b>: changes that would make the run fit, best first; hover one "
             "to preview it, click to apply it (Ctrl+Z undoes it).</li>"
             "<li><b>Curves and timeline</b>: memory against micro-batch, sequence length and "
             "GPU count, and through the phases of one training step.</li>"
             "<li><b>Compare</b>: scenarios side by side (Ctrl+D adds the current one).</li></ul>"
             "<p>How each term is computed and how close the estimates come to measured runs: "
             "docs/accuracy.md, docs/models.md, docs/serving.md and docs/training_stacks.md in "
             "vramplan's sources.</p>") +
             // Its own string, so that the list above keeps its translation.
             Words::tr(
                 "<p><b>File &gt; Open Measured Run...</b> reads what a real run recorded (a "
                 "PyTorch memory snapshot, the JSON of <tt>MemTracker</tt> or of "
                 "<tt>torch.cuda.memory_stats()</tt>, an nvidia-smi log; several files of one "
                 "run together) and shows it beside the "
                 "plan: the measured peaks and components against the estimate with each "
                 "difference in words, the rule that placed each component, and the measured "
                 "timeline over the planned step. A figure the files cannot give reads \"not "
                 "recorded\". <b>Calibrate from This Run</b> fits the scenario to the measured "
                 "peak, as Edit &gt; Calibrate from My Run does with a number you type.</p>")},
    };
}

} // namespace vramplan::ui
