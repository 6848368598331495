#!/usr/bin/python3
"""The per-layer inventory of saved tensors, as formulas, for the families built after
transformers v4.57 (qwen3, qwen3_moe, deepseek_v3, gpt_oss, gemma2, gemma3, olmo2).

Usage: /usr/bin/python3 tests/measure/inventory_v457.py [FIXTURES.json] [--terms]

saved_per_layer(spec) returns the bytes autograd saves inside one block, term by term
(breakdown(spec) lists the named terms), for the scenarios saved_tensors.py measures: every
precision (fp32, bf16, amp_bf16), attention (eager, sdpa, flash), full fine-tuning or LoRA,
without dropout in the model (LoRA dropout is covered). With a fixture file it compares the
formulas with every measured saved_per_layer of these families (sanity_checks.py does too);
--terms lists each fixture's terms.
README.md ("Per-layer inventories of the newer families") states the same terms in words; the
vramplan estimator's inventory is written from them.

Symbols: T = b*s tokens, h hidden, a heads, kv kv-heads, d head_dim, f ffn width; E experts,
k top-k, fe expert width, D = T*k dispatched tokens; c bytes of a linear's output (4 fp32, 2 bf16
and amp_bf16); R bytes of the residual stream and of the norms' outputs (4 fp32 and amp_bf16,
2 bf16).
"""

import json
import os
import sys


def _ceil32(x):
    return (x + 31) // 32 * 32


def breakdown(sp):
    """[(term, bytes)] for the middle block of the scenario sp (a saved_tensors.Spec)."""
    fam, P, attn = sp.family, sp.precision, sp.attention
    b, s, h, a, kv, d, f = sp.batch, sp.seq, sp.hidden, sp.heads, sp.kv_heads, sp.head_dim, sp.ffn
    T = b * s
    amp = P == "amp_bf16"
    R = 2 if P == "bf16" else 4
    c = 4 if P == "fp32" else 2
    bass = b * a * s * s
    mid = sp.layers // 2
    lora = sp.finetune == "lora"
    targets = set(sp.lora_targets) if lora else set()
    r, pdrop = sp.lora_rank, sp.lora_dropout
    terms = []

    def add(name, nbytes):
        if nbytes:
            terms.append((name, int(nbytes)))

    if sp.recompute == "full":
        add("block input (the only tensor a checkpointed block saves)", T * h * R)
        return terms

    def lora_bytes(names, w, rows=T):
        """LoRA targets among `names` (PEFT Linear, fp32 adapters) reading one input of width w.
        bf16 and fp32: each target saves the fp32 input (its own copy of a 16-bit input; in fp32
        without dropout the input itself, once for all targets) or, with lora_dropout, a bool mask
        and its dropped fp32 copy; then lora_A's [rows, r] fp32 output. amp_bf16: the mask,
        autocast's bf16 cast of the (dropped) input and lora_A's bf16 output."""
        hit = [n for n in names if n in targets]
        if not hit:
            return 0
        if amp:
            return len(hit) * ((rows * w if pdrop else 0) + rows * w * 2 + rows * r * 2)
        if P == "fp32" and not pdrop:
            return rows * w * 4 + len(hit) * rows * r * 4
        return len(hit) * ((rows * w * 5 if pdrop else rows * w * 4) + rows * r * 4)

    def linears(name, names, w, X):
        """The linears `names` read one tensor of width w and dtype bytes X. Full fine-tuning:
        the tensor once, or under autocast one bf16 cast per linear for an fp32 tensor. LoRA:
        the frozen base saves nothing; the targets add their adapters' tensors."""
        if lora:
            add(name + ": LoRA adapters", lora_bytes(names, w))
        elif amp and X == 4:
            add(name + f" (x{len(names)} bf16 autocast casts)", len(names) * T * w * 2)
        else:
            add(name, T * w * X)

    def norm(name, kind, w, X, rows=T):
        """RMSNorm over width w on `rows` rows of an input of dtype bytes X; returns the output's
        dtype bytes. Every kind saves its input in fp32 (a copy of a 16-bit input; an fp32 input
        itself) and rsqrt [rows, 1] fp32; the weight multiplication saves the normalised
        operand (not with a frozen weight): Llama-style in the input dtype, weight-first and
        Gemma in fp32; Gemma also saves (1 + weight) [w] fp32."""
        add(name + ": input in fp32", rows * w * 4)
        add(name + ": rsqrt", rows * 4)
        if kind == "llama":
            if not lora:
                add(name + ": normalised, input dtype", rows * w * X)
            return 4 if (amp and X == 2) else X
        if not lora:
            add(name + ": normalised fp32", rows * w * 4)
        if kind == "gemma":
            add(name + ": 1 + weight", w * 4)
        return X

    def mlp(name, width, y):
        linears(name + " input", ["gate_proj", "up_proj"], h, y)
        add(name + ": gate_proj output (act input), act output, up_proj output", 3 * T * width * c)
        linears(name + " down_proj input", ["down_proj"], width, c)

    # deepseek_v32 (DSA): the indexer runs under no_grad and eager attention adds its mask
    # without keeping it, so the block saves what DeepSeek-V3's MLA block saves.
    if fam in ("deepseek_v3", "deepseek_v32"):
        mla = sp.mla
        ql, kvl, rope, nope, v = (mla[k] for k in ("q_lora_rank", "kv_lora_rank", "qk_rope_head_dim",
                                                    "qk_nope_head_dim", "v_head_dim"))
        qk = nope + rope
        y1 = norm("input_layernorm", "llama", h, R)
        linears("input_layernorm output", ["q_a_proj" if ql else "q_proj", "kv_a_proj_with_mqa"], h, y1)
        if ql:
            yq = norm("q_a_layernorm", "llama", ql, c)
            linears("q_b_proj input", ["q_b_proj"], ql, yq)
        if P == "fp32":  # .to(float32) of the k_pass view returns the view: the whole compressed_kv
            add("kv_a_layernorm: input (compressed_kv, kv_lora_rank + rope wide)", T * (kvl + rope) * 4)
            add("kv_a_layernorm: rsqrt", T * 4)
            if not lora:
                add("kv_a_layernorm: normalised", T * kvl * 4)
            ykv = 4
        else:
            ykv = norm("kv_a_layernorm", "llama", kvl, c)
        linears("kv_b_proj input", ["kv_b_proj"], kvl, ykv)
        if attn == "eager":
            add("q, k (concatenated nope|rope, bf16 casts under amp)", 2 * T * a * qk * c)
            add("v: " + ("kv_b_proj output storage (b = 1: matmul views it)" if b == 1
                         else "copy by matmul's reshape"), T * a * (nope + v) * c if b == 1 else T * a * v * c)
            add("softmax fp32", bass * 4)
            if c == 2:
                add("probabilities in bf16", bass * 2)
            linears("o_proj input", ["o_proj"], a * v, c)
        elif attn == "sdpa" and qk == v and c == 2:  # equal head sizes: SDPA's flash kernel
            add("sdpa (flash kernel): q, k, v contiguous, output (= o_proj input)", 4 * T * a * qk * 2)
            add("sdpa: logsumexp fp32", b * a * s * 4)
            add("sdpa: RNG state", 16)
            if lora and "o_proj" in targets:
                add("o_proj LoRA on the kernel output", lora_bytes(["o_proj"], a * v))
        elif attn == "sdpa":  # the memory-efficient kernel: q/k and v head sizes differ (or fp32)
            add("sdpa (efficient): q, k", 2 * T * a * qk * c)
            add("sdpa (efficient): v contiguous, output (= o_proj input)", 2 * T * a * v * c)
            add("sdpa (efficient): logsumexp fp32, s padded to 32", b * a * _ceil32(s) * 4)
            add("sdpa: RNG state", 16)
            if lora and "o_proj" in targets:  # (fp32 without dropout: the saved output itself)
                add("o_proj LoRA on the kernel output",
                    lora_bytes(["o_proj"], a * v) - (T * a * v * 4 if P == "fp32" and not pdrop else 0))
        elif qk == v:  # no padding: v goes in as a view of kv_b_proj's output
            add("flash: q, k, output (= o_proj input)", 3 * T * a * qk * 2)
            add("flash: v (kv_b_proj output storage)", T * a * (nope + v) * 2)
            add("flash: softmax_lse fp32", b * a * s * 4)
            add("flash: rng_state", 16)
            if lora and "o_proj" in targets:
                add("o_proj LoRA on the kernel output", lora_bytes(["o_proj"], a * v))
        else:
            add("flash: q, k, v padded to qk_head_dim, output (qk_head_dim wide)", 4 * T * a * qk * 2)
            add("flash: softmax_lse fp32", b * a * s * 4)
            add("flash: rng_state", 16)
            linears("o_proj input (output cut to v_head_dim, a copy)", ["o_proj"], a * v, 2)
        y2 = norm("post_attention_layernorm", "llama", h, R)
        if not sp.layer_is_moe(mid):
            mlp("mlp", f, y2)
            return terms
        moe = sp.moe
        E, k, fe = moe["experts"], moe["top_k"], moe["ffn"]
        fs = moe["shared"] * moe["shared_ffn"]
        W = 2 if amp else 4      # router scores / top-k weights (bf16 under autocast)
        S = 2 if amp else 4      # the weighted expert output (promoted with the weights)
        D = T * k
        if not lora:
            if P == "bf16":
                add("router: fp32 copy of its input", T * h * 4)
            elif amp:
                add("router: bf16 autocast cast of its input", T * h * 2)
        add("router: sigmoid scores [T, E]", T * E * W)
        add("router: top-k indices int64 (gather)", T * k * 8)
        if moe["normalize_top_k"]:
            add("router: renormalisation denominator fp32", T * 4)
            add("router: top-k weights (in-place division)", T * k * W)
        add("experts: index tensors (torch.where, 2 x int64 per dispatch)", D * 16)
        add("experts: routing weight per dispatch", D * W)
        if lora:
            add("experts: LoRA adapters on gate/up", lora_bytes(["gate_proj", "up_proj"], h, rows=D))
            add("experts: LoRA adapters on down", lora_bytes(["down_proj"], fe, rows=D))
        else:
            add("experts: gathered input (bf16 casts for gate and up under amp)", D * (2 * h * 2 if amp else h * R))
            add("experts: down_proj input", D * fe * c)
        add("experts: gate_proj output, act output, up_proj output", D * 3 * fe * c)
        add("experts: expert output (x routing weight)", D * h * c)
        add("experts: index_add_ source (weighted output)", D * h * S)
        if fs:
            mlp("shared experts", fs, y2)
        elif P == "fp32" and not lora:
            add("post_attention_layernorm output (router input)", T * h * 4)
        return terms

    kind = {"qwen3": "llama", "qwen3_moe": "llama", "gpt_oss": "weight_first", "olmo2": "weight_first",
            "gemma2": "gemma", "gemma3": "gemma"}[fam]
    qkv = ["q_proj", "k_proj", "v_proj"]
    if fam == "olmo2":
        linears("block input (q, k, v read it: OLMo 2 has no pre-norm)", qkv, h, R)
    else:
        y1 = norm("input_layernorm", kind, h, R)
        linears("input_layernorm output", qkv, h, y1)
    if fam in ("qwen3", "qwen3_moe"):
        norm("q_norm (per head)", "llama", d, c, rows=T * a)
        norm("k_norm (per head)", "llama", d, c, rows=T * kv)
    elif fam == "gemma3":
        norm("q_norm (per head)", "gemma", d, c, rows=T * a)
        norm("k_norm (per head)", "gemma", d, c, rows=T * kv)
    elif fam == "olmo2":
        norm("q_norm (heads * head_dim wide)", "weight_first", a * d, c)
        norm("k_norm (kv_heads * head_dim wide)", "weight_first", kv * d, c)
    groups = a // kv
    math_path = False
    if attn == "eager":
        add("q, k repeated to every head (bf16 casts under amp)", 2 * T * a * d * c)
        add("v repeated to every head", T * a * d * c)
        if fam == "gpt_oss":
            add("sinks: max indices int64 [b, a, s, 1]", b * a * s * 8)
            if amp:
                add("softmax over s + 1 columns, fp32", b * a * s * (s + 1) * 4)
                add("probabilities (sink dropped) bf16 cast", bass * 2)
            else:
                add("softmax over s + 1 columns, compute dtype", b * a * s * (s + 1) * c)
        else:
            if fam == "gemma2" and sp.attention_softcap:
                add("tanh soft-capping result", bass * c)
            add("softmax fp32", bass * 4)
            if c == 2:
                add("probabilities in bf16", bass * 2)
        linears("o_proj input", ["o_proj"], a * d, c)
    elif attn == "sdpa":
        if c == 2:
            add("sdpa (flash kernel): q, output", 2 * T * a * d * 2)
            add("sdpa (flash kernel): k, v contiguous (grouped)", 2 * T * kv * d * 2)
            add("sdpa: logsumexp fp32", b * a * s * 4)
            add("sdpa: RNG state", 16)
        elif groups == 1:
            add("sdpa (efficient kernel): q, k, v contiguous, output", 4 * T * a * d * 4)
            add("sdpa: logsumexp fp32, s padded to 32", b * a * _ceil32(s) * 4)
            add("sdpa: RNG state", 16)
        else:
            math_path = True
            add("sdpa (math path): q * sqrt(scale), k expanded * sqrt(scale), v expanded",
                3 * T * a * d * 4)
            add("sdpa (math path): softmax fp32", bass * 4)
            linears("o_proj input (transpose(1, 2).contiguous() copy)", ["o_proj"], a * d, 4)
    else:
        add("flash: q, output", 2 * T * a * d * 2)
        add("flash: k, v (grouped)", 2 * T * kv * d * 2)
        add("flash: softmax_lse fp32", b * a * s * 4)
        add("flash: rng_state", 16)
    if attn != "eager" and not math_path and lora and "o_proj" in targets:
        add("o_proj LoRA on the kernel output",
            lora_bytes(["o_proj"], a * d) - (T * a * d * 4 if P == "fp32" and not pdrop else 0))
    if fam == "olmo2":
        norm("post_attention_layernorm", "weight_first", h, c)
        mlp("mlp", f, R)
        norm("post_feedforward_layernorm", "weight_first", h, c)
        return terms
    if fam in ("gemma2", "gemma3"):
        norm("post_attention_layernorm", "gemma", h, c)
        y2 = norm("pre_feedforward_layernorm", "gemma", h, R)
        mlp("mlp", f, y2)
        norm("post_feedforward_layernorm", "gemma", h, c)
        return terms
    y2 = norm("post_attention_layernorm", kind, h, R)
    if not sp.layer_is_moe(mid):
        mlp("mlp", f, y2)
        return terms
    moe = sp.moe
    E, k, fe = moe["experts"], moe["top_k"], moe["ffn"]
    D = T * k
    if fam == "qwen3_moe":
        linears("router gate input", ["gate"], h, y2)
        add("router: softmax fp32 [T, E]", T * E * 4)
        add("router: top-k indices int64", T * k * 8)
        if moe["normalize_top_k"]:
            add("router: renormalisation sum fp32", T * 4)
            add("router: top-k weights fp32 (in-place division)", T * k * 4)
        add("experts: index tensors (torch.where, 2 x int64 per dispatch)", D * 16)
        if lora:
            add("experts: LoRA adapters on gate/up", lora_bytes(["gate_proj", "up_proj"], h, rows=D))
            add("experts: LoRA adapters on down", lora_bytes(["down_proj"], fe, rows=D))
        else:
            add("experts: gathered input (bf16 casts for gate and up under amp)", D * (2 * h * 2 if amp else h * R))
            add("experts: down_proj input", D * fe * c)
        add("experts: gate_proj output, act output, up_proj output", D * 3 * fe * c)
        add("experts: expert output", D * h * c)
        add("experts: routing weight (residual dtype)", D * R)
        add("experts: index_add_ source (weighted output, residual dtype)", D * h * R)
        return terms
    # gpt_oss: 3-D expert parameters; under autocast the gate_up / down biases (fp32) promote
    G = 4 if amp else c
    linears("router input", ["router"], h, y2)
    add("router: top-k indices int64 (scatter)", T * k * 8)
    add("router: softmax over the top-k, compute dtype", T * k * c)
    add("experts: index tensors (torch.where, 2 x int64 per dispatch)", D * 16)
    if not lora:  # frozen expert weights: the matmuls save no input
        add("experts: gathered input (a bf16 cast under amp)", D * h * (2 if amp else R))
        add("experts: down input ((up + 1) * glu; a bf16 cast under amp)", D * fe * (2 if amp else c))
    add("experts: gate_up (clamp saves it, 2 * fe wide)", D * 2 * fe * G)
    add("experts: clamped gate, sigmoid, up + 1, glu", D * 4 * fe * G)
    add("experts: expert output (+ bias) and index_add_ source", D * 2 * h * G)
    add("experts: routing weight", D * c)
    return terms


def saved_per_layer(sp):
    return sum(n for _, n in breakdown(sp))


def check_fixtures(path, with_terms=False):
    """(id, measured, formula, terms) of every saved_per_layer fixture of these families."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import saved_tensors as st
    with open(path) as fh:
        entries = json.load(fh)
    out = []
    for e in entries:
        if e["measured"]["metric"] != "saved_per_layer" or e["scenario"]["model"]["family"] not in st.V457_FAMILIES:
            continue
        sp = st.Spec(e["scenario"])
        out.append((e["id"], e["measured"]["bytes"], saved_per_layer(sp), breakdown(sp) if with_terms else []))
    return out


def main(argv):
    terms = "--terms" in argv
    argv = [x for x in argv if x != "--terms"]
    path = argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data",
                                                      "measured", "cpu_saved_tensors.json")
    rows = check_fixtures(path, with_terms=terms)
    bad = 0
    for i, got, want, listing in rows:
        ok = got == want
        bad += not ok
        print(f"{'ok  ' if ok else 'DIFF'} {i}: measured {got}, formula {want}")
        for name, nbytes in listing:
            print(f"       {nbytes:>12d}  {name}")
    print(f"{len(rows)} fixtures, {bad} differ")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
