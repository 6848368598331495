// The guide's first part: what one training step holds on a GPU, and why each part exists.

#include "help/guidesections.h"

#include <QCoreApplication>

namespace vramplan::ui {
namespace {

struct Words
{
    Q_DECLARE_TR_FUNCTIONS(vramplan::ui::Guide)
};

} // namespace

std::vector<GuideSection> memorySections()
{
    return {
        {QStringLiteral("overview"), Words::tr("Where the memory goes"),
         Words::tr(
             "<p>One training step runs the model forward over a micro-batch, computes the loss, "
             "runs backward to get a gradient for every trainable weight, and lets the optimizer "
             "update the weights. Each of these needs tensors on the GPU, and vramplan counts "
             "them in seven components (an inference server adds an eighth, the KV cache):</p>"
             "<ul><li><b>Parameters</b>, <b>gradients</b> and <b>optimizer states</b>: the "
             "<i>model states</i>. They grow with the number of parameters and do not depend on "
             "the batch.</li>"
             "<li><b>Activations</b> and <b>logits and loss</b>: what the forward pass keeps for "
             "backward. They grow with micro-batch &times; sequence length, and do not depend on "
             "the optimizer.</li>"
             "<li><b>Temporary</b> buffers and <b>framework</b> overhead: the working space of "
             "kernels, communication and the optimizer step, the CUDA context, and what the "
             "caching allocator keeps in reserve.</li></ul>"
             "<p>They are not all alive at once. Gradients appear during backward while "
             "activations are being freed; the optimizer step needs its own scratch space after "
             "the activations are gone. vramplan follows each item through the phases of a step "
             "(the timeline chart) and reports the <b>peak</b>, the phase where the sum is "
             "largest: usually the start of backward, when every saved activation and the "
             "loss's gradient are held at the same time.</p>")},
        {QStringLiteral("parameters"), Words::tr("Parameters"),
         Words::tr(
             "<p>The weights are the model: every matrix of every layer, the token embedding, "
             "the norms and the output head. Forward multiplies the activations by them and "
             "backward needs them again for the gradients of the inputs, so they stay on the "
             "GPU for the whole step unless ZeRO-3/FSDP shards them or they are offloaded.</p>"
             "<p>Bytes = elements &times; bytes per element: 4 in fp32, 2 in bf16 or fp16, 1 "
             "in int8, about half a byte in 4-bit NF4. vramplan counts the elements tensor by "
             "tensor from the model's config, so grouped-query attention, tied embeddings, "
             "mixture-of-experts layers and vision towers count as they are; the count is shown "
             "under the Model group. Under mixed precision the fp32 copy the optimizer updates "
             "is counted with the optimizer states (master weights), as in the ZeRO paper.</p>")},
        {QStringLiteral("gradients"), Words::tr("Gradients"),
         Words::tr(
             "<p>Backward computes, for every trainable weight, how the loss changes with it: "
             "one gradient element per weight element. The optimizer needs all of them at once, "
             "so they live from the moment backward produces them until the optimizer step has "
             "used them (PyTorch frees them with <tt>zero_grad(set_to_none=True)</tt>). With "
             "gradient accumulation they are kept across micro-batches and summed into.</p>"
             "<p>A frozen weight has no gradient: under LoRA only the adapters get one. Their "
             "dtype follows the recipe: the weights' 16-bit dtype in DeepSpeed and plain "
             "PyTorch mixed precision, fp32 under autocast (amp_*) and in Megatron's "
             "<tt>main_grad</tt> buffer. Because they are made during backward, gradients may "
             "be absent from the peak when it falls at the start of backward; the \"How this is "
             "computed\" view shows such items in grey.</p>")},
        {QStringLiteral("optimizer"), Words::tr("Optimizer states"),
         Words::tr(
             "<p>Plain SGD needs nothing beyond the gradient. Adam and AdamW keep two running "
             "averages per weight: the first moment (the momentum) and the second moment (the "
             "squared gradient that scales each step), normally in fp32: 8 bytes per trainable "
             "parameter. SGD with momentum, Lion and Muon keep one; Adafactor keeps row and "
             "column statistics; bitsandbytes' 8-bit optimizers store each moment in one byte "
             "plus a scale per block; paged optimizers keep their states in unified memory that "
             "the driver can move to the host.</p>"
             "<p>Mixed precision adds the <b>master weights</b>: the optimizer updates an fp32 "
             "copy of every trainable weight (a bf16 weight cannot take an update much smaller "
             "than itself; Micikevicius et al. 2018) and writes a 16-bit copy back for the next "
             "forward. That is how AdamW under bf16 mixed comes to 4 + 8 = 12 bytes per "
             "parameter of optimizer states, on top of 2 for the weights and 2 for the "
             "gradients.</p>")},
        {QStringLiteral("activations"), Words::tr("Activations"),
         Words::tr(
             "<p>To compute the gradients, backward needs the inputs of every operation of the "
             "forward pass: a linear layer's weight gradient is its input transposed times the "
             "gradient of its output. Autograd therefore keeps (\"saves\") those tensors from "
             "forward until backward reaches the layer. They are the activations, and they are "
             "what grows when you raise the micro-batch or the sequence length: each saved "
             "tensor is b &times; s &times; (a hidden width) elements per layer.</p>"
             "<p>vramplan lists them tensor by tensor for each layer kind (norm inputs, query, "
             "key and value, the attention output, the MLP's projections), in the dtype the "
             "kernels keep them, following Korthikanti et al. 2022 and the modelling code of "
             "each framework. Attention's s &times; s scores are saved only by eager attention; "
             "FlashAttention and SDPA keep a small per-row statistic instead.</p>")},
        {QStringLiteral("logits"), Words::tr("Logits and loss"),
         Words::tr(
             "<p>The output head turns every token's hidden state into a score for every word "
             "of the vocabulary: b &times; s &times; V logits. With a vocabulary of 128,000 "
             "and 8,000 tokens that is a billion numbers, often upcast to fp32 for the "
             "cross-entropy, and its gradient (the softmax minus the one-hot target) is as large "
             "again. For small models at long sequences this term can pass the whole "
             "model.</p><p>Chunked losses and fused linear-cross-entropy kernels (Liger, "
             "torchtune's chunked output, Apple's Cut Cross-Entropy) never hold all the logits "
             "at once; the scenario's loss setting chooses which the estimate follows.</p>")},
        {QStringLiteral("temporary"), Words::tr("Temporary buffers"),
         Words::tr(
             "<p>Working space that exists for part of a step: a layer's weights gathered from "
             "their shards under ZeRO-3/FSDP, the buckets DDP and DeepSpeed use to reduce "
             "gradients, the 16-bit copies of fp32 weights made for compute, the optimizer "
             "step's per-tensor scratch (PyTorch's foreach implementation works on a list of "
             "tensors at once), the recomputed forward of one layer. Each item says in which "
             "phases it lives; the largest of them often decides the peak after the activations "
             "are gone.</p>")},
        {QStringLiteral("framework"), Words::tr("Framework overhead and the three measures"),
         Words::tr(
             "<p>Three numbers are reported, because three are measured:</p><ul>"
             "<li><b>allocated</b>: the tensors themselves, "
             "<tt>torch.cuda.max_memory_allocated()</tt>;</li>"
             "<li><b>reserved</b>: what PyTorch's caching allocator holds from the driver, "
             "<tt>torch.cuda.max_memory_reserved()</tt>. Freed blocks stay cached for reuse, so "
             "reserved exceeds allocated by the fragmentation of transient tensors;</li>"
             "<li><b>device</b>: what <tt>nvidia-smi</tt> shows and what must fit: reserved plus "
             "the CUDA context and kernel images (about 0.5 GiB on recent GPUs), NCCL's "
             "communication buffers in a multi-GPU job, and memory outside the allocator.</li>"
             "</ul><p>The framework component holds the difference between allocated and "
             "device. A run that reports 70 GiB allocated can fail on an 80 GB card.</p>")},
    };
}

} // namespace vramplan::ui
