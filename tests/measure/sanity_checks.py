#!/usr/bin/python3
"""Checks of the measurement itself (seconds, tiny models): run before trusting a new grid.

Usage: /usr/bin/python3 tests/measure/sanity_checks.py [FIXTURES.json]

- saved_total is exactly the sum of its parts, and every block of a full fine-tune saves as much
  as the middle one: saved_total = L x saved_per_layer + shared + embedding/head/loss + held.
- a block under reentrant checkpointing saves only its input (plus what all blocks share).
- a frozen nn.Linear saves nothing for backward (torch 1.13 and 2.x); a trainable one its input.
- the dropout used here saves a 1-byte bool mask (as CUDA's fused kernel does).
- the same for the families built after transformers v4.57 (the MoE blocks: for any routing,
  and every MoE block dispatches b*s*top_k tokens).
- SDPA's math path and the emulated fused kernel compute attention (values and gradients).
- the hybrid mixers (hybrid_blocks.py) compute what they stand for: the chunked gated delta
  rule equals its recurrence, the Mamba2 scan does not depend on its chunk size.
- the fixture file, when given, has unique ids and three metrics per scenario, and the formulas
  of inventory_v457.py reproduce every saved_per_layer of the newer families.
"""

import json
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import inventory_v457  # noqa: E402
import saved_tensors as st  # noqa: E402


def tiny(family, **kw):
    m = {"family": family, "layers": 3, "hidden_size": 64, "attention_heads": 4,
         "kv_heads": kw.pop("kv", 4), "ffn_hidden_size": 256, "vocab_size": 1000}
    if family == "bert":
        m.update(pooler=False, head="lm")
    if family in ("gpt2", "bert"):
        m["max_positions"] = 512
    t = {"micro_batch_size": 2, "sequence_length": 48, "precision": kw.pop("prec", "fp32"),
         "optimizer": "adamw", "activation_recompute": kw.pop("rc", "none"),
         "attention": kw.pop("attn", "eager"), "dropout": kw.pop("drop", 0.0),
         "finetune": {"method": "full"}}
    assert not kw
    return {"format": "vramplan-scenario", "version": 1, "name": "sanity", "model": m, "training": t}


def tiny_v457(family, **kw):
    """A tiny model of a family built after transformers v4.57 (3 layers: the middle one is an
    MoE layer where the family has experts; DeepSeek-V3 with no dense layer, so that every block
    has the same inventory)."""
    m = {"family": family, "layers": 3, "hidden_size": 64, "attention_heads": 6, "kv_heads": 2,
         "head_dim": 12, "ffn_hidden_size": 112, "vocab_size": 1000}
    moe = {"experts": 9, "experts_per_token": 4, "expert_ffn_hidden_size": 36}
    if family == "qwen3_moe":
        m["moe"] = moe
    elif family == "deepseek_v3":
        m.update(kv_heads=6, mla={"q_lora_rank": 26, "kv_lora_rank": 34, "qk_rope_head_dim": 8,
                                  "qk_nope_head_dim": 10, "v_head_dim": 14},
                 moe=dict(moe, shared_experts=2, shared_expert_ffn_hidden_size=22, dense_layers=0))
    elif family == "gpt_oss":
        m.update(sliding_window=8, sliding_layers=2, moe=dict(moe, expert_ffn_hidden_size=112))
    elif family == "gemma2":
        m.update(sliding_window=64, sliding_layers=2, attention_softcap=50.0, final_softcap=30.0)
    elif family == "gemma3":
        m.update(sliding_window=64, sliding_layers=3)
    elif family == "olmo2":
        m.update(kv_heads=6)
    t = {"micro_batch_size": 2, "sequence_length": 40, "precision": kw.pop("prec", "fp32"),
         "optimizer": "adamw", "activation_recompute": kw.pop("rc", "none"),
         "attention": kw.pop("attn", "eager"), "dropout": kw.pop("drop", 0.0),
         "finetune": {"method": "full"}}
    assert not kw
    return {"format": "vramplan-scenario", "version": 1, "name": "sanity", "model": m, "training": t}


def saved_by(fn, *inputs):
    found = []
    with torch.autograd.graph.saved_tensors_hooks(lambda t: found.append(t) or t, lambda t: t):
        fn(*inputs)
    return found


def main(argv):
    failures = []

    def check(cond, msg):
        print(("ok   " if cond else "FAIL ") + msg)
        if not cond:
            failures.append(msg)

    for family, kw in [("llama", {"kv": 2}), ("gpt2", {"drop": 0.1}), ("bert", {}), ("phi", {"kv": 2}),
                       ("gpt_neox", {}), ("llama", {"kv": 2, "prec": "amp_bf16", "attn": "sdpa"}),
                       ("gpt2", {"prec": "bf16", "attn": "flash"})]:
        s = st.Spec(tiny(family, **kw))
        r = st.measure(s)
        d, t = r["per_layer_detail"], r["total_detail"]
        label = f"{family} {kw}"
        parts = sum(t["by_region_bytes"].values()) + sum(t["held_by_training_loop_bytes"].values())
        check(parts == r["saved_total"], f"{label}: saved_total equals the sum of its regions and held tensors")
        check(t["by_region_bytes"].get("layers") == s.layers * d["own_bytes"],
              f"{label}: the blocks' own bytes are {s.layers} x saved_per_layer")
        check(d["shared_with_other_blocks_bytes"] == t["by_region_bytes"].get("shared_by_layers", 0),
              f"{label}: what the middle block shares with others is the shared_by_layers region")

        rc = st.Spec(tiny(family, rc="full", **kw))
        rr = st.measure(rc)
        elem = 2 if rc.precision == "bf16" else 4  # the residual stream is fp32 under autocast
        hidden = rc.batch * rc.seq * rc.hidden * elem
        check(rr["saved_per_layer"] == hidden,
              f"{label}: a checkpointed block saves only its input ({rr['saved_per_layer']} == {hidden})")

    v457 = [("qwen3", {}), ("qwen3", {"prec": "bf16", "attn": "sdpa"}), ("qwen3_moe", {"prec": "amp_bf16"}),
            ("deepseek_v3", {"prec": "bf16", "attn": "flash"}), ("deepseek_v3", {"attn": "sdpa"}),
            ("gpt_oss", {"prec": "bf16"}), ("gemma2", {"prec": "bf16"}), ("gemma3", {"attn": "sdpa"}),
            ("olmo2", {"prec": "amp_bf16", "attn": "flash"})]
    for family, kw in v457:
        s = st.Spec(tiny_v457(family, **kw))
        r = st.measure(s)
        d, t = r["per_layer_detail"], r["total_detail"]
        label = f"{family} {kw}"
        parts = sum(t["by_region_bytes"].values()) + sum(t["held_by_training_loop_bytes"].values())
        check(parts == r["saved_total"], f"{label}: saved_total equals the sum of its regions and held tensors")
        check(t["by_region_bytes"].get("layers") == s.layers * d["own_bytes"],
              f"{label}: every block saves as much as the middle one (MoE: whatever the routing)")
        for call in t.get("moe_routing_by_layer", []):
            check(sum(call["tokens_per_expert"]) == s.batch * s.seq * call["top_k"],
                  f"{label}: {call['region']} dispatched b*s*top_k tokens")
        rc = st.Spec(tiny_v457(family, rc="full", **kw))
        rr = st.measure(rc)
        elem = 2 if rc.precision == "bf16" else 4
        hidden = rc.batch * rc.seq * rc.hidden * elem
        check(rr["saved_per_layer"] == hidden,
              f"{label}: a checkpointed block saves only its input ({rr['saved_per_layer']} == {hidden})")

    # The emulated kernels compute attention: SDPA's math path (fp32, grouped K/V) and the fused
    # kernel with grouped K/V agree with eager attention.
    torch.manual_seed(0)
    q = torch.randn(2, 6, 10, 8, requires_grad=True)
    k = torch.randn(2, 2, 10, 8, requires_grad=True)
    v = torch.randn(2, 2, 10, 8, requires_grad=True)
    causal = torch.full((10, 10), float("-inf")).triu(1)
    ref = torch.softmax(q @ st.repeat_kv(k, 3).transpose(-1, -2) * 8 ** -0.5 + causal, -1) @ st.repeat_kv(v, 3)
    math_out = st._sdpa_math_torch2(q, k, v, 0.0, 8 ** -0.5, True)
    fused = st.EmulatedFusedAttention.apply(q, k, v, True, 0.0, 8 ** -0.5, "bhsd", 1)
    check(torch.allclose(math_out, ref, atol=1e-5) and torch.allclose(fused, ref, atol=1e-5),
          "SDPA math path and the emulated fused kernel (grouped K/V) equal eager attention")
    g = torch.randn_like(ref)
    g_ref = torch.autograd.grad(ref, (q, k, v), g)
    g_fused = torch.autograd.grad(fused, (q, k, v), g)
    check(all(torch.allclose(a, b, atol=1e-4) for a, b in zip(g_ref, g_fused)),
          "the emulated fused kernel's backward equals autograd through eager attention")

    lin = torch.nn.Linear(8, 8)
    x = torch.randn(4, 8, requires_grad=True)
    trainable = saved_by(lin, x)
    check(any(t.data_ptr() == x.data_ptr() for t in trainable), "a trainable nn.Linear saves its input")
    lin.requires_grad_(False)
    frozen = saved_by(lin, x)
    check(all(isinstance(t, torch.nn.Parameter) or t.data_ptr() == lin.weight.data_ptr() for t in frozen)
          and not any(t.data_ptr() == x.data_ptr() for t in frozen),
          "a frozen nn.Linear saves no activation (only its weight, which is no activation)")

    masks = saved_by(lambda a: st.dropout(a, 0.1, True), x)
    check(len(masks) == 1 and masks[0].dtype == torch.bool, "dropout saves one bool mask")
    check(saved_by(lambda a: st.dropout(a, 0.0, True), x) == [], "dropout with p = 0 saves nothing")

    # The hybrid mixers compute what they stand for: the chunked gated delta rule equals the
    # token-by-token recurrence (with grouped heads and a padded last chunk), and the naive SSD
    # scan of Mamba2 does not depend on its chunk size.
    import hybrid_blocks as hb
    g = torch.Generator().manual_seed(0)
    b, s, hk, hv, kd, vd = 1, 70, 2, 4, 8, 8
    q = torch.randn(b, s, hk, kd, generator=g)
    k = torch.randn(b, s, hk, kd, generator=g)
    v = torch.randn(b, s, hv, vd, generator=g)
    decay = -torch.rand(b, s, hv, generator=g)
    beta = torch.rand(b, s, hv, generator=g)
    chunked = hb.torch_chunk_gated_delta_rule(q, k, v, decay, beta, chunk_size=16)
    qr, kr = (hb.l2norm(x.repeat_interleave(hv // hk, dim=2)) for x in (q, k))
    state = torch.zeros(b, hv, kd, vd)
    ref = torch.zeros(b, s, hv, vd)
    for i in range(s):
        state = state * decay[:, i].exp()[..., None, None]
        kv_mem = (state * kr[:, i, :, :, None]).sum(-2)
        delta = (v[:, i] - kv_mem) * beta[:, i, :, None]
        state = state + kr[:, i, :, :, None] * delta[:, :, None, :]
        ref[:, i] = (state * (qr[:, i] * kd ** -0.5)[..., None]).sum(-2)
    check(torch.allclose(chunked, ref, atol=1e-4),
          "hybrid_blocks: the chunked gated delta rule equals the recurrence "
          f"(max difference {float((chunked - ref).abs().max()):.1e})")

    class MambaSpec:
        hidden = 32
        mamba = {"heads": 4, "head_dim": 8, "state_size": 16, "groups": 2, "conv_kernel": 4,
                 "chunk_size": 8, "conv_bias": True, "proj_bias": False}
    torch.manual_seed(0)
    mixer = hb.NemotronHMamba2Mixer(MambaSpec())
    x = torch.randn(2, 37, 32, generator=g)
    small = mixer(x)
    mixer.chunk_size = 64
    check(torch.allclose(small, mixer(x), atol=1e-4),
          "hybrid_blocks: Mamba2's chunked scan gives the same output for chunks of 8 and 64")

    if len(argv) > 1:
        with open(argv[1]) as f:
            entries = json.load(f)
        ids = [e["id"] for e in entries]
        check(len(ids) == len(set(ids)), f"{argv[1]}: {len(ids)} fixture ids, all unique")
        check(ids == sorted(ids), f"{argv[1]}: sorted by id")
        step = [e for e in entries if not e["measured"]["metric"].startswith("vision_")]
        vision = [e for e in entries if e["measured"]["metric"].startswith("vision_")]
        check(len(step) % 3 == 0 and len(vision) % 2 == 0 and all(e["measured"]["bytes"] > 0 for e in entries),
              f"{argv[1]}: three positive metrics per scenario (two per vision_blocks.py point)")
        rows = inventory_v457.check_fixtures(argv[1])
        differ = [i for i, got, want, _ in rows if got != want]
        check(not differ, f"{argv[1]}: the formulas of inventory_v457.py give the measured saved_per_layer "
                          f"of all {len(rows)} newer-family fixtures" + (f" (not: {differ})" if differ else ""))
    print(f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
