#!/usr/bin/python3
"""Measure, on the CPU, what one training step of a Hugging Face-style model keeps in memory.

Usage: /usr/bin/python3 tests/measure/saved_tensors.py SCENARIO.json [--id ID] [--out FILE]

The script reads a vramplan scenario file, builds the model the way Hugging Face transformers
writes that family (v4.40-v4.45 for llama, mistral, qwen2, gpt2, bert, phi, gpt_neox; v4.57 for
qwen3, qwen3_moe, deepseek_v3, gpt_oss, gemma2, gemma3, olmo2), with random weights, and runs one
training step (forward, loss, backward, optimizer.step) with PyTorch on the CPU. It prints (or
writes) a JSON array of fixture entries in the format of shared/validation/measured.json, one per
metric:

- saved_per_layer: bytes of the tensors autograd saves for backward inside the middle transformer
  block (torch.autograd.graph.saved_tensors_hooks; each underlying storage counted once; storages
  of parameters and buffers are not activations and are left out; storages that other blocks save
  too, such as the rotary cos/sin tables or a causal mask handed to checkpointed blocks, are left
  out and reported under detail.shared_with_other_blocks_bytes).
- saved_total: unique storages saved anywhere in the forward pass and the loss, plus what the
  training loop itself holds when forward ends (the returned logits, the loss, the batch).
- model_states: parameters, their .grad and every tensor in optimizer.state after the step.

All model code below is written for this project. Each block says which transformers or PEFT
class it mirrors; the point is to reproduce which tensors exist and which ones autograd saves, op
by op, not the numerics.

What the CPU build of PyTorch 1.13 cannot do is emulated so that the saved tensors are those of a
CUDA run with PyTorch 2.x:
- Attention kernels ("sdpa", "flash"): torch 1.13 has no scaled_dot_product_attention. A custom
  autograd Function saves what torch 2.x's _scaled_dot_product_flash_attention (or
  _efficient_attention, or flash_attn's FlashAttnFunc) node saves: query, key, value, the output
  and an fp32 logsumexp of shape [batch, heads, seq], plus the RNG state, and recomputes the
  attention in backward.
- Dropout: on the CPU, torch 1.13's dropout multiplies by a mask of the input's dtype; CUDA uses
  the fused native_dropout kernel, which keeps a 1-byte bool mask. Every dropout here calls
  torch.native_dropout, which keeps the bool mask on the CPU too.
- Autocast ("amp_bf16"): CPU autocast in 1.13 has different op lists from CUDA autocast (it keeps
  softmax, log_softmax, layer_norm, pow and rsqrt in bf16). A TorchFunctionMode applies CUDA
  autocast's policy instead (lower-precision, fp32 and fp32-unless-dtype-given lists; fp32 leaf
  weights that need grad are cast once and cached, everything else is cast on every use).
- LayerNorm statistics: the CPU kernel keeps mean/rstd of a bf16 input in bf16, CUDA in fp32;
  those two [batch, seq] tensors are counted at 4 bytes per element.
"""

import argparse
import contextlib
import datetime
import functools
import json
import math
import os
import platform
import re
import subprocess
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.utils.checkpoint
from torch.overrides import TorchFunctionMode

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hybrid_blocks  # noqa: E402

SCRIPT_PATH = "tests/measure/saved_tensors.py"
REPO_ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

# Families whose code follows transformers v4.40-v4.45 (see "Choices that follow a particular
# transformers version" in README.md) ...
V445_FAMILIES = ("llama", "mistral", "qwen2", "gpt2", "bert", "phi", "gpt_neox")
# ... and families that exist only in transformers >= 4.47, built after v4.57 (attention
# interface, masking_utils, loss_function, GradientCheckpointingLayer).
V457_FAMILIES = ("qwen3", "qwen3_moe", "deepseek_v3", "gpt_oss", "gemma2", "gemma3", "olmo2",
                 "deepseek_v32")
# ... and the hybrid mixers of 2025-2026 (hybrid_blocks.py: transformers' torch fallbacks).
SUPPORTED_FAMILIES = V445_FAMILIES + V457_FAMILIES + hybrid_blocks.HYBRID_FAMILIES
SUPPORTED_PRECISIONS = ("fp32", "bf16", "amp_bf16")
SUPPORTED_OPTIMIZERS = ("sgd", "sgd_momentum", "adam", "adamw")


class ScenarioError(Exception):
    """A scenario this script cannot realise faithfully on the CPU."""


# --------------------------------------------------------------------------------------------
# Scenario resolution: explicit model fields, or "preset" (resources/models/NAME.json, a Hugging
# Face config.json), with the defaults the vramplan parser applies (core/formats/scenario_model_reader.cpp,
# applyFamilyDefaults).
# --------------------------------------------------------------------------------------------

def _fields_from_hf_config(cfg):
    """Map the architecture keys of a Hugging Face config.json to scenario model fields."""
    mt = cfg.get("model_type", "")
    out = {}
    if mt in ("llama", "mistral", "qwen2"):
        out = {
            "family": mt,
            "layers": cfg["num_hidden_layers"],
            "hidden_size": cfg["hidden_size"],
            "attention_heads": cfg["num_attention_heads"],
            "kv_heads": cfg.get("num_key_value_heads") or cfg["num_attention_heads"],
            "ffn_hidden_size": cfg["intermediate_size"],
            "vocab_size": cfg["vocab_size"],
            "tied_embeddings": bool(cfg.get("tie_word_embeddings", False)),
            "max_positions": cfg.get("max_position_embeddings", 4096),
        }
        if cfg.get("head_dim"):
            out["head_dim"] = cfg["head_dim"]
    elif mt == "gpt2":
        h = cfg["n_embd"]
        out = {
            "family": "gpt2",
            "layers": cfg["n_layer"],
            "hidden_size": h,
            "attention_heads": cfg["n_head"],
            "kv_heads": cfg["n_head"],
            "ffn_hidden_size": cfg.get("n_inner") or 4 * h,
            "vocab_size": cfg["vocab_size"],
            "tied_embeddings": bool(cfg.get("tie_word_embeddings", True)),
            "max_positions": cfg.get("n_positions", 1024),
        }
    elif mt == "bert":
        out = {
            "family": "bert",
            "layers": cfg["num_hidden_layers"],
            "hidden_size": cfg["hidden_size"],
            "attention_heads": cfg["num_attention_heads"],
            "kv_heads": cfg["num_attention_heads"],
            "ffn_hidden_size": cfg["intermediate_size"],
            "vocab_size": cfg["vocab_size"],
            "max_positions": cfg.get("max_position_embeddings", 512),
            "token_types": cfg.get("type_vocab_size", 2),
        }
    elif mt in ("phi", "gpt_neox"):
        out = {
            "family": mt,
            "layers": cfg["num_hidden_layers"],
            "hidden_size": cfg["hidden_size"],
            "attention_heads": cfg["num_attention_heads"],
            "kv_heads": cfg.get("num_key_value_heads") or cfg["num_attention_heads"],
            "ffn_hidden_size": cfg["intermediate_size"],
            "vocab_size": cfg["vocab_size"],
            "tied_embeddings": bool(cfg.get("tie_word_embeddings", False)),
            "max_positions": cfg.get("max_position_embeddings", 2048),
        }
    else:
        raise ScenarioError(f"model.preset: model_type '{mt}' is not supported by this script")
    return out


def _v457_family_defaults(fam, m):
    """applyFamilyDefaults for the families of transformers >= 4.47 (fields the file leaves out).
    Called after the generic defaults; the newer fields exist only for these families here."""
    gemma = fam in ("gemma2", "gemma3")
    if gemma:
        m["ffn_type"] = m.get("_given_ffn_type", "geglu")
        m["hidden_act"] = m.get("_given_hidden_act", "gelu")
        m["tied_embeddings"] = m.get("_given_tied_embeddings", True)
        m["norms_per_layer"] = m.get("_given_norms_per_layer", 4)
    if fam == "gpt_oss":
        m["qkv_bias"] = m.get("_given_qkv_bias", True)
    for k in [k for k in m if k.startswith("_given_")]:
        del m[k]
    m.setdefault("o_bias", fam == "gpt_oss")
    m.setdefault("qk_norm", {"qwen3": "head", "qwen3_moe": "head", "gemma3": "head",
                             "olmo2": "full"}.get(fam, "none"))
    m.setdefault("sliding_window", 0)
    m.setdefault("sliding_layers", 0)
    m.setdefault("attention_softcap", 0)
    m.setdefault("final_softcap", 0)
    m.setdefault("attention_sinks", fam == "gpt_oss")
    if isinstance(m.get("moe"), dict):
        moe = m["moe"]
        moe.setdefault("router", "sigmoid" if fam.startswith("deepseek_v3") else "softmax")
        moe.setdefault("score_correction_bias", fam.startswith("deepseek_v3"))
        moe.setdefault("router_bias", fam == "gpt_oss")
        moe.setdefault("expert_bias", fam == "gpt_oss")
        moe.setdefault("shared_experts", 0)
        moe.setdefault("shared_expert_ffn_hidden_size", 0)
        moe.setdefault("dense_layers", 0)
        moe.setdefault("layer_step", 1)
        moe.setdefault("normalize_top_k", fam != "gpt_oss")


def _family_defaults(m):
    """The defaults of core/formats/scenario_model_reader.cpp applyFamilyDefaults, for fields the file leaves out."""
    fam = m.get("family", "llama")
    if fam in V457_FAMILIES:
        # The generic defaults below are those of the older families; remember what the file
        # gave, so that _v457_family_defaults can apply the newer families' own defaults.
        for k in ("ffn_type", "hidden_act", "tied_embeddings", "norms_per_layer", "qkv_bias"):
            if k in m:
                m["_given_" + k] = m[k]
    gelu = fam in ("gpt2", "bert", "phi", "gpt_neox", "falcon")
    m.setdefault("ffn_type", "gelu" if gelu else ("geglu" if fam == "gemma" else "swiglu"))
    m.setdefault("hidden_act", "gelu_tanh_python" if fam in ("gpt2", "phi")
                 else ("gelu" if gelu or fam == "gemma" else "silu"))
    m.setdefault("norm", "layernorm" if gelu else "rmsnorm")
    m.setdefault("bias", fam in ("gpt2", "bert", "phi", "gpt_neox"))
    m.setdefault("qkv_bias", fam == "qwen2")
    m.setdefault("lm_head_bias", fam == "phi")
    m.setdefault("tied_embeddings", fam in ("gpt2", "bert", "gemma", "falcon"))
    m.setdefault("positions", "learned" if fam in ("gpt2", "bert") else "rope")
    m.setdefault("parallel_block", fam in ("phi", "gpt_neox", "falcon"))
    m.setdefault("norms_per_layer", 1 if fam in ("phi", "falcon") else 2)
    m.setdefault("token_types", 2 if fam == "bert" else 0)
    m.setdefault("pooler", fam == "bert")
    m.setdefault("max_positions", 512 if fam == "bert" else 4096)
    m.setdefault("head", "lm")
    m.setdefault("classifier_labels", 2)
    if fam in V457_FAMILIES:
        _v457_family_defaults(fam, m)
    if "ffn_hidden_size" not in m and "hidden_size" in m:
        h = m["hidden_size"]
        m["ffn_hidden_size"] = 4 * h if m["ffn_type"] == "gelu" else ((8 * h // 3 + 255) // 256) * 256
    return m


def resolve_model(model):
    merged = {}
    if model.get("preset"):
        path = os.path.join(REPO_ROOT, "resources", "models", model["preset"] + ".json")
        if not os.path.exists(path):
            raise ScenarioError(f"model.preset: no file {path}")
        with open(path) as f:
            merged.update(_fields_from_hf_config(json.load(f)))
    if model.get("hf_config"):
        merged = _fields_from_hf_config(model["hf_config"])
    for k, v in model.items():
        if k not in ("preset", "hf_config"):
            merged[k] = v
    m = _family_defaults(merged)
    m.setdefault("kv_heads", m["attention_heads"])
    if "head_dim" not in m:
        if m["hidden_size"] % m["attention_heads"]:
            raise ScenarioError("model.hidden_size: not divisible by attention_heads")
        m["head_dim"] = m["hidden_size"] // m["attention_heads"]
    if m.get("moe") and m["moe"].get("experts", 0) > 0 and m["family"] not in V457_FAMILIES:
        raise ScenarioError("model.moe: mixture-of-experts models are not built by this script "
                            "for family " + str(m["family"]))
    return m


def resolve_training(t):
    t = dict(t or {})
    t.setdefault("mode", "train")
    t.setdefault("micro_batch_size", 1)
    t.setdefault("sequence_length", 2048)
    t.setdefault("precision", "bf16_mixed")
    t.setdefault("optimizer", "adamw")
    t.setdefault("activation_recompute", "none")
    t.setdefault("attention", "flash")
    t.setdefault("dropout", 0.0)
    ft = dict(t.get("finetune") or {})
    ft.setdefault("method", "full")
    ft.setdefault("lora_rank", 16)
    ft.setdefault("lora_targets", ["q_proj", "v_proj"])
    ft.setdefault("lora_dropout", 0.05)
    t["finetune"] = ft
    return t


class Spec:
    """Everything the builders need, resolved from one scenario."""

    def __init__(self, scenario):
        self.scenario = scenario
        m = resolve_model(scenario.get("model") or {})
        t = resolve_training(scenario.get("training"))
        p = scenario.get("parallelism") or {}
        self.model_fields = m
        self.training_fields = t
        self.family = m["family"]
        if self.family not in SUPPORTED_FAMILIES:
            raise ScenarioError(f"model.family: '{self.family}' is not built by this script")
        self.layers = int(m["layers"])
        self.hidden = int(m["hidden_size"])
        self.heads = int(m["attention_heads"])
        self.kv_heads = int(m["kv_heads"])
        self.head_dim = int(m["head_dim"])
        self.ffn = int(m["ffn_hidden_size"])
        self.vocab = int(m["vocab_size"])
        self.tied = bool(m["tied_embeddings"])
        self.bias = bool(m["bias"])
        self.qkv_bias = bool(m["qkv_bias"])
        self.lm_head_bias = bool(m["lm_head_bias"])
        self.max_positions = int(m["max_positions"])
        self.token_types = int(m["token_types"])
        self.pooler = bool(m["pooler"])
        self.head = m["head"]
        self.classifier_labels = int(m["classifier_labels"])
        self.batch = int(t["micro_batch_size"])
        self.seq = int(t["sequence_length"])
        self.precision = t["precision"]
        self.optimizer = t["optimizer"]
        self.recompute = t["activation_recompute"]
        self.attention = t["attention"]
        self.dropout = float(t["dropout"])
        ft = t["finetune"]
        self.finetune = ft["method"]
        self.lora_rank = int(ft["lora_rank"])
        self.lora_targets = list(ft["lora_targets"])
        self.lora_dropout = float(ft["lora_dropout"])
        self.v457 = self.family in V457_FAMILIES
        self.hybrid = self.family in hybrid_blocks.HYBRID_FAMILIES
        if self.v457:
            self._read_v457_fields(m)
        if self.hybrid:
            try:
                hybrid_blocks.read_fields(self, m)
            except hybrid_blocks.HybridScenarioError as e:
                raise ScenarioError(str(e)) from None
        self._check(m, t, p)
        if self.v457:
            self._check_v457(m)

    def _read_v457_fields(self, m):
        self.o_bias = bool(m["o_bias"])
        self.qk_norm = m["qk_norm"]
        self.sliding_window = int(m["sliding_window"] or 0)
        self.sliding_layers = int(m["sliding_layers"] or 0)
        self.attention_softcap = float(m["attention_softcap"] or 0)
        self.final_softcap = float(m["final_softcap"] or 0)
        self.attention_sinks = bool(m["attention_sinks"])
        self.hidden_act = m["hidden_act"]
        self.norms_per_layer = int(m["norms_per_layer"])
        mla = m.get("mla") or None
        self.mla = None
        if mla and int(mla.get("kv_lora_rank", 0)) > 0:
            self.mla = {k: int(mla.get(k, 0) or 0) for k in
                        ("q_lora_rank", "kv_lora_rank", "qk_rope_head_dim", "qk_nope_head_dim", "v_head_dim")}
            self.mla["qk_head_dim"] = self.mla["qk_nope_head_dim"] + self.mla["qk_rope_head_dim"]
        ix = m.get("indexer") or None
        self.indexer = None
        if ix and int(ix.get("heads", 0)) > 0:
            self.indexer = {k: int(ix[k]) for k in ("heads", "head_dim", "top_k")}
        moe = m.get("moe") or None
        self.moe = None
        if moe and int(moe.get("experts", 0)) > 0:
            self.moe = {
                "experts": int(moe["experts"]),
                "top_k": int(moe.get("experts_per_token") or min(2, int(moe["experts"]))),
                "ffn": int(moe["expert_ffn_hidden_size"]),
                "shared": int(moe.get("shared_experts", 0) or 0),
                "shared_ffn": int(moe.get("shared_expert_ffn_hidden_size", 0) or 0),
                "dense_layers": int(moe.get("dense_layers", 0) or 0),
                "layer_step": int(moe.get("layer_step", 1) or 1),
                "router_bias": bool(moe["router_bias"]),
                "expert_bias": bool(moe["expert_bias"]),
                "score_correction_bias": bool(moe["score_correction_bias"]),
                "normalize_top_k": bool(moe["normalize_top_k"]),
                "router": moe["router"],
            }

    def layer_is_sliding(self, i):
        """Which layers are sliding-window layers, as each family's config builds layer_types
        (transformers v4.57): Gemma 2 and gpt-oss alternate, starting with a sliding layer;
        Gemma 3 has every sixth layer global (sliding_window_pattern 6)."""
        if self.sliding_window <= 0:
            return False
        if self.family in ("gemma2", "gpt_oss"):
            return i % 2 == 0
        if self.family == "gemma3":
            return (i + 1) % 6 != 0
        return False

    def layer_is_moe(self, i):
        """Qwen3MoeDecoderLayer: not in mlp_only_layers (here: the first dense_layers) and
        (i + 1) % decoder_sparse_step == 0; DeepseekV3DecoderLayer: i >= first_k_dense_replace;
        gpt-oss: every layer."""
        if self.moe is None:
            return False
        if self.family == "qwen3_moe":
            return i >= self.moe["dense_layers"] and (i + 1) % self.moe["layer_step"] == 0
        return i >= self.moe["dense_layers"]

    def _check_v457(self, m):
        fam = self.family

        def need(cond, field, msg):
            if not cond:
                raise ScenarioError(f"{field}: {msg}")
        need(not self.bias, "model.bias", f"{fam} has no bias on every linear (use qkv_bias / o_bias)")
        need(self.hidden_act == ("gelu" if fam in ("gemma2", "gemma3") else "silu"), "model.hidden_act",
             f"{fam} is built with " + ("gelu (gelu_pytorch_tanh)" if fam.startswith("gemma") else "silu"))
        need(self.norms_per_layer == (4 if fam in ("gemma2", "gemma3") else 2), "model.norms_per_layer",
             f"{fam} has {4 if fam.startswith('gemma') else 2} norms per layer")
        want_qk = {"qwen3": "head", "qwen3_moe": "head", "gemma3": "head", "olmo2": "full"}.get(fam, "none")
        need(self.qk_norm == want_qk, "model.qk_norm", f"{fam}'s code has qk_norm '{want_qk}'")
        need(self.attention_sinks == (fam == "gpt_oss"), "model.attention_sinks",
             "only gpt_oss has (and always has) attention sinks")
        need(self.attention_softcap == 0 or fam == "gemma2", "model.attention_softcap",
             "only Gemma 2 soft-caps attention logits (Gemma3Attention passes no softcap)")
        need(self.final_softcap == 0 or fam in ("gemma2", "gemma3"), "model.final_softcap",
             "only Gemma 2 / 3 soft-cap the final logits")
        need((self.mla is not None) == fam.startswith("deepseek_v3"), "model.mla",
             "deepseek_v3 and deepseek_v32 (and only they) have multi-head latent attention")
        if fam == "deepseek_v32":
            # DeepseekV32Attention (transformers main, modeling_deepseek_v32.py 01f8fa55): MLA with
            # the lightning indexer under no_grad; its top-k becomes the additive mask. Built
            # with dense MLPs here (the experts are DeepSeek-V3's, measured by deepseekv3-*).
            need(self.moe is None, "model.moe", "the DSA points are built with dense MLPs")
            need(self.indexer is not None, "model.indexer", "deepseek_v32 has the indexer")
            need(self.attention == "eager", "training.attention",
                 "DSA passes its top-k mask to attention: sdpa with an explicit mask (the "
                 "memory-efficient kernel keeps it) is not emulated; transformers has no "
                 "flash_attention_2 for deepseek_v32")
        else:
            need((self.moe is not None) == (fam in ("qwen3_moe", "deepseek_v3", "gpt_oss")), "model.moe",
                 f"{fam} " + ("needs" if fam in ("qwen3_moe", "deepseek_v3", "gpt_oss") else "has no") + " experts")
        if self.mla is not None:
            need(self.kv_heads == self.heads, "model.kv_heads", "with mla, kv_heads = attention_heads")
            need(self.mla["qk_rope_head_dim"] % 2 == 0 and self.mla["qk_rope_head_dim"] > 0,
                 "model.mla.qk_rope_head_dim", "must be even and positive")
        want_sliding = sum(1 for i in range(self.layers) if self.layer_is_sliding(i))
        if self.sliding_window > 0:
            need(fam in ("gemma2", "gemma3", "gpt_oss"), "model.sliding_window",
                 f"{fam} is built without sliding-window layers")
        need(self.sliding_layers == want_sliding, "model.sliding_layers",
             f"{fam}'s layer_types make {want_sliding} of {self.layers} layers sliding-window layers")
        if self.attention == "sdpa" and want_sliding and self.seq >= self.sliding_window:
            raise ScenarioError("training.sequence_length: a sliding-window layer with the sequence "
                                "at least as long as the window gets an explicit mask in sdpa "
                                "(memory-efficient kernel with an attn_bias); not emulated")
        if fam == "gpt_oss" and self.attention != "eager":
            raise ScenarioError("training.attention: transformers v4.57 has no sdpa for gpt_oss "
                                "(_supports_sdpa = False), and flash_attention_2 would drop the "
                                "sinks (they need the vllm-flash-attn3 hub kernel); only eager")
        moe = self.moe
        if moe is not None:
            need(moe["top_k"] <= moe["experts"], "model.moe.experts_per_token", "must not exceed experts")
            need(moe["router"] == ("sigmoid" if fam == "deepseek_v3" else "softmax"), "model.moe.router",
                 f"{fam}'s router is " + ("sigmoid" if fam == "deepseek_v3" else "softmax"))
            need(moe["score_correction_bias"] == (fam == "deepseek_v3"), "model.moe.score_correction_bias",
                 "only DeepSeek-V3's router has (and always has) e_score_correction_bias")
            need(moe["router_bias"] == (fam == "gpt_oss") and moe["expert_bias"] == (fam == "gpt_oss"),
                 "model.moe.router_bias", "only gpt-oss's router and experts have (and always have) biases")
            need(moe["shared"] == 0 or fam == "deepseek_v3", "model.moe.shared_experts",
                 f"{fam} has no shared experts")
            if fam == "deepseek_v3":
                need(moe["shared"] == 0 or moe["shared_ffn"] > 0, "model.moe.shared_expert_ffn_hidden_size",
                     "must be given with shared experts")
                need(moe["layer_step"] == 1, "model.moe.layer_step", "DeepSeek-V3 has every layer from "
                     "first_k_dense_replace on an MoE layer")
            if fam == "gpt_oss":
                need(moe["dense_layers"] == 0 and moe["layer_step"] == 1, "model.moe.dense_layers",
                     "every gpt-oss layer is an MoE layer")
                need(moe["ffn"] == self.ffn, "model.moe.expert_ffn_hidden_size",
                     "gpt-oss's experts are intermediate_size wide (= ffn_hidden_size)")
            need(self.layer_is_moe(self.layers // 2) or fam == "deepseek_v3", "model.moe",
                 "the middle layer (the one measured) should be an MoE layer")

    def _check(self, m, t, p):
        if t["mode"] != "train":
            raise ScenarioError("training.mode: only 'train' is measured")
        if self.precision not in SUPPORTED_PRECISIONS:
            raise ScenarioError(f"training.precision: '{self.precision}' cannot be realised "
                                f"faithfully with plain PyTorch on the CPU (supported: "
                                f"{', '.join(SUPPORTED_PRECISIONS)})")
        if self.optimizer not in SUPPORTED_OPTIMIZERS:
            raise ScenarioError(f"training.optimizer: '{self.optimizer}' is not a torch.optim "
                                f"optimizer in torch 1.13 (supported: {', '.join(SUPPORTED_OPTIMIZERS)})")
        if self.recompute not in ("none", "full"):
            raise ScenarioError("training.activation_recompute: only 'none' and 'full' "
                                "(transformers gradient_checkpointing) exist in transformers")
        if self.finetune not in ("full", "lora"):
            raise ScenarioError(f"training.finetune.method: '{self.finetune}' (QLoRA's 4-bit "
                                "bitsandbytes layers) cannot be emulated faithfully on the CPU")
        if self.attention == "flash" and self.precision == "fp32":
            raise ScenarioError("training.attention: flash_attention_2 needs 16-bit inputs; "
                                "transformers refuses fp32 without autocast")
        if self.attention == "flash" and self.family == "bert":
            raise ScenarioError("training.attention: transformers has no flash_attention_2 for BERT")
        if self.family == "bert" and self.finetune == "lora" and self.head == "classifier":
            raise ScenarioError("LoRA with a BERT classifier (PEFT modules_to_save) is not built")
        if self.family == "bert" and self.head == "lm" and self.pooler:
            raise ScenarioError("model.pooler: BertForMaskedLM has no pooler; set it false with head 'lm'")
        if self.family != "bert" and self.head != "lm":
            raise ScenarioError("model.head: only BERT gets a classifier head here")
        for key in ("gpus", "tensor_parallel", "pipeline_parallel", "context_parallel",
                    "expert_parallel"):
            if int(p.get(key, 1)) != 1:
                raise ScenarioError(f"parallelism.{key}: one process only")
        if int(p.get("zero_stage", 0)) != 0:
            raise ScenarioError("parallelism.zero_stage: one process only")
        expected = {
            "llama": ("swiglu", "rmsnorm"), "mistral": ("swiglu", "rmsnorm"),
            "qwen2": ("swiglu", "rmsnorm"), "gpt2": ("gelu", "layernorm"),
            "bert": ("gelu", "layernorm"), "phi": ("gelu", "layernorm"),
            "gpt_neox": ("gelu", "layernorm"),
            "qwen3": ("swiglu", "rmsnorm"), "qwen3_moe": ("swiglu", "rmsnorm"),
            "deepseek_v3": ("swiglu", "rmsnorm"), "gpt_oss": ("swiglu", "rmsnorm"),
            "deepseek_v32": ("swiglu", "rmsnorm"),
            "olmo2": ("swiglu", "rmsnorm"), "gemma2": ("geglu", "rmsnorm"),
            "gemma3": ("geglu", "rmsnorm"), "qwen3_5": ("swiglu", "rmsnorm"),
            "nemotron_h": ("gelu", "rmsnorm"),
        }[self.family]
        if (m["ffn_type"], m["norm"]) != expected:
            raise ScenarioError(f"model: family {self.family} is built with ffn_type "
                                f"{expected[0]} and norm {expected[1]}")
        if self.heads % self.kv_heads:
            raise ScenarioError("model.kv_heads: must divide attention_heads")
        if self.family in ("gpt2", "bert", "gpt_neox") and self.kv_heads != self.heads:
            raise ScenarioError(f"model.kv_heads: {self.family} has no grouped-query attention")
        if self.family in ("gpt2", "bert") and self.seq > self.max_positions:
            raise ScenarioError("training.sequence_length: longer than max_positions")

    @property
    def compute_dtype(self):
        return torch.bfloat16 if self.precision == "bf16" else torch.float32


# --------------------------------------------------------------------------------------------
# CUDA autocast, emulated. torch.autocast("cuda", dtype=torch.bfloat16) in PyTorch 2.x sorts ops
# into three lists (aten/src/ATen/autocast_mode.cpp); ops outside them run in their inputs' types.
# --------------------------------------------------------------------------------------------

_LOWER_PRECISION_OPS = {
    "linear", "matmul", "__matmul__", "__rmatmul__", "addmm", "mm", "bmm", "baddbmm", "addbmm",
    "addmv", "addr", "mv", "einsum", "chain_matmul", "conv1d", "conv2d", "conv3d", "prelu",
}
_FP32_OPS = {
    "acos", "asin", "cosh", "erfinv", "exp", "expm1", "log", "log10", "log2", "log1p",
    "reciprocal", "rsqrt", "sinh", "tan", "pow", "__pow__", "__rpow__", "softplus", "layer_norm",
    "group_norm", "norm", "cosine_similarity", "nll_loss", "cross_entropy", "kl_div", "l1_loss",
    "smooth_l1_loss", "huber_loss", "mse_loss", "binary_cross_entropy_with_logits", "dist",
    "pdist", "cdist", "renorm", "logsumexp",
}
# fp32 unless the call names an output dtype.
_FP32_SET_OPT_DTYPE_OPS = {"softmax", "log_softmax", "prod", "cumsum", "cumprod", "sum"}

_AMP = {"active": False, "suspended": 0, "weight_copy_ptrs": set(), "weight_copies": [], "cache": {}}


def _amp_on():
    return _AMP["active"] and _AMP["suspended"] == 0


@contextlib.contextmanager
def amp_suspended():
    """torch.autocast(device_type, enabled=False), as transformers uses around rotary tables."""
    _AMP["suspended"] += 1
    try:
        yield
    finally:
        _AMP["suspended"] -= 1


def _amp_cast(x, dtype):
    """autocast's cached_cast: a floating tensor of another type is cast; an fp32 leaf that needs
    grad (a trainable weight) is cast once per autocast region and cached."""
    if not isinstance(x, torch.Tensor) or not x.is_floating_point() or x.dtype == dtype:
        return x
    cacheable = (dtype == torch.bfloat16 and x.dtype == torch.float32 and x.requires_grad
                 and x.is_leaf and not x._is_view())
    if cacheable and id(x) in _AMP["cache"]:
        return _AMP["cache"][id(x)][1]
    y = x.to(dtype)
    if isinstance(x, nn.Parameter) or isinstance(x._base, nn.Parameter):
        # (a view of a parameter: gpt-oss indexes one expert of its 3-D expert weights)
        # Measurement bookkeeping: a 16-bit copy of a weight is not an activation. The copy is
        # kept referenced until the measurement ends, so that its address cannot be reused by an
        # activation (a frozen weight's copy that nothing saves would otherwise be freed at once).
        _AMP["weight_copy_ptrs"].add(y.storage().data_ptr())
        _AMP["weight_copies"].append(y)
    if cacheable:
        _AMP["cache"][id(x)] = (x, y)
    return y


def _map_tensors(obj, fn):
    if isinstance(obj, torch.Tensor):
        return fn(obj)
    if isinstance(obj, (list, tuple)):
        return type(obj)(_map_tensors(o, fn) for o in obj)
    return obj


class CudaAutocastEmulation(TorchFunctionMode):
    """The policy of torch.autocast("cuda", torch.bfloat16) in PyTorch 2.x, for the CPU."""

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        name = getattr(func, "__name__", "")
        if _amp_on():
            target = None
            if name in _LOWER_PRECISION_OPS:
                target = torch.bfloat16
            elif name in _FP32_OPS:
                target = torch.float32
            elif name in _FP32_SET_OPT_DTYPE_OPS and kwargs.get("dtype") is None:
                target = torch.float32
            if target is not None:
                args = _map_tensors(args, lambda t: _amp_cast(t, target))
                kwargs = {k: _map_tensors(v, lambda t: _amp_cast(t, target)) for k, v in kwargs.items()}
        return func(*args, **kwargs)


@contextlib.contextmanager
def cuda_autocast(enabled):
    if not enabled:
        yield
        return
    _AMP["active"] = True
    _AMP["cache"] = {}
    try:
        with CudaAutocastEmulation():
            yield
    finally:
        _AMP["active"] = False
        _AMP["cache"] = {}  # autocast clears its weight cache when the outermost region exits


def is_autocast_enabled():
    """torch.is_autocast_enabled() as transformers' flash-attention path asks it."""
    return _amp_on()


# --------------------------------------------------------------------------------------------
# Dropout and the fused attention kernels.
# --------------------------------------------------------------------------------------------

def dropout(x, p, training):
    """nn.functional.dropout as CUDA runs it: p == 0 (or eval) returns the input itself; otherwise
    the fused native_dropout kernel, which saves a bool mask (CPU dropout would save a mask of the
    input's dtype)."""
    if not training or p == 0.0:
        return x
    return torch.native_dropout(x, p, True)[0]


class Dropout(nn.Module):
    """nn.Dropout(p), with the CUDA kernel's saved mask (see dropout())."""

    def __init__(self, p):
        super().__init__()
        self.p = float(p)

    def forward(self, x):
        return dropout(x, self.p, self.training)


def _math_attention(q, k, v, causal, scale, drop_p, seed):
    """Reference attention in fp32 on [b, heads, s, d] tensors (k, v may have fewer heads)."""
    rep = q.shape[1] // k.shape[1]
    if rep > 1:
        k = k.repeat_interleave(rep, dim=1)
        v = v.repeat_interleave(rep, dim=1)
    scores = torch.matmul(q, k.transpose(-1, -2)) * scale
    if causal:
        s_q, s_k = scores.shape[-2], scores.shape[-1]
        mask = torch.ones(s_q, s_k, dtype=torch.bool).triu(1)
        scores = scores.masked_fill(mask, float("-inf"))
    lse = torch.logsumexp(scores, dim=-1)
    probs = torch.softmax(scores, dim=-1)
    if drop_p > 0.0:
        g = torch.Generator().manual_seed(seed)
        keep = torch.rand(probs.shape, generator=g) >= drop_p
        probs = probs * keep / (1.0 - drop_p)
    return torch.matmul(probs, v), lse


class EmulatedFusedAttention(torch.autograd.Function):
    """Stands in for the fused attention kernels torch 1.13 lacks.

    What its node saves equals what these save for backward on CUDA:
    - torch 2.x _scaled_dot_product_flash_attention (SDPA with 16-bit inputs): query, key, value
      as passed, the output, logsumexp fp32 [b, heads, s], philox seed and offset;
    - torch 2.x _efficient_attention_forward (SDPA with fp32 inputs): the same, with logsumexp
      padded to a multiple of 32 along the sequence;
    - flash_attn.FlashAttnFunc (transformers' flash_attention_2): q, k, v as passed ([b, s, heads,
      d], grouped K/V), out, softmax_lse fp32 [b, heads, s], rng_state (2 x int64).
    The output is produced in [b, s, heads, d] memory, as the CUDA kernels do, so that the
    transpose(1, 2).contiguous() after the call is a view and o_proj saves that same storage.
    Backward recomputes the attention (as the kernels do) in fp32.
    """

    @staticmethod
    def forward(ctx, q, k, v, causal, drop_p, scale, layout, lse_pad):
        with amp_suspended():
            return EmulatedFusedAttention._forward(ctx, q, k, v, causal, drop_p, scale, layout, lse_pad)

    @staticmethod
    def _forward(ctx, q, k, v, causal, drop_p, scale, layout, lse_pad):
        seed = int(torch.randint(0, 2**62, (1,)).item())
        if layout == "bshd":
            qh, kh, vh = q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2)
        else:
            qh, kh, vh = q, k, v
        out_h, lse = _math_attention(qh.float(), kh.float(), vh.float(), causal, scale, drop_p, seed)
        b, nh, s, d = out_h.shape
        out_bshd = torch.empty(b, s, nh, d, dtype=q.dtype)
        out_bshd.copy_(out_h.transpose(1, 2))
        if lse_pad > 1:
            padded = ((s + lse_pad - 1) // lse_pad) * lse_pad
            lse_full = torch.zeros(b, nh, padded, dtype=torch.float32)
            lse_full[..., :s] = lse
            lse = lse_full
        out = out_bshd if layout == "bshd" else out_bshd.transpose(1, 2)
        rng = torch.tensor([seed, 0], dtype=torch.int64)
        ctx.save_for_backward(q, k, v, out, lse, rng)
        ctx.causal, ctx.drop_p, ctx.scale, ctx.layout, ctx.seed = causal, drop_p, scale, layout, seed
        return out

    @staticmethod
    def backward(ctx, grad_out):
        q, k, v, _out, _lse, _rng = ctx.saved_tensors
        with torch.enable_grad(), amp_suspended():
            qf = q.detach().float().requires_grad_()
            kf = k.detach().float().requires_grad_()
            vf = v.detach().float().requires_grad_()
            if ctx.layout == "bshd":
                o, _ = _math_attention(qf.transpose(1, 2), kf.transpose(1, 2), vf.transpose(1, 2),
                                       ctx.causal, ctx.scale, ctx.drop_p, ctx.seed)
                o = o.transpose(1, 2)
            else:
                o, _ = _math_attention(qf, kf, vf, ctx.causal, ctx.scale, ctx.drop_p, ctx.seed)
            gq, gk, gv = torch.autograd.grad(o, (qf, kf, vf), grad_out.float())
        return gq.to(q.dtype), gk.to(k.dtype), gv.to(v.dtype), None, None, None, None, None


def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False):
    """torch.nn.functional.scaled_dot_product_attention (torch 2.x) for inputs [b, heads, s, d]
    with no mask: the flash kernel for 16-bit inputs, the memory-efficient kernel for fp32."""
    if attn_mask is not None:
        raise ScenarioError("an explicit attention mask would select SDPA's math path; not emulated")
    if _amp_on():  # scaled_dot_product_attention is on CUDA autocast's lower-precision list
        query, key, value = (_amp_cast(t, torch.bfloat16) for t in (query, key, value))
    if key.shape[1] != query.shape[1]:
        raise ScenarioError("torch SDPA (without enable_gqa) needs as many K/V heads as queries")
    lse_pad = 32 if query.dtype == torch.float32 else 1
    scale = 1.0 / math.sqrt(query.shape[-1])
    return EmulatedFusedAttention.apply(query, key, value, is_causal, float(dropout_p), scale,
                                        "bhsd", lse_pad)


def flash_attn_func(q, k, v, dropout_p=0.0, softmax_scale=None, causal=False):
    """flash_attn.flash_attn_func (flash-attn 2.x) for inputs [b, s, heads, d]; K/V may be grouped."""
    if q.dtype not in (torch.float16, torch.bfloat16):
        raise ScenarioError("flash_attn only supports fp16 and bf16")
    scale = softmax_scale if softmax_scale is not None else q.shape[-1] ** -0.5
    return EmulatedFusedAttention.apply(q, k, v, causal, float(dropout_p), scale, "bshd", 1)


def flash_attention_forward(module, query_states, key_states, value_states, dropout_rate, causal,
                            weight_dtype):
    """transformers' *FlashAttention2.forward tail (v4.45): inputs arrive [b, heads, s, d], are
    transposed to [b, s, heads, d]; fp32 inputs are cast to the autocast dtype (or the weights'
    dtype); then _flash_attention_forward -> flash_attn_func (no padding, so no unpadding)."""
    query_states = query_states.transpose(1, 2)
    key_states = key_states.transpose(1, 2)
    value_states = value_states.transpose(1, 2)
    if query_states.dtype == torch.float32:
        target_dtype = torch.bfloat16 if is_autocast_enabled() else weight_dtype
        query_states = query_states.to(target_dtype)
        key_states = key_states.to(target_dtype)
        value_states = value_states.to(target_dtype)
    return flash_attn_func(query_states, key_states, value_states, dropout_rate, causal=causal)


# --------------------------------------------------------------------------------------------
# Measurement regions: the model code below names the part of the model it is in, so that the
# saved-tensor hook can attribute each saved storage.
# --------------------------------------------------------------------------------------------

_REGION = ["other"]


@contextlib.contextmanager
def region(name):
    old = _REGION[0]
    _REGION[0] = name
    try:
        yield
    finally:
        _REGION[0] = old


def run_layer(layer, recompute, training, *args):
    """transformers' decoder/encoder loop body: gradient checkpointing (v4.35+:
    self._gradient_checkpointing_func = partial(torch.utils.checkpoint.checkpoint,
    use_reentrant=True) by default) or a plain call."""
    if recompute and training:
        amp = _amp_on()

        def forward_fn(*a):
            # torch's checkpoint re-enters the autocast state of the forward when it recomputes
            # the block in backward; the emulated autocast does the same.
            if amp and not _amp_on():
                with cuda_autocast(True):
                    return layer(*a)
            return layer(*a)
        return torch.utils.checkpoint.checkpoint(forward_fn, *args, use_reentrant=True)
    return layer(*args)


# --------------------------------------------------------------------------------------------
# Rotary embeddings (transformers v4.45: computed once per forward in the model and handed to
# every layer as position_embeddings).
# --------------------------------------------------------------------------------------------

class RotaryEmbedding(nn.Module):
    """LlamaRotaryEmbedding (default rope type; llama3 scaling only changes inv_freq's values)."""

    def __init__(self, dim, base=10000.0):
        super().__init__()
        inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.int64).float() / dim))
        self.register_buffer("inv_freq", inv_freq, persistent=False)

    @torch.no_grad()
    def forward(self, x, position_ids):
        inv_freq_expanded = self.inv_freq[None, :, None].float().expand(position_ids.shape[0], -1, 1)
        position_ids_expanded = position_ids[:, None, :].float()
        with amp_suspended():  # torch.autocast(device_type, enabled=False)
            freqs = (inv_freq_expanded.float() @ position_ids_expanded.float()).transpose(1, 2)
            emb = torch.cat((freqs, freqs), dim=-1)
            cos = emb.cos()
            sin = emb.sin()
        return cos.to(dtype=x.dtype), sin.to(dtype=x.dtype)


def rotate_half(x):
    """transformers rotate_half."""
    x1 = x[..., : x.shape[-1] // 2]
    x2 = x[..., x.shape[-1] // 2:]
    return torch.cat((-x2, x1), dim=-1)


def apply_rotary_pos_emb(q, k, cos, sin, unsqueeze_dim=1):
    """transformers apply_rotary_pos_emb."""
    cos = cos.unsqueeze(unsqueeze_dim)
    sin = sin.unsqueeze(unsqueeze_dim)
    q_embed = (q * cos) + (rotate_half(q) * sin)
    k_embed = (k * cos) + (rotate_half(k) * sin)
    return q_embed, k_embed


def repeat_kv(hidden_states, n_rep):
    """transformers repeat_kv: [b, kv_heads, s, d] -> [b, kv_heads * n_rep, s, d]."""
    batch, num_key_value_heads, slen, head_dim = hidden_states.shape
    if n_rep == 1:
        return hidden_states
    hidden_states = hidden_states[:, :, None, :, :].expand(batch, num_key_value_heads, n_rep, slen, head_dim)
    return hidden_states.reshape(batch, num_key_value_heads * n_rep, slen, head_dim)


def causal_mask_4d(batch, seq, dtype):
    """LlamaModel._update_causal_mask / _prepare_4d_causal_attention_mask_with_cache_position
    (v4.45) for eager attention without a padding mask: [b, 1, s, s] in the compute dtype (an
    expand of one [s, s] tensor)."""
    min_dtype = torch.finfo(dtype).min
    cache_position = torch.arange(seq)
    causal_mask = torch.full((seq, seq), fill_value=min_dtype, dtype=dtype)
    causal_mask = torch.triu(causal_mask, diagonal=1)
    causal_mask *= torch.arange(seq) > cache_position.reshape(-1, 1)
    return causal_mask[None, None, :, :].expand(batch, 1, -1, -1)


# --------------------------------------------------------------------------------------------
# Llama / Mistral / Qwen2 (modeling_llama.py, modeling_mistral.py, modeling_qwen2.py, v4.45).
# --------------------------------------------------------------------------------------------

class LlamaRMSNorm(nn.Module):
    """LlamaRMSNorm (also MistralRMSNorm, Qwen2RMSNorm)."""

    def __init__(self, hidden_size, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(hidden_size))
        self.variance_epsilon = eps

    def forward(self, hidden_states):
        input_dtype = hidden_states.dtype
        hidden_states = hidden_states.to(torch.float32)
        variance = hidden_states.pow(2).mean(-1, keepdim=True)
        hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        return self.weight * hidden_states.to(input_dtype)


class LlamaMLP(nn.Module):
    """LlamaMLP: down_proj(act_fn(gate_proj(x)) * up_proj(x)), act_fn = SiLU."""

    def __init__(self, s):
        super().__init__()
        self.gate_proj = nn.Linear(s.hidden, s.ffn, bias=s.bias)
        self.up_proj = nn.Linear(s.hidden, s.ffn, bias=s.bias)
        self.down_proj = nn.Linear(s.ffn, s.hidden, bias=s.bias)

    def forward(self, x):
        return self.down_proj(F.silu(self.gate_proj(x)) * self.up_proj(x))


class LlamaAttention(nn.Module):
    """LlamaAttention (eager), LlamaSdpaAttention and LlamaFlashAttention2, by s.attention.
    Qwen2Attention is the same with bias on q, k and v."""

    def __init__(self, s):
        super().__init__()
        self.s = s
        self.num_heads, self.head_dim = s.heads, s.head_dim
        self.num_key_value_heads = s.kv_heads
        self.num_key_value_groups = s.heads // s.kv_heads
        self.attention_dropout = s.dropout  # config.attention_dropout
        qkv_bias = s.bias or s.qkv_bias
        self.q_proj = nn.Linear(s.hidden, s.heads * s.head_dim, bias=qkv_bias)
        self.k_proj = nn.Linear(s.hidden, s.kv_heads * s.head_dim, bias=qkv_bias)
        self.v_proj = nn.Linear(s.hidden, s.kv_heads * s.head_dim, bias=qkv_bias)
        self.o_proj = nn.Linear(s.heads * s.head_dim, s.hidden, bias=s.bias)

    def forward(self, hidden_states, attention_mask, position_embeddings):
        bsz, q_len, _ = hidden_states.size()
        query_states = self.q_proj(hidden_states).view(bsz, q_len, -1, self.head_dim).transpose(1, 2)
        key_states = self.k_proj(hidden_states).view(bsz, q_len, -1, self.head_dim).transpose(1, 2)
        value_states = self.v_proj(hidden_states).view(bsz, q_len, -1, self.head_dim).transpose(1, 2)
        cos, sin = position_embeddings
        query_states, key_states = apply_rotary_pos_emb(query_states, key_states, cos, sin)
        impl = self.s.attention
        if impl == "flash":  # LlamaFlashAttention2: grouped K/V go to the kernel as they are
            attn_output = flash_attention_forward(
                self, query_states, key_states, value_states,
                self.attention_dropout if self.training else 0.0, True, self.q_proj.weight.dtype)
            attn_output = attn_output.reshape(bsz, q_len, -1).contiguous()
            return self.o_proj(attn_output)
        key_states = repeat_kv(key_states, self.num_key_value_groups)
        value_states = repeat_kv(value_states, self.num_key_value_groups)
        if impl == "sdpa":  # LlamaSdpaAttention: no padding mask -> causal_mask None, is_causal
            attn_output = scaled_dot_product_attention(
                query_states, key_states, value_states, attn_mask=None,
                dropout_p=self.attention_dropout if self.training else 0.0, is_causal=q_len > 1)
        else:  # LlamaAttention (eager)
            attn_weights = torch.matmul(query_states, key_states.transpose(2, 3)) / math.sqrt(self.head_dim)
            if attention_mask is not None:
                causal_mask = attention_mask[:, :, :, : key_states.shape[-2]]
                attn_weights = attn_weights + causal_mask
            attn_weights = F.softmax(attn_weights, dim=-1, dtype=torch.float32).to(query_states.dtype)
            attn_weights = dropout(attn_weights, self.attention_dropout, self.training)
            attn_output = torch.matmul(attn_weights, value_states)
        attn_output = attn_output.transpose(1, 2).contiguous()
        attn_output = attn_output.reshape(bsz, q_len, -1)
        return self.o_proj(attn_output)


class LlamaDecoderLayer(nn.Module):
    """LlamaDecoderLayer (MistralDecoderLayer, Qwen2DecoderLayer)."""

    def __init__(self, s):
        super().__init__()
        self.self_attn = LlamaAttention(s)
        self.mlp = LlamaMLP(s)
        self.input_layernorm = LlamaRMSNorm(s.hidden)
        self.post_attention_layernorm = LlamaRMSNorm(s.hidden)

    def forward(self, hidden_states, attention_mask, position_ids, cache_position, position_embeddings):
        residual = hidden_states
        hidden_states = self.input_layernorm(hidden_states)
        hidden_states = self.self_attn(hidden_states, attention_mask, position_embeddings)
        hidden_states = residual + hidden_states
        residual = hidden_states
        hidden_states = self.post_attention_layernorm(hidden_states)
        hidden_states = self.mlp(hidden_states)
        hidden_states = residual + hidden_states
        return hidden_states


def rotary_decoder_body(model, embed, embed_dropout, final_norm, input_ids):
    """The body the rotary decoders share (LlamaModel, PhiModel, GPTNeoXModel forward): embed,
    one 4-D causal mask for eager attention, rotary tables computed once, the layers, the final
    norm. Returns the final norm's output; each family's head and loss follow."""
    s = model.s
    with region("embed"):
        inputs_embeds = embed(input_ids)
        cache_position = torch.arange(0, inputs_embeds.shape[1])
        position_ids = cache_position.unsqueeze(0)
        causal_mask = None
        if s.attention == "eager":
            causal_mask = causal_mask_4d(input_ids.shape[0], input_ids.shape[1], inputs_embeds.dtype)
        hidden_states = embed_dropout(inputs_embeds) if embed_dropout is not None else inputs_embeds
        position_embeddings = model.rotary_emb(hidden_states, position_ids)
    for i, layer in enumerate(model.layers):
        with region(f"layer{i}"):
            hidden_states = run_layer(layer, s.recompute == "full", model.training, hidden_states,
                                      causal_mask, position_ids, cache_position, position_embeddings)
    with region("final"):
        return final_norm(hidden_states)


def causal_lm_loss_upcast(logits, labels, vocab):
    """LlamaForCausalLM.forward loss (v4.40-v4.45; also Mistral, Qwen2, Phi): logits.float(),
    shift, CrossEntropyLoss."""
    logits = logits.float()
    with region("loss"):
        shift_logits = logits[..., :-1, :].contiguous()
        shift_labels = labels[..., 1:].contiguous()
        shift_logits = shift_logits.view(-1, vocab)
        shift_labels = shift_labels.view(-1)
        loss = nn.CrossEntropyLoss()(shift_logits, shift_labels)
    return loss, logits


class LlamaForCausalLM(nn.Module):
    """LlamaForCausalLM / MistralForCausalLM / Qwen2ForCausalLM with LlamaModel inside."""

    def __init__(self, s):
        super().__init__()
        self.s = s
        self.embed_tokens = nn.Embedding(s.vocab, s.hidden)
        self.layers = nn.ModuleList(LlamaDecoderLayer(s) for _ in range(s.layers))
        self.norm = LlamaRMSNorm(s.hidden)
        self.rotary_emb = RotaryEmbedding(s.head_dim)
        self.lm_head = nn.Linear(s.hidden, s.vocab, bias=s.lm_head_bias)
        if s.tied:
            self.lm_head.weight = self.embed_tokens.weight

    def input_embeddings(self):
        return self.embed_tokens

    def forward(self, input_ids, labels):
        s = self.s
        hidden_states = rotary_decoder_body(self, self.embed_tokens, None, self.norm, input_ids)
        with region("head"):
            logits = self.lm_head(hidden_states)
            return causal_lm_loss_upcast(logits, labels, s.vocab)


# --------------------------------------------------------------------------------------------
# GPT-2 (modeling_gpt2.py, v4.45).
# --------------------------------------------------------------------------------------------

class Conv1D(nn.Module):
    """transformers.pytorch_utils.Conv1D: addmm(bias, x, weight) with weight [in, out]."""

    def __init__(self, nf, nx):
        super().__init__()
        self.nf = nf
        self.weight = nn.Parameter(torch.empty(nx, nf))
        self.bias = nn.Parameter(torch.zeros(nf))
        nn.init.normal_(self.weight, std=0.02)

    def forward(self, x):
        size_out = x.size()[:-1] + (self.nf,)
        x = torch.addmm(self.bias, x.view(-1, x.size(-1)), self.weight)
        x = x.view(size_out)
        return x


class NewGELUActivation(nn.Module):
    """transformers.activations.NewGELUActivation ("gelu_new"), written as separate ops."""

    def forward(self, input):
        return 0.5 * input * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (input + 0.044715 * torch.pow(input, 3.0))))


class GPT2Attention(nn.Module):
    """GPT2Attention (eager), GPT2SdpaAttention, GPT2FlashAttention2, by s.attention."""

    def __init__(self, s):
        super().__init__()
        self.s = s
        max_positions = s.max_positions
        self.register_buffer(
            "bias",
            torch.tril(torch.ones((max_positions, max_positions), dtype=torch.bool)).view(
                1, 1, max_positions, max_positions),
            persistent=False)
        self.embed_dim = s.hidden
        self.num_heads = s.heads
        self.head_dim = s.hidden // s.heads
        self.split_size = s.hidden
        self.c_attn = Conv1D(3 * s.hidden, s.hidden)
        self.c_proj = Conv1D(s.hidden, s.hidden)
        self.attn_dropout = Dropout(s.dropout)   # attn_pdrop
        self.resid_dropout = Dropout(s.dropout)  # resid_pdrop

    def _split_heads(self, tensor, num_heads, attn_head_size):
        new_shape = tensor.size()[:-1] + (num_heads, attn_head_size)
        tensor = tensor.view(new_shape)
        return tensor.permute(0, 2, 1, 3)  # (batch, head, seq_length, head_features)

    def _merge_heads(self, tensor, num_heads, attn_head_size):
        tensor = tensor.permute(0, 2, 1, 3).contiguous()
        new_shape = tensor.size()[:-2] + (num_heads * attn_head_size,)
        return tensor.view(new_shape)

    def _attn(self, query, key, value):
        attn_weights = torch.matmul(query, key.transpose(-1, -2))
        # scale_attn_weights=True
        attn_weights = attn_weights / torch.full([], value.size(-1) ** 0.5, dtype=attn_weights.dtype)
        query_length, key_length = query.size(-2), key.size(-2)
        causal_mask = self.bias[:, :, key_length - query_length: key_length, :key_length]
        mask_value = torch.finfo(attn_weights.dtype).min
        mask_value = torch.full([], mask_value, dtype=attn_weights.dtype)
        attn_weights = torch.where(causal_mask, attn_weights.to(attn_weights.dtype), mask_value)
        attn_weights = F.softmax(attn_weights, dim=-1)
        # Downcast (if necessary) back to V's dtype (if in mixed-precision) -- No-Op otherwise
        attn_weights = attn_weights.type(value.dtype)
        attn_weights = self.attn_dropout(attn_weights)
        return torch.matmul(attn_weights, value)

    def forward(self, hidden_states):
        bsz, q_len, _ = hidden_states.size()
        query, key, value = self.c_attn(hidden_states).split(self.split_size, dim=2)
        query = self._split_heads(query, self.num_heads, self.head_dim)
        key = self._split_heads(key, self.num_heads, self.head_dim)
        value = self._split_heads(value, self.num_heads, self.head_dim)
        impl = self.s.attention
        if impl == "flash":  # GPT2FlashAttention2
            attn_output = flash_attention_forward(
                self, query, key, value, self.attn_dropout.p if self.training else 0.0, True,
                self.c_attn.weight.dtype)
            attn_output = attn_output.reshape(bsz, q_len, self.num_heads * self.head_dim)
        elif impl == "sdpa":  # GPT2SdpaAttention
            attn_output = scaled_dot_product_attention(
                query, key, value, attn_mask=None,
                dropout_p=self.attn_dropout.p if self.training else 0.0, is_causal=q_len > 1)
            attn_output = attn_output.transpose(1, 2).contiguous()
            attn_output = attn_output.view(bsz, q_len, self.embed_dim)
        else:
            attn_output = self._attn(query, key, value)
            attn_output = self._merge_heads(attn_output, self.num_heads, self.head_dim)
        attn_output = self.c_proj(attn_output)
        attn_output = self.resid_dropout(attn_output)
        return attn_output


class GPT2MLP(nn.Module):
    """GPT2MLP: c_fc, NewGELU, c_proj, dropout(resid_pdrop)."""

    def __init__(self, s):
        super().__init__()
        self.c_fc = Conv1D(s.ffn, s.hidden)
        self.c_proj = Conv1D(s.hidden, s.ffn)
        self.act = NewGELUActivation()
        self.dropout = Dropout(s.dropout)

    def forward(self, hidden_states):
        hidden_states = self.c_fc(hidden_states)
        hidden_states = self.act(hidden_states)
        hidden_states = self.c_proj(hidden_states)
        hidden_states = self.dropout(hidden_states)
        return hidden_states


class GPT2Block(nn.Module):
    """GPT2Block (pre-norm, layer_norm_epsilon 1e-5)."""

    def __init__(self, s):
        super().__init__()
        self.ln_1 = nn.LayerNorm(s.hidden, eps=1e-5)
        self.attn = GPT2Attention(s)
        self.ln_2 = nn.LayerNorm(s.hidden, eps=1e-5)
        self.mlp = GPT2MLP(s)

    def forward(self, hidden_states):
        residual = hidden_states
        hidden_states = self.ln_1(hidden_states)
        attn_output = self.attn(hidden_states)
        hidden_states = attn_output + residual
        residual = hidden_states
        hidden_states = self.ln_2(hidden_states)
        feed_forward_hidden_states = self.mlp(hidden_states)
        hidden_states = residual + feed_forward_hidden_states
        return hidden_states


class GPT2LMHeadModel(nn.Module):
    """GPT2LMHeadModel with GPT2Model inside (wte, wpe, drop, h, ln_f; lm_head tied to wte)."""

    def __init__(self, s):
        super().__init__()
        self.s = s
        self.wte = nn.Embedding(s.vocab, s.hidden)
        self.wpe = nn.Embedding(s.max_positions, s.hidden)
        self.drop = Dropout(s.dropout)  # embd_pdrop
        self.h = nn.ModuleList(GPT2Block(s) for _ in range(s.layers))
        self.ln_f = nn.LayerNorm(s.hidden, eps=1e-5)
        self.lm_head = nn.Linear(s.hidden, s.vocab, bias=False)
        if s.tied:
            self.lm_head.weight = self.wte.weight

    def input_embeddings(self):
        return self.wte

    def forward(self, input_ids, labels):
        s = self.s
        with region("embed"):
            position_ids = torch.arange(0, input_ids.shape[-1], dtype=torch.long).unsqueeze(0)
            inputs_embeds = self.wte(input_ids)
            position_embeds = self.wpe(position_ids)
            hidden_states = inputs_embeds + position_embeds
            hidden_states = self.drop(hidden_states)
        for i, block in enumerate(self.h):
            with region(f"layer{i}"):
                hidden_states = run_layer(block, s.recompute == "full", self.training, hidden_states)
        with region("final"):
            hidden_states = self.ln_f(hidden_states)
        with region("head"):
            lm_logits = self.lm_head(hidden_states)
        with region("loss"):  # GPT2LMHeadModel.forward: no fp32 upcast of the logits
            shift_logits = lm_logits[..., :-1, :].contiguous()
            shift_labels = labels[..., 1:].contiguous()
            loss = nn.CrossEntropyLoss()(shift_logits.view(-1, shift_logits.size(-1)), shift_labels.view(-1))
        return loss, lm_logits


# --------------------------------------------------------------------------------------------
# BERT (modeling_bert.py, v4.45): BertForMaskedLM or BertForSequenceClassification.
# --------------------------------------------------------------------------------------------

class BertEmbeddings(nn.Module):
    """BertEmbeddings (absolute positions; token_type_ids from the zero buffer)."""

    def __init__(self, s):
        super().__init__()
        self.word_embeddings = nn.Embedding(s.vocab, s.hidden, padding_idx=0)
        self.position_embeddings = nn.Embedding(s.max_positions, s.hidden)
        self.token_type_embeddings = nn.Embedding(max(s.token_types, 1), s.hidden)
        self.LayerNorm = nn.LayerNorm(s.hidden, eps=1e-12)
        self.dropout = Dropout(s.dropout)  # hidden_dropout_prob
        self.register_buffer("position_ids", torch.arange(s.max_positions).expand((1, -1)), persistent=False)
        self.register_buffer("token_type_ids", torch.zeros(self.position_ids.size(), dtype=torch.long),
                             persistent=False)

    def forward(self, input_ids):
        input_shape = input_ids.size()
        seq_length = input_shape[1]
        position_ids = self.position_ids[:, 0:seq_length]
        buffered_token_type_ids = self.token_type_ids[:, :seq_length]
        token_type_ids = buffered_token_type_ids.expand(input_shape[0], seq_length)
        inputs_embeds = self.word_embeddings(input_ids)
        token_type_embeddings = self.token_type_embeddings(token_type_ids)
        embeddings = inputs_embeds + token_type_embeddings
        position_embeddings = self.position_embeddings(position_ids)
        embeddings += position_embeddings
        embeddings = self.LayerNorm(embeddings)
        embeddings = self.dropout(embeddings)
        return embeddings


class BertSelfAttention(nn.Module):
    """BertSelfAttention (eager) and BertSdpaSelfAttention, by s.attention."""

    def __init__(self, s):
        super().__init__()
        self.s = s
        self.num_attention_heads = s.heads
        self.attention_head_size = s.hidden // s.heads
        self.all_head_size = s.hidden
        self.query = nn.Linear(s.hidden, s.hidden)
        self.key = nn.Linear(s.hidden, s.hidden)
        self.value = nn.Linear(s.hidden, s.hidden)
        self.dropout_prob = s.dropout  # attention_probs_dropout_prob
        self.dropout = Dropout(s.dropout)

    def transpose_for_scores(self, x):
        new_x_shape = x.size()[:-1] + (self.num_attention_heads, self.attention_head_size)
        x = x.view(new_x_shape)
        return x.permute(0, 2, 1, 3)

    def forward(self, hidden_states, attention_mask):
        bsz, tgt_len, _ = hidden_states.size()
        query_layer = self.transpose_for_scores(self.query(hidden_states))
        key_layer = self.transpose_for_scores(self.key(hidden_states))
        value_layer = self.transpose_for_scores(self.value(hidden_states))
        if self.s.attention == "sdpa":
            # BertSdpaSelfAttention: an all-ones padding mask is dropped (attention_mask None)
            attn_output = scaled_dot_product_attention(
                query_layer, key_layer, value_layer, attn_mask=None,
                dropout_p=self.dropout_prob if self.training else 0.0, is_causal=False)
            attn_output = attn_output.transpose(1, 2)
            return attn_output.reshape(bsz, tgt_len, self.all_head_size)
        attention_scores = torch.matmul(query_layer, key_layer.transpose(-1, -2))
        attention_scores = attention_scores / math.sqrt(self.attention_head_size)
        if attention_mask is not None:
            attention_scores = attention_scores + attention_mask
        attention_probs = F.softmax(attention_scores, dim=-1)
        attention_probs = self.dropout(attention_probs)
        context_layer = torch.matmul(attention_probs, value_layer)
        context_layer = context_layer.permute(0, 2, 1, 3).contiguous()
        new_context_layer_shape = context_layer.size()[:-2] + (self.all_head_size,)
        return context_layer.view(new_context_layer_shape)


class BertSelfOutput(nn.Module):
    """BertSelfOutput and BertOutput: LayerNorm(dropout(dense(x)) + input_tensor)."""

    def __init__(self, s, in_features):
        super().__init__()
        self.dense = nn.Linear(in_features, s.hidden)
        self.LayerNorm = nn.LayerNorm(s.hidden, eps=1e-12)
        self.dropout = Dropout(s.dropout)

    def forward(self, hidden_states, input_tensor):
        hidden_states = self.dense(hidden_states)
        hidden_states = self.dropout(hidden_states)
        return self.LayerNorm(hidden_states + input_tensor)


class BertAttention(nn.Module):
    def __init__(self, s):
        super().__init__()
        self.self = BertSelfAttention(s)
        self.output = BertSelfOutput(s, s.hidden)

    def forward(self, hidden_states, attention_mask):
        return self.output(self.self(hidden_states, attention_mask), hidden_states)


class BertIntermediate(nn.Module):
    """BertIntermediate: dense + GELUActivation (nn.functional.gelu, exact)."""

    def __init__(self, s):
        super().__init__()
        self.dense = nn.Linear(s.hidden, s.ffn)

    def forward(self, hidden_states):
        return F.gelu(self.dense(hidden_states))


class BertLayer(nn.Module):
    """BertLayer (post-norm)."""

    def __init__(self, s):
        super().__init__()
        self.attention = BertAttention(s)
        self.intermediate = BertIntermediate(s)
        self.output = BertSelfOutput(s, s.ffn)

    def forward(self, hidden_states, attention_mask):
        attention_output = self.attention(hidden_states, attention_mask)
        intermediate_output = self.intermediate(attention_output)
        return self.output(intermediate_output, attention_output)


class BertModelForTask(nn.Module):
    """BertForMaskedLM (BertModel without pooler + BertOnlyMLMHead, decoder tied to the word
    embeddings) or BertForSequenceClassification (BertModel with pooler + dropout + classifier)."""

    def __init__(self, s):
        super().__init__()
        self.s = s
        self.embeddings = BertEmbeddings(s)
        self.layer = nn.ModuleList(BertLayer(s) for _ in range(s.layers))
        if s.head == "lm":
            # BertLMPredictionHead: transform (dense, gelu, LayerNorm), decoder + separate bias
            self.transform_dense = nn.Linear(s.hidden, s.hidden)
            self.transform_LayerNorm = nn.LayerNorm(s.hidden, eps=1e-12)
            self.decoder = nn.Linear(s.hidden, s.vocab, bias=False)
            self.decoder_bias = nn.Parameter(torch.zeros(s.vocab))
            self.decoder.bias = self.decoder_bias
            if s.tied:
                self.decoder.weight = self.embeddings.word_embeddings.weight
        else:
            if s.pooler:
                self.pooler_dense = nn.Linear(s.hidden, s.hidden)
            self.classifier_dropout = Dropout(s.dropout)
            self.classifier = nn.Linear(s.hidden, s.classifier_labels)

    def input_embeddings(self):
        return self.embeddings.word_embeddings

    def forward(self, input_ids, labels):
        s = self.s
        with region("embed"):
            embedding_output = self.embeddings(input_ids)
            extended_attention_mask = None
            if s.attention == "eager":
                # BertModel.get_extended_attention_mask on the all-ones default mask
                attention_mask = torch.ones(input_ids.shape)
                ext = attention_mask[:, None, None, :].to(dtype=self.embeddings.word_embeddings.weight.dtype)
                extended_attention_mask = (1.0 - ext) * torch.finfo(ext.dtype).min
            hidden_states = embedding_output
        for i, layer in enumerate(self.layer):
            with region(f"layer{i}"):
                hidden_states = run_layer(layer, s.recompute == "full", self.training, hidden_states,
                                          extended_attention_mask)
        if s.head == "lm":
            with region("head"):
                h = F.gelu(self.transform_dense(hidden_states))
                h = self.transform_LayerNorm(h)
                prediction_scores = self.decoder(h)
            with region("loss"):  # BertForMaskedLM.forward: no upcast, no shift
                loss = nn.CrossEntropyLoss()(prediction_scores.view(-1, s.vocab), labels.view(-1))
            return loss, prediction_scores
        with region("head"):
            pooled = hidden_states[:, 0]
            if s.pooler:
                pooled = torch.tanh(self.pooler_dense(pooled))  # BertPooler
            pooled = self.classifier_dropout(pooled)
            logits = self.classifier(pooled)
        with region("loss"):  # single_label_classification
            loss = nn.CrossEntropyLoss()(logits.view(-1, s.classifier_labels), labels.view(-1))
        return loss, logits


# --------------------------------------------------------------------------------------------
# Phi (modeling_phi.py, v4.45) and GPT-NeoX (modeling_gpt_neox.py, v4.45): parallel blocks,
# partial rotary.
# --------------------------------------------------------------------------------------------

class PhiAttention(nn.Module):
    """PhiAttention (eager; q and k upcast to fp32 for the scores), PhiSdpaAttention,
    PhiFlashAttention2. partial_rotary_factor 0.5, no qk_layernorm."""

    def __init__(self, s):
        super().__init__()
        self.s = s
        self.num_heads, self.head_dim = s.heads, s.head_dim
        self.num_key_value_groups = s.heads // s.kv_heads
        self.rotary_ndims = int(s.head_dim * 0.5)
        self.q_proj = nn.Linear(s.hidden, s.heads * s.head_dim, bias=True)
        self.k_proj = nn.Linear(s.hidden, s.kv_heads * s.head_dim, bias=True)
        self.v_proj = nn.Linear(s.hidden, s.kv_heads * s.head_dim, bias=True)
        self.dense = nn.Linear(s.heads * s.head_dim, s.hidden, bias=True)
        self.attention_dropout = Dropout(s.dropout)

    def forward(self, hidden_states, attention_mask, position_embeddings):
        bsz, q_len, _ = hidden_states.size()
        query_states = self.q_proj(hidden_states).view(bsz, q_len, -1, self.head_dim).transpose(1, 2)
        key_states = self.k_proj(hidden_states).view(bsz, q_len, -1, self.head_dim).transpose(1, 2)
        value_states = self.v_proj(hidden_states).view(bsz, q_len, -1, self.head_dim).transpose(1, 2)
        cos, sin = position_embeddings
        query_rot, query_pass = query_states[..., : self.rotary_ndims], query_states[..., self.rotary_ndims:]
        key_rot, key_pass = key_states[..., : self.rotary_ndims], key_states[..., self.rotary_ndims:]
        query_rot, key_rot = apply_rotary_pos_emb(query_rot, key_rot, cos, sin)
        query_states = torch.cat((query_rot, query_pass), dim=-1)
        key_states = torch.cat((key_rot, key_pass), dim=-1)
        impl = self.s.attention
        drop = self.attention_dropout.p if self.training else 0.0
        if impl == "flash":
            attn_output = flash_attention_forward(self, query_states, key_states, value_states, drop,
                                                  True, self.q_proj.weight.dtype)
            attn_output = attn_output.reshape(bsz, q_len, -1).contiguous()
            return self.dense(attn_output)
        key_states = repeat_kv(key_states, self.num_key_value_groups)
        value_states = repeat_kv(value_states, self.num_key_value_groups)
        if impl == "sdpa":
            attn_output = scaled_dot_product_attention(query_states, key_states, value_states,
                                                       attn_mask=None, dropout_p=drop, is_causal=q_len > 1)
        else:
            attn_weights = torch.matmul(query_states.to(torch.float32),
                                        key_states.to(torch.float32).transpose(2, 3)) / math.sqrt(self.head_dim)
            if attention_mask is not None:
                attn_weights = attn_weights + attention_mask[:, :, :, : key_states.shape[-2]]
            attn_weights = F.softmax(attn_weights, dim=-1, dtype=torch.float32).to(value_states.dtype)
            attn_weights = self.attention_dropout(attn_weights)
            attn_output = torch.matmul(attn_weights, value_states)
        attn_output = attn_output.transpose(1, 2).contiguous()
        attn_output = attn_output.reshape(bsz, q_len, -1)
        return self.dense(attn_output)


class PhiMLP(nn.Module):
    """PhiMLP: fc1, gelu_new, fc2."""

    def __init__(self, s):
        super().__init__()
        self.fc1 = nn.Linear(s.hidden, s.ffn)
        self.fc2 = nn.Linear(s.ffn, s.hidden)
        self.activation_fn = NewGELUActivation()

    def forward(self, hidden_states):
        return self.fc2(self.activation_fn(self.fc1(hidden_states)))


class PhiDecoderLayer(nn.Module):
    """PhiDecoderLayer: one LayerNorm, attention and MLP in parallel, resid_dropout on both."""

    def __init__(self, s):
        super().__init__()
        self.self_attn = PhiAttention(s)
        self.mlp = PhiMLP(s)
        self.input_layernorm = nn.LayerNorm(s.hidden, eps=1e-5)
        self.resid_dropout = Dropout(s.dropout)

    def forward(self, hidden_states, attention_mask, position_ids, cache_position, position_embeddings):
        residual = hidden_states
        hidden_states = self.input_layernorm(hidden_states)
        attn_outputs = self.self_attn(hidden_states, attention_mask, position_embeddings)
        attn_outputs = self.resid_dropout(attn_outputs)
        feed_forward_hidden_states = self.resid_dropout(self.mlp(hidden_states))
        return attn_outputs + feed_forward_hidden_states + residual


class PhiForCausalLM(nn.Module):
    """PhiForCausalLM with PhiModel inside (embed_dropout, final_layernorm, lm_head with bias)."""

    def __init__(self, s):
        super().__init__()
        self.s = s
        self.embed_tokens = nn.Embedding(s.vocab, s.hidden)
        self.embed_dropout = Dropout(s.dropout)  # embd_pdrop
        self.layers = nn.ModuleList(PhiDecoderLayer(s) for _ in range(s.layers))
        self.final_layernorm = nn.LayerNorm(s.hidden, eps=1e-5)
        self.rotary_emb = RotaryEmbedding(int(s.head_dim * 0.5))
        self.lm_head = nn.Linear(s.hidden, s.vocab, bias=s.lm_head_bias)
        if s.tied:
            self.lm_head.weight = self.embed_tokens.weight

    def input_embeddings(self):
        return self.embed_tokens

    def forward(self, input_ids, labels):
        s = self.s
        hidden_states = rotary_decoder_body(self, self.embed_tokens, self.embed_dropout,
                                            self.final_layernorm, input_ids)
        with region("head"):
            logits = self.lm_head(hidden_states)
            return causal_lm_loss_upcast(logits, labels, s.vocab)


class GPTNeoXAttention(nn.Module):
    """GPTNeoXAttention (eager, baddbmm scores), GPTNeoXSdpaAttention, GPTNeoXFlashAttention2.
    Fused query_key_value with bias; rotary_pct 0.25."""

    def __init__(self, s):
        super().__init__()
        self.s = s
        self.num_attention_heads = s.heads
        self.head_size = s.hidden // s.heads
        self.rotary_ndims = int(self.head_size * 0.25)
        self.norm_factor = self.head_size ** -0.5
        self.query_key_value = nn.Linear(s.hidden, 3 * s.hidden, bias=True)
        self.dense = nn.Linear(s.hidden, s.hidden, bias=True)
        self.attention_dropout = Dropout(s.dropout)

    def forward(self, hidden_states, attention_mask, position_embeddings):
        bsz, q_len, _ = hidden_states.size()
        qkv = self.query_key_value(hidden_states)
        new_qkv_shape = qkv.size()[:-1] + (self.num_attention_heads, 3 * self.head_size)
        qkv = qkv.view(*new_qkv_shape)
        query = qkv[..., : self.head_size].permute(0, 2, 1, 3)
        key = qkv[..., self.head_size: 2 * self.head_size].permute(0, 2, 1, 3)
        value = qkv[..., 2 * self.head_size:].permute(0, 2, 1, 3)
        query_rot, query_pass = query[..., : self.rotary_ndims], query[..., self.rotary_ndims:]
        key_rot, key_pass = key[..., : self.rotary_ndims], key[..., self.rotary_ndims:]
        cos, sin = position_embeddings
        query, key = apply_rotary_pos_emb(query_rot, key_rot, cos, sin)
        query = torch.cat((query, query_pass), dim=-1)
        key = torch.cat((key, key_pass), dim=-1)
        impl = self.s.attention
        drop = self.attention_dropout.p if self.training else 0.0
        if impl == "flash":  # GPTNeoXFlashAttention2 (fp32 q/k are cast in flash_attention_forward)
            attn_output = flash_attention_forward(self, query, key, value, drop, True,
                                                  self.query_key_value.weight.dtype)
            attn_output = attn_output.reshape(bsz, q_len, -1)
            return self.dense(attn_output)
        if impl == "sdpa":  # GPTNeoXSdpaAttention: q, k cast back to value's dtype first
            target_dtype = value.dtype
            if query.dtype != target_dtype:
                query = query.to(target_dtype)
            if key.dtype != target_dtype:
                key = key.to(target_dtype)
            attn_output = scaled_dot_product_attention(query, key, value, attn_mask=None,
                                                       dropout_p=drop, is_causal=q_len > 1)
        else:  # GPTNeoXAttention._attn
            batch_size, num_attention_heads, query_length, attn_head_size = query.size()
            key_length = key.size(-2)
            query = query.view(batch_size * num_attention_heads, query_length, attn_head_size)
            key = key.view(batch_size * num_attention_heads, key_length, attn_head_size)
            attn_scores = torch.zeros(batch_size * num_attention_heads, query_length, key_length,
                                      dtype=query.dtype)
            attn_scores = torch.baddbmm(attn_scores, query, key.transpose(1, 2), beta=1.0, alpha=self.norm_factor)
            attn_scores = attn_scores.view(batch_size, num_attention_heads, query_length, key_length)
            if attention_mask is not None:
                attn_scores = attn_scores + attention_mask[:, :, :, :key_length]
            attn_weights = F.softmax(attn_scores, dim=-1)
            attn_weights = attn_weights.to(value.dtype)
            attn_weights = self.attention_dropout(attn_weights)
            attn_output = torch.matmul(attn_weights, value)
        # _merge_heads
        attn_output = attn_output.permute(0, 2, 1, 3).contiguous()
        attn_output = attn_output.view(bsz, q_len, self.num_attention_heads * self.head_size)
        return self.dense(attn_output)


class GPTNeoXMLP(nn.Module):
    """GPTNeoXMLP: dense_h_to_4h, gelu (exact), dense_4h_to_h."""

    def __init__(self, s):
        super().__init__()
        self.dense_h_to_4h = nn.Linear(s.hidden, s.ffn)
        self.dense_4h_to_h = nn.Linear(s.ffn, s.hidden)

    def forward(self, hidden_states):
        return self.dense_4h_to_h(F.gelu(self.dense_h_to_4h(hidden_states)))


class GPTNeoXLayer(nn.Module):
    """GPTNeoXLayer with use_parallel_residual=True (Pythia)."""

    def __init__(self, s):
        super().__init__()
        self.input_layernorm = nn.LayerNorm(s.hidden, eps=1e-5)
        self.post_attention_layernorm = nn.LayerNorm(s.hidden, eps=1e-5)
        self.post_attention_dropout = Dropout(s.dropout)  # hidden_dropout
        self.post_mlp_dropout = Dropout(s.dropout)
        self.attention = GPTNeoXAttention(s)
        self.mlp = GPTNeoXMLP(s)

    def forward(self, hidden_states, attention_mask, position_ids, cache_position, position_embeddings):
        attn_output = self.attention(self.input_layernorm(hidden_states), attention_mask, position_embeddings)
        attn_output = self.post_attention_dropout(attn_output)
        mlp_output = self.mlp(self.post_attention_layernorm(hidden_states))
        mlp_output = self.post_mlp_dropout(mlp_output)
        return mlp_output + attn_output + hidden_states


class GPTNeoXForCausalLM(nn.Module):
    """GPTNeoXForCausalLM with GPTNeoXModel inside (embed_in, emb_dropout, final_layer_norm,
    embed_out untied). Loss as v4.45: shift, CrossEntropyLoss, no fp32 upcast."""

    def __init__(self, s):
        super().__init__()
        self.s = s
        self.embed_in = nn.Embedding(s.vocab, s.hidden)
        self.emb_dropout = Dropout(s.dropout)
        self.layers = nn.ModuleList(GPTNeoXLayer(s) for _ in range(s.layers))
        self.final_layer_norm = nn.LayerNorm(s.hidden, eps=1e-5)
        self.rotary_emb = RotaryEmbedding(int((s.hidden // s.heads) * 0.25))
        self.embed_out = nn.Linear(s.hidden, s.vocab, bias=False)
        if s.tied:
            self.embed_out.weight = self.embed_in.weight

    def input_embeddings(self):
        return self.embed_in

    def forward(self, input_ids, labels):
        s = self.s
        hidden_states = rotary_decoder_body(self, self.embed_in, self.emb_dropout,
                                            self.final_layer_norm, input_ids)
        with region("head"):
            lm_logits = self.embed_out(hidden_states)
        with region("loss"):
            shift_logits = lm_logits[:, :-1, :].contiguous()
            labels = labels[:, 1:].contiguous()
            loss = nn.CrossEntropyLoss()(shift_logits.view(-1, shift_logits.size(-1)), labels.view(-1))
        return loss, lm_logits


# --------------------------------------------------------------------------------------------
# Families of transformers >= 4.47, built after v4.57: qwen3, qwen3_moe, deepseek_v3, gpt_oss,
# gemma2, gemma3, olmo2 (modeling_<family>.py / modular_<family>.py, the attention functions of
# integrations/sdpa_attention.py and flash_attention.py, and loss/loss_utils.py ForCausalLMLoss).
# What they share in v4.57: rotary tables computed once per forward in the model and handed to
# every layer; masks from masking_utils (eager: a [b, 1, s, s] tensor in the compute dtype;
# sdpa and flash_attention_2: None without padding, is_causal); GradientCheckpointingLayer,
# which checkpoints the layer with only hidden_states as a positional argument (everything else
# is bound with functools.partial, so a reentrant checkpoint saves the block input alone); the
# loss in self.loss_function, which upcasts the logits to fp32 inside the loss while the model
# returns the 16-bit logits.
# --------------------------------------------------------------------------------------------

# Tokens each MoE block sent to each expert, recorded during the measured forward only.
_MOE_LOG = {"active": False, "calls": []}


def _log_routing(top_k_index, num_experts):
    if not _MOE_LOG["active"]:
        return
    counts = torch.bincount(top_k_index.reshape(-1), minlength=num_experts)[:num_experts]
    _MOE_LOG["calls"].append({"region": _REGION[0], "tokens": int(top_k_index.shape[0]),
                              "top_k": int(top_k_index.shape[1]),
                              "tokens_per_expert": [int(c) for c in counts]})


def _weight_copy(t):
    """Bookkeeping for a dtype copy of a weight made inside the model code (DeepSeek-V3's router
    casts its weight to fp32): it is no activation, and is reported next to autocast's copies."""
    _AMP["weight_copy_ptrs"].add(t.storage().data_ptr())
    _AMP["weight_copies"].append(t)
    return t


def run_layer_v457(layer, recompute, training, hidden_states, **kwargs):
    """GradientCheckpointingLayer.__call__ (v4.57): with gradient checkpointing,
    self._gradient_checkpointing_func(partial(super().__call__, **kwargs), *args), args being
    hidden_states alone; checkpoint(..., use_reentrant=True) is the default of
    gradient_checkpointing_enable()."""
    if recompute and training:
        amp = _amp_on()
        fn = functools.partial(layer, **kwargs)

        def forward_fn(h):
            if amp and not _amp_on():
                with cuda_autocast(True):
                    return fn(h)
            return fn(h)
        return torch.utils.checkpoint.checkpoint(forward_fn, hidden_states, use_reentrant=True)
    return layer(hidden_states, **kwargs)


class WeightFirstRMSNorm(nn.Module):
    """OLMo2RMSNorm / GptOssRMSNorm: the fp32 normalised input times the weight, then the cast
    back ((self.weight * hidden_states).to(input_dtype); Llama casts first)."""

    def __init__(self, hidden_size, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(hidden_size))
        self.variance_epsilon = eps

    def forward(self, hidden_states):
        input_dtype = hidden_states.dtype
        hidden_states = hidden_states.to(torch.float32)
        variance = hidden_states.pow(2).mean(-1, keepdim=True)
        hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        return (self.weight * hidden_states).to(input_dtype)


class GemmaRMSNorm(nn.Module):
    """Gemma2RMSNorm / Gemma3RMSNorm: computed on x.float(), times (1 + weight) in fp32, then
    type_as(x). The weight starts at zero."""

    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.zeros(dim))

    def _norm(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps)

    def forward(self, x):
        output = self._norm(x.float())
        output = output * (1.0 + self.weight.float())
        return output.type_as(x)


def norm_class(family):
    if family in ("gemma2", "gemma3"):
        return GemmaRMSNorm
    if family in ("olmo2", "gpt_oss"):
        return WeightFirstRMSNorm
    return LlamaRMSNorm  # Qwen3RMSNorm, Qwen3MoeRMSNorm, DeepseekV3RMSNorm: Llama's ops


class RotaryV457(nn.Module):
    """<Family>RotaryEmbedding (v4.57, default rope type: attention_scaling 1). Llama layout
    (cat(freqs, freqs)) except gpt-oss (emb = freqs, half width); the tables are cast to the
    input's dtype except OLMo 2's (Olmo2RotaryEmbedding returns fp32 cos/sin)."""

    def __init__(self, dim, base, duplicate=True, cast=True):
        super().__init__()
        inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.int64).float() / dim))
        self.register_buffer("inv_freq", inv_freq, persistent=False)
        self.duplicate, self.cast = duplicate, cast

    @torch.no_grad()
    def forward(self, x, position_ids):
        inv_freq_expanded = self.inv_freq[None, :, None].float().expand(position_ids.shape[0], -1, 1)
        position_ids_expanded = position_ids[:, None, :].float()
        with amp_suspended():  # torch.autocast(device_type, enabled=False)
            freqs = (inv_freq_expanded.float() @ position_ids_expanded.float()).transpose(1, 2)
            emb = torch.cat((freqs, freqs), dim=-1) if self.duplicate else freqs
            cos = emb.cos() * 1.0
            sin = emb.sin() * 1.0
        if not self.cast:
            return cos, sin
        return cos.to(dtype=x.dtype), sin.to(dtype=x.dtype)


def apply_rotary_olmo2(q, k, cos, sin):
    """modeling_olmo2.apply_rotary_pos_emb: Llama's rotation on fp32 tables, cast back to the
    inputs' dtypes."""
    q_type, k_type = q.dtype, k.dtype
    cos = cos.unsqueeze(1)
    sin = sin.unsqueeze(1)
    q_embed = (q * cos) + (rotate_half(q) * sin)
    k_embed = (k * cos) + (rotate_half(k) * sin)
    return q_embed.to(q_type), k_embed.to(k_type)


def _gpt_oss_rotate(x, cos, sin):
    first_half, second_half = torch.chunk(x, 2, dim=-1)
    first_ = first_half * cos - second_half * sin
    second_ = second_half * cos + first_half * sin
    return torch.cat((first_, second_), dim=-1)


def apply_rotary_gpt_oss(q, k, cos, sin):
    """modeling_gpt_oss.apply_rotary_pos_emb / _apply_rotary_emb (half-width tables, chunk)."""
    cos = cos.unsqueeze(1)
    sin = sin.unsqueeze(1)
    return _gpt_oss_rotate(q, cos, sin), _gpt_oss_rotate(k, cos, sin)


def apply_rotary_interleave(q, k, cos, sin):
    """modeling_deepseek_v3.apply_rotary_pos_emb_interleave (config.rope_interleave, the
    DeepseekV3Config default): de-interleave by view/transpose/reshape (a copy), then rotate."""
    cos = cos.unsqueeze(1)
    sin = sin.unsqueeze(1)
    b, h, s, d = q.shape
    q = q.view(b, h, s, d // 2, 2).transpose(4, 3).reshape(b, h, s, d)
    b, h, s, d = k.shape
    k = k.view(b, h, s, d // 2, 2).transpose(4, 3).reshape(b, h, s, d)
    q_embed = (q * cos) + (rotate_half(q) * sin)
    k_embed = (k * cos) + (rotate_half(k) * sin)
    return q_embed, k_embed


def mask_4d_v457(batch, seq, dtype, sliding_window=None):
    """masking_utils.create_causal_mask / create_sliding_window_causal_mask for eager attention
    (v4.57) without padding: a [b, 1, s, s] tensor in the compute dtype, 0 where attended and
    finfo.min elsewhere (eager_mask over sdpa_mask's boolean mask)."""
    q = torch.arange(seq)[:, None]
    kv = torch.arange(seq)[None, :]
    allowed = kv <= q
    if sliding_window:
        allowed = allowed & (kv > q - sliding_window)
    allowed = allowed[None, None].expand(batch, 1, seq, seq)
    zero = torch.tensor(0.0, dtype=dtype)
    return torch.where(allowed, zero, torch.finfo(dtype).min).to(dtype)


def eager_attention_v457(module, query, key, value, attention_mask, scaling, dropout_p,
                         softcap=None, sinks=None):
    """eager_attention_forward of modeling_<family>.py (v4.57): repeat_kv, scores * scaling;
    Gemma's tanh soft-capping before the mask; gpt-oss's learned sinks (a per-head logit
    concatenated to the scores, max subtracted, softmax in the scores' dtype, sink column
    dropped); otherwise softmax in fp32 cast back to the query's dtype. Returns [b, s, h, d]."""
    groups = query.shape[1] // key.shape[1]
    key_states = repeat_kv(key, groups)
    value_states = repeat_kv(value, groups)
    attn_weights = torch.matmul(query, key_states.transpose(2, 3)) * scaling
    if softcap:
        attn_weights = attn_weights / softcap
        attn_weights = torch.tanh(attn_weights)
        attn_weights = attn_weights * softcap
    if attention_mask is not None:
        attn_weights = attn_weights + attention_mask[:, :, :, : key_states.shape[-2]]
    if sinks is not None:
        sink_logits = sinks.reshape(1, -1, 1, 1).expand(query.shape[0], -1, query.shape[-2], -1)
        combined_logits = torch.cat([attn_weights, sink_logits], dim=-1)
        combined_logits = combined_logits - combined_logits.max(dim=-1, keepdim=True).values
        probs = F.softmax(combined_logits, dim=-1, dtype=combined_logits.dtype)
        attn_weights = probs[..., :-1]
    else:
        attn_weights = F.softmax(attn_weights, dim=-1, dtype=torch.float32).to(query.dtype)
    attn_weights = dropout(attn_weights, dropout_p, module.training)
    attn_output = torch.matmul(attn_weights, value_states)
    return attn_output.transpose(1, 2).contiguous()


def _sdpa_math_torch2(query, key, value, dropout_p, scale, is_causal):
    """torch 2.x _scaled_dot_product_attention_math, as SDPA runs it for fp32 inputs with
    enable_gqa (the memory-efficient kernel has no grouped K/V, flash no fp32): q and k each
    scaled by sqrt(scale), K/V repeated to every head (repeat_interleave on dim -3), scores,
    a float causal mask added in place, _safe_softmax (saves its result), dropout, matmul."""
    with amp_suspended():
        sf = math.sqrt(scale)
        q = query * sf
        rep = query.shape[1] // key.shape[1]
        b, hk, s_k, d = key.shape
        k_e = key[:, :, None].expand(b, hk, rep, s_k, d).reshape(b, hk * rep, s_k, d)
        dv = value.shape[-1]
        v_e = value[:, :, None].expand(b, hk, rep, s_k, dv).reshape(b, hk * rep, s_k, dv)
        attn = torch.matmul(q, k_e.transpose(-2, -1) * sf)
        if is_causal:
            s_q = q.shape[-2]
            keep = torch.ones(s_q, s_k, dtype=torch.bool).tril()
            mask = torch.zeros(s_q, s_k, dtype=q.dtype).masked_fill(~keep, float("-inf"))
            attn.add_(mask)
        attn = torch.softmax(attn, -1)
        attn = dropout(attn, dropout_p, True)
        return torch.matmul(attn, v_e)


def sdpa_attention_v457(module, query, key, value, attention_mask, dropout_p, scaling):
    """integrations/sdpa_attention.py sdpa_attention_forward (v4.57) with torch >= 2.5:
    use_gqa_in_sdpa (no mask) -> enable_gqa=True and K/V are not repeated; q, k, v made
    contiguous; then the kernel torch 2.x on CUDA picks: flash for 16-bit inputs with one head
    size <= 256 (grouped K/V allowed), the memory-efficient kernel when every head has its own
    K/V (fp32, or q/k and v head sizes differ, as in MLA), the math path otherwise (fp32 with
    grouped K/V). Returns [b, s, h, dv]."""
    if attention_mask is not None:
        raise ScenarioError("an explicit attention mask in sdpa is not emulated")
    groups = query.shape[1] // key.shape[1]
    query, key, value = query.contiguous(), key.contiguous(), value.contiguous()
    if _amp_on():  # scaled_dot_product_attention is on CUDA autocast's lower-precision list
        query, key, value = (_amp_cast(t, torch.bfloat16) for t in (query, key, value))
    is_causal = query.shape[2] > 1
    same_dims = query.shape[-1] == key.shape[-1] == value.shape[-1]
    if query.dtype in (torch.bfloat16, torch.float16) and same_dims and query.shape[-1] <= 256:
        kernel = "flash"
        out = EmulatedFusedAttention.apply(query, key, value, is_causal, float(dropout_p), scaling,
                                           "bhsd", 1)
    elif groups == 1:
        kernel = "efficient"
        out = EmulatedFusedAttention.apply(query, key, value, is_causal, float(dropout_p), scaling,
                                           "bhsd", 32)
    else:
        kernel = "math"
        out = _sdpa_math_torch2(query, key, value, dropout_p, scaling, is_causal)
    _SDPA_KERNELS.add(kernel)
    return out.transpose(1, 2).contiguous()


_SDPA_KERNELS = set()


def flash_attention_v457(module, query, key, value, dropout_p, scaling, weight_dtype):
    """integrations/flash_attention.py flash_attention_forward (v4.57): transpose to
    [b, s, h, d]; fp32 inputs cast to the autocast dtype or the first Linear's weight dtype
    (get_target_dtype / fa_peft_integration_check); _flash_attention_forward without padding ->
    flash_attn_func (grouped K/V as they are; sliding window and softcap are kernel arguments)."""
    query, key, value = query.transpose(1, 2), key.transpose(1, 2), value.transpose(1, 2)
    if query.dtype == torch.float32:
        target = torch.bfloat16 if is_autocast_enabled() else weight_dtype
        query, key, value = query.to(target), key.to(target), value.to(target)
    return flash_attn_func(query, key, value, dropout_p, softmax_scale=scaling, causal=True)


def attention_v457(module, query, key, value, attention_mask, scaling, softcap=None, sinks=None):
    s = module.s
    drop = s.dropout if module.training else 0.0
    if s.attention == "flash":
        return flash_attention_v457(module, query, key, value, drop, scaling,
                                    module.first_linear_weight_dtype())
    if s.attention == "sdpa":
        return sdpa_attention_v457(module, query, key, value, None, drop, scaling)
    return eager_attention_v457(module, query, key, value, attention_mask, scaling, drop,
                                softcap=softcap, sinks=sinks)


class AttentionV457(nn.Module):
    """Qwen3Attention, Qwen3MoeAttention, Gemma2Attention, Gemma3Attention, Olmo2Attention and
    GptOssAttention (v4.57), by family:
    - Qwen3 / Qwen3-MoE: q_norm / k_norm (Llama RMSNorm over head_dim) on the [b, s, h, d] view,
      before the transpose and the rotation;
    - Gemma 3: q_norm / k_norm (Gemma RMSNorm over head_dim) after the transpose;
    - OLMo 2: q_norm over the whole q projection (heads * head_dim), k_norm over kv_heads *
      head_dim, before the reshape to heads; rotation on fp32 tables, cast back;
    - Gemma 2: tanh soft-capping of the scores (eager); scaling query_pre_attn_scalar ** -0.5
      (= head_dim here);
    - gpt-oss: biases on q, k, v, o; learned sinks; half-width rotary tables."""

    def __init__(self, s, layer_idx):
        super().__init__()
        self.s = s
        self.head_dim = s.head_dim
        qkv_bias = s.bias or s.qkv_bias
        o_bias = s.bias or s.o_bias
        self.q_proj = nn.Linear(s.hidden, s.heads * s.head_dim, bias=qkv_bias)
        self.k_proj = nn.Linear(s.hidden, s.kv_heads * s.head_dim, bias=qkv_bias)
        self.v_proj = nn.Linear(s.hidden, s.kv_heads * s.head_dim, bias=qkv_bias)
        self.o_proj = nn.Linear(s.heads * s.head_dim, s.hidden, bias=o_bias)
        fam = s.family
        if s.qk_norm == "head":
            cls = GemmaRMSNorm if fam == "gemma3" else LlamaRMSNorm
            self.q_norm = cls(s.head_dim)
            self.k_norm = cls(s.head_dim)
        elif s.qk_norm == "full":
            self.q_norm = WeightFirstRMSNorm(s.heads * s.head_dim)
            self.k_norm = WeightFirstRMSNorm(s.kv_heads * s.head_dim)
        if s.attention_sinks:
            self.sinks = nn.Parameter(torch.empty(s.heads))
            nn.init.normal_(self.sinks, std=0.02)
        self.scaling = s.head_dim ** -0.5
        self.softcap = s.attention_softcap or None
        self.sliding = s.layer_is_sliding(layer_idx)

    def first_linear_weight_dtype(self):
        return self.q_proj.weight.dtype

    def forward(self, hidden_states, attention_mask, position_embeddings):
        s, fam = self.s, self.s.family
        input_shape = hidden_states.shape[:-1]
        hidden_shape = (*input_shape, -1, self.head_dim)
        if fam in ("qwen3", "qwen3_moe"):
            query_states = self.q_norm(self.q_proj(hidden_states).view(hidden_shape)).transpose(1, 2)
            key_states = self.k_norm(self.k_proj(hidden_states).view(hidden_shape)).transpose(1, 2)
            value_states = self.v_proj(hidden_states).view(hidden_shape).transpose(1, 2)
        elif fam == "olmo2":
            query_states = self.q_norm(self.q_proj(hidden_states))
            key_states = self.k_norm(self.k_proj(hidden_states))
            value_states = self.v_proj(hidden_states)
            query_states = query_states.view(hidden_shape).transpose(1, 2)
            key_states = key_states.view(hidden_shape).transpose(1, 2)
            value_states = value_states.view(hidden_shape).transpose(1, 2)
        else:
            query_states = self.q_proj(hidden_states).view(hidden_shape).transpose(1, 2)
            key_states = self.k_proj(hidden_states).view(hidden_shape).transpose(1, 2)
            value_states = self.v_proj(hidden_states).view(hidden_shape).transpose(1, 2)
            if fam == "gemma3":
                query_states = self.q_norm(query_states)
                key_states = self.k_norm(key_states)
        cos, sin = position_embeddings
        if fam == "olmo2":
            query_states, key_states = apply_rotary_olmo2(query_states, key_states, cos, sin)
        elif fam == "gpt_oss":
            query_states, key_states = apply_rotary_gpt_oss(query_states, key_states, cos, sin)
        else:
            query_states, key_states = apply_rotary_pos_emb(query_states, key_states, cos, sin)
        attn_output = attention_v457(self, query_states, key_states, value_states, attention_mask,
                                     self.scaling, softcap=self.softcap,
                                     sinks=self.sinks if s.attention_sinks else None)
        attn_output = attn_output.reshape(*input_shape, -1).contiguous()
        return self.o_proj(attn_output)


class MLAttention(nn.Module):
    """DeepseekV3Attention (v4.57), multi-head latent attention: q_proj, or q_a_proj ->
    q_a_layernorm -> q_b_proj; kv_a_proj_with_mqa -> split (kv_lora_rank | rope) ->
    kv_a_layernorm -> kv_b_proj -> split (nope | v); the rope parts rotated (interleaved
    layout), k_pe expanded to all heads, q and k concatenated; for flash_attention_2 v is padded
    to the q/k head size and the output cut back; o_proj."""

    def __init__(self, s, layer_idx):
        super().__init__()
        self.s = s
        mla = s.mla
        self.num_heads = s.heads
        self.q_lora_rank = mla["q_lora_rank"]
        self.qk_rope_head_dim = mla["qk_rope_head_dim"]
        self.kv_lora_rank = mla["kv_lora_rank"]
        self.v_head_dim = mla["v_head_dim"]
        self.qk_nope_head_dim = mla["qk_nope_head_dim"]
        self.qk_head_dim = mla["qk_head_dim"]
        attention_bias = s.qkv_bias  # config.attention_bias: q_a_proj, kv_a_proj_with_mqa, o_proj
        if self.q_lora_rank == 0:
            self.q_proj = nn.Linear(s.hidden, self.num_heads * self.qk_head_dim, bias=False)
        else:
            self.q_a_proj = nn.Linear(s.hidden, self.q_lora_rank, bias=attention_bias)
            self.q_a_layernorm = LlamaRMSNorm(self.q_lora_rank)
            self.q_b_proj = nn.Linear(self.q_lora_rank, self.num_heads * self.qk_head_dim, bias=False)
        self.kv_a_proj_with_mqa = nn.Linear(s.hidden, self.kv_lora_rank + self.qk_rope_head_dim,
                                            bias=attention_bias)
        self.kv_a_layernorm = LlamaRMSNorm(self.kv_lora_rank)
        self.kv_b_proj = nn.Linear(self.kv_lora_rank,
                                   self.num_heads * (self.qk_nope_head_dim + self.v_head_dim), bias=False)
        self.o_proj = nn.Linear(self.num_heads * self.v_head_dim, s.hidden, bias=s.o_bias)
        self.scaling = self.qk_head_dim ** (-0.5)  # no rope_scaling (yarn mscale) here

    def first_linear_weight_dtype(self):
        return self.kv_a_proj_with_mqa.weight.dtype

    def forward(self, hidden_states, attention_mask, position_embeddings):
        batch_size, seq_length = hidden_states.shape[:-1]
        query_shape = (batch_size, seq_length, -1, self.qk_head_dim)
        key_shape = (batch_size, seq_length, -1, self.qk_nope_head_dim + self.v_head_dim)
        if self.q_lora_rank == 0:
            q_states = self.q_proj(hidden_states)
        else:
            q_states = self.q_b_proj(self.q_a_layernorm(self.q_a_proj(hidden_states)))
        q_states = q_states.view(query_shape).transpose(1, 2)
        q_pass, q_rot = torch.split(q_states, [self.qk_nope_head_dim, self.qk_rope_head_dim], dim=-1)
        compressed_kv = self.kv_a_proj_with_mqa(hidden_states)
        k_pass, k_rot = torch.split(compressed_kv, [self.kv_lora_rank, self.qk_rope_head_dim], dim=-1)
        k_pass = self.kv_b_proj(self.kv_a_layernorm(k_pass)).view(key_shape).transpose(1, 2)
        k_pass, value_states = torch.split(k_pass, [self.qk_nope_head_dim, self.v_head_dim], dim=-1)
        k_rot = k_rot.view(batch_size, 1, seq_length, self.qk_rope_head_dim)
        cos, sin = position_embeddings
        q_rot, k_rot = apply_rotary_interleave(q_rot, k_rot, cos, sin)
        k_rot = k_rot.expand(*k_pass.shape[:-1], -1)
        query_states = torch.cat((q_pass, q_rot), dim=-1)
        key_states = torch.cat((k_pass, k_rot), dim=-1)
        flash = self.s.attention == "flash"
        if flash and self.qk_head_dim != self.v_head_dim:
            value_states = F.pad(value_states, [0, self.qk_head_dim - self.v_head_dim])
        attn_output = attention_v457(self, query_states, key_states, value_states, attention_mask,
                                     self.scaling)
        if flash and self.qk_head_dim != self.v_head_dim:
            attn_output = attn_output[:, :, :, : self.v_head_dim]
        attn_output = attn_output.reshape(batch_size, seq_length, -1).contiguous()
        return self.o_proj(attn_output)


class DeepseekV32Indexer(nn.Module):
    """DeepseekV32Indexer (transformers main, modeling_deepseek_v32.py 01f8fa55), under no_grad:
    wq_b on MLA's q_resid, wk + LayerNorm on the layer input, half-split rotation of the first
    qk_rope_head_dim, fp32 scores relu'd and weighted per head, the causal mask, top-k."""

    def __init__(self, s):
        super().__init__()
        ix = s.indexer
        self.n_heads, self.head_dim, self.index_topk = ix["heads"], ix["head_dim"], ix["top_k"]
        self.qk_rope_head_dim = s.mla["qk_rope_head_dim"]
        self.wq_b = nn.Linear(s.mla["q_lora_rank"], self.n_heads * self.head_dim, bias=False)
        self.wk = nn.Linear(s.hidden, self.head_dim, bias=False)
        self.k_norm = nn.LayerNorm(self.head_dim, eps=1e-6)
        self.weights_proj = nn.Linear(s.hidden, self.n_heads, bias=False)
        self.softmax_scale = self.head_dim ** -0.5

    @torch.no_grad()
    def forward(self, hidden_states, q_resid, position_embeddings, attention_mask):
        batch_size, seq_len, _ = hidden_states.shape
        cos, sin = position_embeddings
        q = self.wq_b(q_resid).view(batch_size, seq_len, self.n_heads, self.head_dim)
        q_rot, q_pass = torch.split(q, [self.qk_rope_head_dim, self.head_dim - self.qk_rope_head_dim], dim=-1)
        k = self.k_norm(self.wk(hidden_states)).unsqueeze(2)
        k_rot, k_pass = torch.split(k, [self.qk_rope_head_dim, self.head_dim - self.qk_rope_head_dim], dim=-1)
        q_rot, k_rot = apply_rotary_pos_emb(q_rot, k_rot, cos, sin, unsqueeze_dim=2)
        q = torch.cat([q_rot, q_pass], dim=-1)
        k = torch.cat([k_rot, k_pass], dim=-1).squeeze(2)
        scores = torch.matmul(q.float(), k.transpose(-1, -2).float().unsqueeze(1)) * self.softmax_scale
        scores = F.relu(scores)
        weights = self.weights_proj(hidden_states.to(self.weights_proj.weight.dtype)).float() * (self.n_heads ** -0.5)
        # [b, s, 1, H] @ [b, s, H, T]: the scores are [b, s, H, T] (q is [b, s, H, d])
        index_scores = torch.matmul(weights.unsqueeze(-2), scores).squeeze(-2)
        index_scores = index_scores + attention_mask
        topk = min(self.index_topk, index_scores.shape[-1])
        return index_scores.topk(topk, dim=-1).indices.to(torch.int32)


class DSAttention(MLAttention):
    """DeepseekV32Attention (transformers main, modeling_deepseek_v32.py 01f8fa55): DeepSeek-V3's
    MLA (q_a -> q_a_layernorm = q_resid -> q_b; interleaved rotation on even/odd slices; key
    states written into a new tensor by copy_) with the indexer's top-k folded into the eager
    attention mask (masked_fill of the float mask: no gradient, nothing saved)."""

    def __init__(self, s, layer_idx):
        super().__init__(s, layer_idx)
        self.indexer = DeepseekV32Indexer(s)

    def forward(self, hidden_states, attention_mask, position_embeddings):
        batch_size, seq_length = hidden_states.shape[:-1]
        query_shape = (batch_size, seq_length, -1, self.qk_head_dim)
        q_resid = self.q_a_layernorm(self.q_a_proj(hidden_states))
        q_states = self.q_b_proj(q_resid).view(query_shape).transpose(1, 2)
        q_pass, q_rot = torch.split(q_states, [self.qk_nope_head_dim, self.qk_rope_head_dim], dim=-1)
        compressed_kv = self.kv_a_proj_with_mqa(hidden_states)
        kv_pass, k_rot = torch.split(compressed_kv, [self.kv_lora_rank, self.qk_rope_head_dim], dim=-1)
        k_pass = self.kv_a_layernorm(kv_pass).view(batch_size, 1, seq_length, self.kv_lora_rank)
        k_rot = k_rot.view(batch_size, 1, seq_length, self.qk_rope_head_dim)
        cos, sin = position_embeddings
        cos_h = cos[..., : cos.shape[-1] // 2].unsqueeze(1)
        sin_h = sin[..., : sin.shape[-1] // 2].unsqueeze(1)
        q1, q2 = q_rot[..., 0::2], q_rot[..., 1::2]
        k1, k2 = k_rot[..., 0::2], k_rot[..., 1::2]
        q_rot = torch.cat([q1 * cos_h - q2 * sin_h, q2 * cos_h + q1 * sin_h], dim=-1)
        k_rot = torch.cat([k1 * cos_h - k2 * sin_h, k2 * cos_h + k1 * sin_h], dim=-1)
        query_states = torch.cat((q_pass, q_rot), dim=-1)
        key_shape = (batch_size, seq_length, -1, self.qk_nope_head_dim + self.v_head_dim)
        kv_nope = self.kv_b_proj(k_pass).view(key_shape).transpose(1, 2)
        k_nope, value_states = torch.split(kv_nope, [self.qk_nope_head_dim, self.v_head_dim], dim=-1)
        k_rot = k_rot.expand(-1, k_nope.shape[1], -1, -1)
        key_states = kv_nope.new_empty(*kv_nope.shape[:-1], self.qk_head_dim)
        key_states[..., : self.qk_nope_head_dim].copy_(k_nope)
        key_states[..., self.qk_nope_head_dim:].copy_(k_rot)
        topk_indices = self.indexer(hidden_states, q_resid, position_embeddings, attention_mask[:, 0, :, :])
        index_mask = (topk_indices.new_ones((batch_size, seq_length, key_states.shape[2]), dtype=torch.bool)
                      .scatter(-1, topk_indices.long(), False).unsqueeze(1))
        attention_mask = attention_mask.masked_fill(index_mask, torch.finfo(hidden_states.dtype).min)
        attn_output = eager_attention_v457(self, query_states, key_states, value_states, attention_mask,
                                           self.scaling, self.s.dropout if self.training else 0.0)
        attn_output = attn_output.reshape(batch_size, seq_length, -1).contiguous()
        return self.o_proj(attn_output)


class GatedMLP(nn.Module):
    """Qwen3MLP, Qwen3MoeMLP, DeepseekV3MLP, Olmo2MLP (SiLU) and Gemma2MLP / Gemma3MLP
    (gelu_pytorch_tanh): down_proj(act_fn(gate_proj(x)) * up_proj(x)), no biases."""

    def __init__(self, s, hidden, ffn):
        super().__init__()
        self.gate_proj = nn.Linear(hidden, ffn, bias=False)
        self.up_proj = nn.Linear(hidden, ffn, bias=False)
        self.down_proj = nn.Linear(ffn, hidden, bias=False)
        self.tanh_gelu = s.family in ("gemma2", "gemma3")

    def act_fn(self, x):
        return F.gelu(x, approximate="tanh") if self.tanh_gelu else F.silu(x)

    def forward(self, x):
        return self.down_proj(self.act_fn(self.gate_proj(x)) * self.up_proj(x))


class Qwen3MoeSparseMoeBlock(nn.Module):
    """Qwen3MoeSparseMoeBlock (v4.57): router gate linear, softmax over all experts in fp32,
    top-k, renormalised (norm_topk_prob) in place, cast to the input dtype; a loop over the
    experts hit, each on its gathered tokens, output * weight, index_add_ into a zero tensor."""

    def __init__(self, s):
        super().__init__()
        moe = s.moe
        self.num_experts = moe["experts"]
        self.top_k = moe["top_k"]
        self.norm_topk_prob = moe["normalize_top_k"]
        self.gate = nn.Linear(s.hidden, self.num_experts, bias=False)
        self.experts = nn.ModuleList(GatedMLP(s, s.hidden, moe["ffn"]) for _ in range(self.num_experts))

    def forward(self, hidden_states):
        batch_size, sequence_length, hidden_dim = hidden_states.shape
        hidden_states = hidden_states.view(-1, hidden_dim)
        router_logits = self.gate(hidden_states)
        routing_weights = F.softmax(router_logits, dim=1, dtype=torch.float)
        routing_weights, selected_experts = torch.topk(routing_weights, self.top_k, dim=-1)
        if self.norm_topk_prob:
            routing_weights /= routing_weights.sum(dim=-1, keepdim=True)
        routing_weights = routing_weights.to(hidden_states.dtype)
        _log_routing(selected_experts, self.num_experts)
        final_hidden_states = torch.zeros((batch_size * sequence_length, hidden_dim),
                                          dtype=hidden_states.dtype)
        expert_mask = F.one_hot(selected_experts, num_classes=self.num_experts).permute(2, 1, 0)
        expert_hit = torch.greater(expert_mask.sum(dim=(-1, -2)), 0).nonzero()
        for expert_idx in expert_hit:
            expert_layer = self.experts[expert_idx]
            idx, top_x = torch.where(expert_mask[expert_idx].squeeze(0))
            current_state = hidden_states[None, top_x].reshape(-1, hidden_dim)
            current_hidden_states = expert_layer(current_state) * routing_weights[top_x, idx, None]
            final_hidden_states.index_add_(0, top_x, current_hidden_states.to(hidden_states.dtype))
        return final_hidden_states.reshape(batch_size, sequence_length, hidden_dim)


class DeepseekV3TopkRouter(nn.Module):
    """DeepseekV3TopkRouter (v4.57): fp32 linear (input and weight cast with .type(float32)),
    sigmoid; e_score_correction_bias and group-limited top-k under no_grad; weights gathered
    from the scores, renormalised in place (norm_topk_prob), times routed_scaling_factor.
    n_group = topk_group = 1 here (the grouping is index arithmetic under no_grad)."""

    def __init__(self, s):
        super().__init__()
        moe = s.moe
        self.top_k = moe["top_k"]
        self.n_routed_experts = moe["experts"]
        self.routed_scaling_factor = 2.5
        self.n_group, self.topk_group = 1, 1
        self.norm_topk_prob = moe["normalize_top_k"]
        self.hidden = s.hidden
        self.weight = nn.Parameter(torch.empty(self.n_routed_experts, s.hidden))
        nn.init.normal_(self.weight, std=0.02)
        self.register_buffer("e_score_correction_bias", torch.zeros(self.n_routed_experts))

    @torch.no_grad()
    def get_topk_indices(self, scores):
        scores_for_choice = scores.view(-1, self.n_routed_experts) + self.e_score_correction_bias.unsqueeze(0)
        group_scores = (scores_for_choice.view(-1, self.n_group, self.n_routed_experts // self.n_group)
                        .topk(2, dim=-1)[0].sum(dim=-1))
        group_idx = torch.topk(group_scores, k=self.topk_group, dim=-1, sorted=False)[1]
        group_mask = torch.zeros_like(group_scores)
        group_mask.scatter_(1, group_idx, 1)
        score_mask = (group_mask.unsqueeze(-1)
                      .expand(-1, self.n_group, self.n_routed_experts // self.n_group)
                      .reshape(-1, self.n_routed_experts))
        scores_for_choice = scores_for_choice.masked_fill(~score_mask.bool(), 0.0)
        return torch.topk(scores_for_choice, k=self.top_k, dim=-1, sorted=False)[1]

    def forward(self, hidden_states):
        hidden_states = hidden_states.view(-1, self.hidden)
        weight = self.weight.type(torch.float32)
        if weight is not self.weight:
            _weight_copy(weight)
        router_logits = F.linear(hidden_states.type(torch.float32), weight)
        scores = router_logits.sigmoid()
        topk_indices = self.get_topk_indices(scores)
        topk_weights = scores.gather(1, topk_indices)
        if self.norm_topk_prob:
            denominator = topk_weights.sum(dim=-1, keepdim=True) + 1e-20
            topk_weights /= denominator
        topk_weights = topk_weights * self.routed_scaling_factor
        return topk_indices, topk_weights


class DeepseekV3MoE(nn.Module):
    """DeepseekV3MoE (v4.57): the router, a loop over every routed expert (those with tokens run
    on their gathered tokens; output * weight accumulated with index_add_ into an fp32 zero
    tensor, the weights' dtype), cast back, plus the shared experts as one MLP
    n_shared_experts * moe_intermediate_size wide on the block input."""

    def __init__(self, s):
        super().__init__()
        moe = s.moe
        self.experts = nn.ModuleList(GatedMLP(s, s.hidden, moe["ffn"]) for _ in range(moe["experts"]))
        self.gate = DeepseekV3TopkRouter(s)
        self.has_shared = moe["shared"] > 0
        if self.has_shared:
            self.shared_experts = GatedMLP(s, s.hidden, moe["shared"] * moe["shared_ffn"])

    def moe(self, hidden_states, topk_indices, topk_weights):
        final_hidden_states = torch.zeros_like(hidden_states, dtype=topk_weights.dtype)
        expert_mask = F.one_hot(topk_indices, num_classes=len(self.experts))
        expert_mask = expert_mask.permute(2, 0, 1)
        for expert_idx in range(len(self.experts)):
            expert = self.experts[expert_idx]
            mask = expert_mask[expert_idx]
            token_indices, weight_indices = torch.where(mask)
            if token_indices.numel() > 0:
                expert_weights = topk_weights[token_indices, weight_indices]
                expert_input = hidden_states[token_indices]
                expert_output = expert(expert_input)
                weighted_output = expert_output * expert_weights.unsqueeze(-1)
                final_hidden_states.index_add_(0, token_indices, weighted_output)
        return final_hidden_states.type(hidden_states.dtype)

    def forward(self, hidden_states):
        residuals = hidden_states
        orig_shape = hidden_states.shape
        topk_indices, topk_weights = self.gate(hidden_states)
        _log_routing(topk_indices, len(self.experts))
        hidden_states = hidden_states.view(-1, hidden_states.shape[-1])
        hidden_states = self.moe(hidden_states, topk_indices, topk_weights).view(*orig_shape)
        if self.has_shared:
            hidden_states = hidden_states + self.shared_experts(residuals)
        return hidden_states


class GptOssTopKRouter(nn.Module):
    """GptOssTopKRouter (v4.57): linear with bias, top-k of the logits, softmax over the top-k
    in their dtype, scattered into a [tokens, experts] score tensor."""

    def __init__(self, s):
        super().__init__()
        self.top_k = s.moe["top_k"]
        self.num_experts = s.moe["experts"]
        self.hidden_dim = s.hidden
        self.weight = nn.Parameter(torch.empty(self.num_experts, s.hidden))
        self.bias = nn.Parameter(torch.empty(self.num_experts))
        nn.init.normal_(self.weight, std=0.02)
        nn.init.normal_(self.bias, std=0.02)

    def forward(self, hidden_states):
        hidden_states = hidden_states.reshape(-1, self.hidden_dim)
        router_logits = F.linear(hidden_states, self.weight, self.bias)
        router_top_value, router_indices = torch.topk(router_logits, self.top_k, dim=-1)
        router_top_value = F.softmax(router_top_value, dim=1, dtype=router_top_value.dtype)
        router_scores = torch.zeros_like(router_logits).scatter_(1, router_indices, router_top_value)
        return router_scores, router_indices


class GptOssExperts(nn.Module):
    """GptOssExperts (v4.57.1) in training (and on the CPU): a loop over the experts hit;
    gate_up = x @ gate_up_proj[e] + bias, gate / up interleaved (::2, 1::2), clamped,
    glu = gate * sigmoid(gate * alpha), (up + 1) * glu @ down_proj[e] + bias, times the routing
    weight, index_add_ into a zero tensor. Expert weights are 3-D parameters indexed with a
    0-dim tensor (a view)."""

    def __init__(self, s):
        super().__init__()
        E, h, f = s.moe["experts"], s.hidden, s.moe["ffn"]
        self.num_experts, self.hidden_size = E, h
        self.gate_up_proj = nn.Parameter(torch.empty(E, h, 2 * f))
        self.gate_up_proj_bias = nn.Parameter(torch.empty(E, 2 * f))
        self.down_proj = nn.Parameter(torch.empty(E, f, h))
        self.down_proj_bias = nn.Parameter(torch.empty(E, h))
        for p in self.parameters():
            nn.init.normal_(p, std=0.02)
        self.alpha = 1.702
        self.limit = 7.0

    def forward(self, hidden_states, router_indices, routing_weights):
        batch_size = hidden_states.shape[0]
        hidden_states = hidden_states.reshape(-1, self.hidden_size)
        num_experts = routing_weights.shape[1]
        next_states = torch.zeros_like(hidden_states, dtype=hidden_states.dtype)
        with torch.no_grad():
            expert_mask = F.one_hot(router_indices, num_classes=num_experts + 1)
            expert_mask = expert_mask.permute(2, 1, 0)
            expert_hit = torch.greater(expert_mask.sum(dim=(-1, -2)), 0).nonzero()
        for expert_idx in expert_hit[:]:
            expert_idx = expert_idx[0]
            if expert_idx == num_experts:
                continue
            with torch.no_grad():
                _, token_idx = torch.where(expert_mask[expert_idx])
            current_state = hidden_states[token_idx]
            gate_up = current_state @ self.gate_up_proj[expert_idx] + self.gate_up_proj_bias[expert_idx]
            gate, up = gate_up[..., ::2], gate_up[..., 1::2]
            gate = gate.clamp(min=None, max=self.limit)
            up = up.clamp(min=-self.limit, max=self.limit)
            glu = gate * torch.sigmoid(gate * self.alpha)
            gated_output = (up + 1) * glu
            out = gated_output @ self.down_proj[expert_idx] + self.down_proj_bias[expert_idx]
            weighted_output = out * routing_weights[token_idx, expert_idx, None]
            next_states.index_add_(0, token_idx, weighted_output.to(hidden_states.dtype))
        return next_states.view(batch_size, -1, self.hidden_size)


class GptOssMLP(nn.Module):
    """GptOssMLP: router, then experts (router scores returned for the aux loss, unused)."""

    def __init__(self, s):
        super().__init__()
        self.router = GptOssTopKRouter(s)
        self.experts = GptOssExperts(s)

    def forward(self, hidden_states):
        router_scores, router_indices = self.router(hidden_states)
        _log_routing(router_indices, self.router.num_experts)
        return self.experts(hidden_states, router_indices=router_indices, routing_weights=router_scores)


class DecoderLayerV457(nn.Module):
    """<Family>DecoderLayer (v4.57), by family:
    - Qwen3, Qwen3-MoE, DeepSeek-V3, gpt-oss: pre-norm (input_layernorm, post_attention_layernorm);
    - Gemma 2 / 3: input_layernorm, attention, post_attention_layernorm, residual add;
      pre_feedforward_layernorm, MLP, post_feedforward_layernorm, residual add;
    - OLMo 2: no pre-norms: post_attention_layernorm and post_feedforward_layernorm on the
      sublayer outputs before the residual adds."""

    def __init__(self, s, layer_idx):
        super().__init__()
        self.s = s
        fam = s.family
        norm = norm_class(fam)
        if fam == "deepseek_v32":
            self.self_attn = DSAttention(s, layer_idx)
        else:
            self.self_attn = MLAttention(s, layer_idx) if s.mla else AttentionV457(s, layer_idx)
        if s.layer_is_moe(layer_idx):
            self.mlp = {"qwen3_moe": Qwen3MoeSparseMoeBlock, "deepseek_v3": DeepseekV3MoE,
                        "gpt_oss": GptOssMLP}[fam](s)
        else:
            self.mlp = GatedMLP(s, s.hidden, s.ffn)
        self.sliding = s.layer_is_sliding(layer_idx)
        if fam == "olmo2":
            self.post_attention_layernorm = norm(s.hidden)
            self.post_feedforward_layernorm = norm(s.hidden)
        else:
            self.input_layernorm = norm(s.hidden)
            self.post_attention_layernorm = norm(s.hidden)
            if fam in ("gemma2", "gemma3"):
                self.pre_feedforward_layernorm = norm(s.hidden)
                self.post_feedforward_layernorm = norm(s.hidden)

    def forward(self, hidden_states, attention_mask=None, position_embeddings=None):
        fam = self.s.family
        if fam == "olmo2":
            residual = hidden_states
            hidden_states = self.self_attn(hidden_states, attention_mask, position_embeddings)
            hidden_states = self.post_attention_layernorm(hidden_states)
            hidden_states = residual + hidden_states
            residual = hidden_states
            hidden_states = self.mlp(hidden_states)
            hidden_states = self.post_feedforward_layernorm(hidden_states)
            return residual + hidden_states
        if fam in ("gemma2", "gemma3"):
            residual = hidden_states
            hidden_states = self.input_layernorm(hidden_states)
            hidden_states = self.self_attn(hidden_states, attention_mask, position_embeddings)
            hidden_states = self.post_attention_layernorm(hidden_states)
            hidden_states = residual + hidden_states
            residual = hidden_states
            hidden_states = self.pre_feedforward_layernorm(hidden_states)
            hidden_states = self.mlp(hidden_states)
            hidden_states = self.post_feedforward_layernorm(hidden_states)
            return residual + hidden_states
        residual = hidden_states
        hidden_states = self.input_layernorm(hidden_states)
        hidden_states = self.self_attn(hidden_states, attention_mask, position_embeddings)
        hidden_states = residual + hidden_states
        residual = hidden_states
        hidden_states = self.post_attention_layernorm(hidden_states)
        hidden_states = self.mlp(hidden_states)
        return residual + hidden_states


def for_causal_lm_loss(logits, labels, vocab_size, ignore_index=-100):
    """loss/loss_utils.py ForCausalLMLoss (v4.57): logits.float() (a copy for 16-bit logits),
    labels padded with ignore_index and shifted (no slicing of the logits), cross_entropy with
    reduction mean (no num_items_in_batch in a plain step)."""
    logits = logits.float()
    labels = F.pad(labels, (0, 1), value=ignore_index)
    shift_labels = labels[..., 1:].contiguous()
    logits = logits.view(-1, vocab_size)
    shift_labels = shift_labels.view(-1)
    return F.cross_entropy(logits, shift_labels, ignore_index=ignore_index, reduction="mean")


class CausalLMV457(nn.Module):
    """<Family>ForCausalLM with <Family>Model inside (v4.57): embed_tokens (Gemma 2: times a
    normaliser sqrt(h) made in the compute dtype; Gemma 3: Gemma3TextScaledWordEmbedding, times
    the embed_scale buffer cast to the weights' dtype), the masks once per layer type, the rotary
    tables once (Gemma 3: a global and a local table), the layers, the final norm, lm_head
    (Gemma: tanh soft-capping of the logits), self.loss_function."""

    def __init__(self, s):
        super().__init__()
        self.s = s
        fam = s.family
        self.embed_tokens = nn.Embedding(s.vocab, s.hidden)
        if fam == "gemma3":
            self.register_buffer("embed_scale", torch.tensor(s.hidden ** 0.5), persistent=False)
        self.layers = nn.ModuleList(DecoderLayerV457(s, i) for i in range(s.layers))
        self.norm = norm_class(fam)(s.hidden)
        if s.mla:
            self.rotary_emb = RotaryV457(s.mla["qk_rope_head_dim"], 10000.0)
        elif fam == "gpt_oss":
            self.rotary_emb = RotaryV457(s.head_dim, 150000.0, duplicate=False)
        elif fam == "olmo2":
            self.rotary_emb = RotaryV457(s.head_dim, 500000.0, cast=False)
        elif fam == "gemma3":
            self.rotary_emb = RotaryV457(s.head_dim, 1000000.0)
            self.rotary_emb_local = RotaryV457(s.head_dim, 10000.0)
        else:
            self.rotary_emb = RotaryV457(s.head_dim, 1000000.0 if fam.startswith("qwen3") else 10000.0)
        self.lm_head = nn.Linear(s.hidden, s.vocab, bias=s.lm_head_bias)
        if s.tied:
            self.lm_head.weight = self.embed_tokens.weight

    def input_embeddings(self):
        return self.embed_tokens

    def forward(self, input_ids, labels):
        s, fam = self.s, self.s.family
        with region("embed"):
            inputs_embeds = self.embed_tokens(input_ids)
            if fam == "gemma3":
                inputs_embeds = inputs_embeds * self.embed_scale.to(self.embed_tokens.weight.dtype)
            position_ids = torch.arange(inputs_embeds.shape[1]).unsqueeze(0)
            masks = {False: None, True: None}
            if s.attention == "eager":
                b, n = input_ids.shape
                masks[False] = mask_4d_v457(b, n, inputs_embeds.dtype)
                if any(layer.sliding for layer in self.layers):
                    masks[True] = mask_4d_v457(b, n, inputs_embeds.dtype, s.sliding_window)
            hidden_states = inputs_embeds
            pos_global = self.rotary_emb(hidden_states, position_ids)
            pos_local = self.rotary_emb_local(hidden_states, position_ids) if fam == "gemma3" else None
            if fam == "gemma2":
                normalizer = torch.tensor(s.hidden ** 0.5, dtype=hidden_states.dtype)
                hidden_states = hidden_states * normalizer
        for i, layer in enumerate(self.layers):
            with region(f"layer{i}"):
                pos = pos_local if (fam == "gemma3" and layer.sliding) else pos_global
                hidden_states = run_layer_v457(layer, s.recompute == "full", self.training, hidden_states,
                                               attention_mask=masks[layer.sliding],
                                               position_embeddings=pos)
        with region("final"):
            hidden_states = self.norm(hidden_states)
        with region("head"):
            logits = self.lm_head(hidden_states)
            if s.final_softcap:
                logits = logits / s.final_softcap
                logits = torch.tanh(logits)
                logits = logits * s.final_softcap
        with region("loss"):
            loss = for_causal_lm_loss(logits, labels, s.vocab)
        return loss, logits


# --------------------------------------------------------------------------------------------
# LoRA (PEFT v0.12-0.13, tuners/lora/layer.py Linear).
# --------------------------------------------------------------------------------------------

class LoraLinear(nn.Module):
    """peft.tuners.lora.layer.Linear wrapping nn.Linear or transformers' Conv1D
    (fan_in_fan_out): result = base_layer(x) + lora_B(lora_A(lora_dropout(x))) * scaling, with x
    first cast to the adapter weights' dtype. lora_dropout is nn.Dropout(p) when p > 0, else
    nn.Identity. Adapters are fp32: PEFT >= 0.12's get_peft_model(autocast_adapter_dtype=True)
    casts bf16/fp16 adapters to fp32 (older PEFT kept them in the base layer's dtype)."""

    def __init__(self, base_layer, r, lora_alpha, lora_dropout, adapter_dtype):
        super().__init__()
        self.base_layer = base_layer
        if isinstance(base_layer, Conv1D):
            in_features, out_features = base_layer.weight.shape
        else:
            out_features, in_features = base_layer.weight.shape
        self.lora_dropout = Dropout(lora_dropout) if lora_dropout > 0.0 else nn.Identity()
        self.lora_A = nn.Linear(in_features, r, bias=False).to(adapter_dtype)
        self.lora_B = nn.Linear(r, out_features, bias=False).to(adapter_dtype)
        nn.init.zeros_(self.lora_B.weight)
        self.scaling = lora_alpha / r

    @property
    def weight(self):  # BaseTunerLayer.weight: transformers code reads self.q_proj.weight
        return self.base_layer.weight

    def forward(self, x):
        result = self.base_layer(x)
        torch_result_dtype = result.dtype
        x = x.to(self.lora_A.weight.dtype)
        result = result + self.lora_B(self.lora_A(self.lora_dropout(x))) * self.scaling
        result = result.to(torch_result_dtype)
        return result


def apply_lora(model, s, adapter_dtype):
    """get_peft_model(model, LoraConfig(r, target_modules, lora_dropout)): every module whose name
    is, or ends with '.' + , a target is wrapped; everything else is frozen."""
    for p in model.parameters():
        p.requires_grad_(False)
    targets = set(s.lora_targets)
    replaced = []
    for name, module in list(model.named_modules()):
        for child_name, child in list(module.named_children()):
            if child_name in targets and isinstance(child, (nn.Linear, Conv1D)):
                setattr(module, child_name, LoraLinear(child, s.lora_rank, 16.0, s.lora_dropout, adapter_dtype))
                replaced.append(f"{name}.{child_name}" if name else child_name)
    if not replaced:
        raise ScenarioError(f"training.finetune.lora_targets: none of {sorted(targets)} is a "
                            f"linear layer of a {s.family} model")
    return replaced


def enable_input_require_grads(model):
    """PreTrainedModel.enable_input_require_grads: with a frozen embedding and reentrant
    checkpointing, transformers/PEFT make the embedding output require grad."""
    def hook(module, inputs, output):
        output.requires_grad_(True)
    model.input_embeddings().register_forward_hook(hook)


# --------------------------------------------------------------------------------------------
# Measurement.
# --------------------------------------------------------------------------------------------

def build_model(s, lora_adapter_dtype="fp32"):
    torch.manual_seed(0)
    cls = {
        "llama": LlamaForCausalLM, "mistral": LlamaForCausalLM, "qwen2": LlamaForCausalLM,
        "gpt2": GPT2LMHeadModel, "bert": BertModelForTask, "phi": PhiForCausalLM,
        "gpt_neox": GPTNeoXForCausalLM,
    }.get(s.family, CausalLMV457)
    if s.hybrid:
        model = hybrid_blocks.HybridCausalLM(s, run_layer_v457, region, for_causal_lm_loss,
                                             attention_fn=sdpa_attention_v457)
    else:
        model = cls(s)
    if s.precision == "bf16":
        model = model.to(torch.bfloat16)  # from_pretrained(torch_dtype=torch.bfloat16)
    lora_modules = []
    if s.finetune == "lora":
        dtype = torch.float32 if lora_adapter_dtype == "fp32" else s.compute_dtype
        lora_modules = apply_lora(model, s, dtype)
        if s.recompute == "full":
            enable_input_require_grads(model)
    model.train()
    return model, lora_modules


def make_optimizer(s, params):
    if s.optimizer == "sgd":
        return torch.optim.SGD(params, lr=1e-4)
    if s.optimizer == "sgd_momentum":
        return torch.optim.SGD(params, lr=1e-4, momentum=0.9)
    if s.optimizer == "adam":
        return torch.optim.Adam(params, lr=1e-4)
    return torch.optim.AdamW(params, lr=1e-4, weight_decay=0.0)


def _storage_key(t):
    st = t.storage()
    return st.data_ptr(), st.nbytes()


class SavedTensorRecorder:
    """pack hook of torch.autograd.graph.saved_tensors_hooks: records the storage of every tensor
    autograd saves, with the region of the model that saved it. The tensors are kept referenced so
    that no storage address can be reused while recording."""

    def __init__(self):
        self.storages = {}  # ptr -> {"nbytes", "dtype", "shape", "regions": set()}
        self.keep = []

    def pack(self, t):
        ptr, nbytes = _storage_key(t)
        # A Python number in an op (x / 8.0) is saved as a 0-dim float64 "wrapped number" that
        # stays on the CPU in a CUDA run: not device memory.
        wrapped_number = t.dim() == 0 and t.dtype == torch.float64
        if nbytes > 0 and not wrapped_number:
            rec = self.storages.setdefault(ptr, {"nbytes": nbytes, "dtype": str(t.dtype).replace("torch.", ""),
                                                 "shape": list(t.shape), "regions": set(), "ops": set()})
            rec["regions"].add(_REGION[0])
            self.keep.append(t)
        return t

    @staticmethod
    def unpack(t):
        return t


def _walk_saved(roots):
    """Which autograd nodes save which storage: node name and saved-field name, for the report."""
    names = {}
    seen = {}  # id -> node: the node objects are kept alive so that no id is reused
    stack = [r for r in roots if r is not None]
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen[id(node)] = node
        fields = []
        try:
            saved = getattr(node, "saved_tensors", None)  # custom autograd Functions
            if isinstance(saved, tuple):
                fields += [(f"saved{i}", t) for i, t in enumerate(saved)]
        except RuntimeError:
            pass
        for attr in dir(node):
            if attr.startswith("_saved_"):
                try:
                    val = getattr(node, attr)
                except RuntimeError:
                    continue
                if isinstance(val, torch.Tensor):
                    fields.append((attr[len("_saved_"):], val))
                elif isinstance(val, (tuple, list)):
                    fields += [(f"{attr[len('_saved_'):]}{i}", v) for i, v in enumerate(val)
                               if isinstance(v, torch.Tensor)]
        for field, t in fields:
            if t.numel() == 0 and t.dim() == 0:
                continue
            ptr, _ = _storage_key(t)
            names.setdefault(ptr, set()).add(f"{node.name()}.{field}")
        for nxt, _ in node.next_functions:
            if nxt is not None:
                stack.append(nxt)
    return names


# Saved by torch 1.13's autograd but not by torch 2.x's (see measure()).
TORCH113_ONLY_SAVES = {"MeanBackward1.self"}


def make_batch(s):
    g = torch.Generator().manual_seed(1)
    input_ids = torch.randint(1, s.vocab, (s.batch, s.seq), generator=g)
    if s.family == "bert" and s.head == "classifier":
        labels = torch.randint(0, s.classifier_labels, (s.batch,), generator=g)
    else:
        labels = input_ids.clone()
    return input_ids, labels


def measure(s, lora_adapter_dtype="fp32"):
    """One training step. Returns a dict with the three metrics and their details."""
    model, lora_modules = build_model(s, lora_adapter_dtype)
    params = [p for p in model.parameters() if p.requires_grad]
    optimizer = make_optimizer(s, params)
    excluded = set()
    for t in list(model.parameters()) + list(model.buffers()):
        excluded.add(t.storage().data_ptr())
    input_ids, labels = make_batch(s)
    _AMP["weight_copy_ptrs"] = set()
    _AMP["weight_copies"] = []
    rec = SavedTensorRecorder()
    amp = s.precision == "amp_bf16"
    _MOE_LOG["calls"] = []
    _SDPA_KERNELS.clear()
    with cuda_autocast(amp):
        with torch.autograd.graph.saved_tensors_hooks(rec.pack, rec.unpack):
            _MOE_LOG["active"] = True
            try:
                loss, logits = model(input_ids, labels)
            finally:
                _MOE_LOG["active"] = False
        ops = _walk_saved([loss.grad_fn])
        held = {"logits": logits, "loss": loss, "input_ids": input_ids, "labels": labels}
        weight_copies = set(_AMP["weight_copy_ptrs"])
    loss.backward()  # outside autocast, as transformers' Trainer / accelerate do
    optimizer.step()
    _AMP["weight_copies"] = []

    # Corrections from torch 1.13 on the CPU to torch 2.x on CUDA:
    # - mean.dim's backward saves its input in 1.13; in 2.x it keeps only sizes and numel
    #   (derivatives.yaml: mean_backward(grad, self.sym_sizes(), dim, self.sym_numel(), keepdim)).
    # - LayerNorm statistics: CUDA keeps mean/rstd of 16-bit inputs in fp32, the CPU kernel in bf16.
    torch113_only = 0
    for ptr in list(rec.storages):
        r = rec.storages[ptr]
        r["ops"] = sorted(ops.get(ptr, []))
        if r["ops"] and all(o in TORCH113_ONLY_SAVES for o in r["ops"]):
            torch113_only += r["nbytes"]
            del rec.storages[ptr]
            continue
        r["bytes"] = r["nbytes"]
        if r["dtype"] in ("bfloat16", "float16") and r["ops"] and all(
                o.startswith("NativeLayerNormBackward0.result") for o in r["ops"]):
            r["bytes"] = r["nbytes"] * 2
            r["cuda_correction"] = "layer_norm statistics are fp32 on CUDA"

    def counted(ptr):
        return ptr not in excluded and ptr not in weight_copies

    mid = s.layers // 2
    mid_region = f"layer{mid}"
    own, shared, tensors = 0, 0, []
    linear_bytes, quadratic_bytes = 0, 0
    # gpt-oss's sinks make the probabilities [b, heads, s, s + 1]
    seq_dims = (s.seq, s.seq + 1) if getattr(s, "attention_sinks", False) else (s.seq,)
    mid_weight_copies = 0
    for ptr, r in rec.storages.items():
        if mid_region in r["regions"] and ptr in weight_copies and ptr not in excluded:
            mid_weight_copies += r["bytes"]
        if mid_region not in r["regions"] or not counted(ptr):
            continue
        entry = {"bytes": r["bytes"], "dtype": r["dtype"], "shape": r["shape"], "saved_by": r["ops"]}
        if len(r["regions"]) > 1:
            shared += r["bytes"]
            entry["shared_with"] = sorted(r["regions"] - {mid_region})
        else:
            own += r["bytes"]
            if sum(1 for d in r["shape"] if d in seq_dims) >= 2:
                quadratic_bytes += r["bytes"]
            else:
                linear_bytes += r["bytes"]
        tensors.append(entry)
    tensors.sort(key=lambda e: -e["bytes"])

    total = 0
    by_region = {}
    seen = set()
    for ptr, r in rec.storages.items():
        if not counted(ptr):
            continue
        seen.add(ptr)
        total += r["bytes"]
        key = "layers" if all(g.startswith("layer") for g in r["regions"]) and len(r["regions"]) == 1 \
            else ("shared_by_layers" if all(g.startswith("layer") for g in r["regions"])
                  else "+".join(sorted(r["regions"])))
        by_region[key] = by_region.get(key, 0) + r["bytes"]
    held_bytes = {}
    for name, t in held.items():
        ptr, nbytes = _storage_key(t)
        if ptr in seen or not counted(ptr):
            continue
        seen.add(ptr)
        total += nbytes
        held_bytes[name] = nbytes

    copies = sum(r["bytes"] for ptr, r in rec.storages.items() if ptr in weight_copies)

    states = 0
    seen_states = set()
    n_params, n_trainable = 0, 0
    parts = {"parameters": 0, "gradients": 0, "optimizer_states": 0}
    for p in model.parameters():
        ptr, nbytes = _storage_key(p)
        n_params += p.numel()
        if p.requires_grad:
            n_trainable += p.numel()
        if ptr not in seen_states:
            seen_states.add(ptr)
            parts["parameters"] += nbytes
        if p.grad is not None:
            gptr, gbytes = _storage_key(p.grad)
            if gptr not in seen_states:
                seen_states.add(gptr)
                parts["gradients"] += gbytes
    for st in optimizer.state.values():
        for v in st.values():
            if isinstance(v, torch.Tensor):
                ptr, nbytes = _storage_key(v)
                if ptr not in seen_states:
                    seen_states.add(ptr)
                    parts["optimizer_states"] += nbytes
    states = sum(parts.values())

    bsh = s.batch * s.seq * s.hidden
    abss = s.batch * s.heads * s.seq * s.seq
    extra_layer, extra_total = {}, {}
    if s.v457 or s.hybrid:
        extra_layer["weight_copies_bytes"] = mid_weight_copies
        if _SDPA_KERNELS:
            extra_layer["sdpa_kernel"] = sorted(_SDPA_KERNELS)
        if _MOE_LOG["calls"]:
            calls = _MOE_LOG["calls"]
            for c in calls:
                if sum(c["tokens_per_expert"]) != c["tokens"] * c["top_k"]:
                    raise RuntimeError(f"routing in {c['region']}: {sum(c['tokens_per_expert'])} "
                                       f"dispatched, expected {c['tokens'] * c['top_k']}")
            mid_calls = [c for c in calls if c["region"] == mid_region]
            if mid_calls:
                extra_layer["moe_routing"] = mid_calls[0]
            extra_total["moe_routing_by_layer"] = calls
    return {
        "saved_per_layer": own,
        "saved_total": total,
        "model_states": states,
        "per_layer_detail": {
            "layer": mid,
            "own_bytes": own,
            "shared_with_other_blocks_bytes": shared,
            "linear_in_s_bytes": linear_bytes,
            "quadratic_in_s_bytes": quadratic_bytes,
            "units_bsh": round(linear_bytes / bsh, 4),
            "units_abss": round(quadratic_bytes / abss, 4),
            **extra_layer,
            "tensors": tensors,
        },
        "total_detail": {
            "by_region_bytes": by_region,
            "held_by_training_loop_bytes": held_bytes,
            "excluded_autocast_weight_copies_bytes": copies,
            "dropped_torch113_only_saves_bytes": torch113_only,
            **extra_total,
        },
        "states_detail": dict(parts, parameters_count=n_params, trainable_count=n_trainable),
        "lora_modules": lora_modules,
    }


def _script_commit():
    try:
        head = subprocess.run(["git", "-C", REPO_ROOT, "rev-parse", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", REPO_ROOT, "status", "--porcelain", "--", SCRIPT_PATH],
                               capture_output=True, text=True).stdout.strip()
        return head + ("+dirty" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def _slug(text):
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def describe_v457(s):
    """Notes for the families built after transformers v4.57."""
    notes = [f"CPU, torch {torch.__version__}; model code written after transformers v4.57 "
             f"({s.family}, attention '{s.attention}'); loss as ForCausalLMLoss (fp32 upcast inside "
             f"the loss, the model returns {'bf16' if s.precision == 'bf16' else 'the compute dtype'} logits)"]
    if s.attention == "sdpa":
        notes.append("sdpa as transformers v4.57 with torch >= 2.5 (no mask: enable_gqa, K/V not "
                     "repeated; q, k, v made contiguous); kernel torch 2.x picks on CUDA: "
                     + ", ".join(sorted(_SDPA_KERNELS)) + " (flash / memory-efficient emulated by a "
                     "custom autograd Function saving q, k, v, output, fp32 logsumexp (padded to 32 "
                     "for the memory-efficient kernel) and the RNG state; the math path with real ops)")
    if s.attention == "flash":
        notes.append("flash_attention_2 emulated: flash_attn's FlashAttnFunc saves q, k, v as passed "
                     "([b, s, heads, d], grouped K/V), out, fp32 softmax_lse [b, heads, s], rng_state")
    if s.moe:
        m = s.moe
        notes.append(f"MoE: {m['experts']} experts (top-{m['top_k']}, expert width {m['ffn']}); random "
                     "router weights route unevenly, the tokens each expert got are in "
                     "detail.moe_routing; the per-expert saves sum exactly over the dispatched tokens")
    if s.dropout > 0 or (s.finetune == "lora" and s.lora_dropout > 0):
        notes.append("dropout through torch.native_dropout, which keeps a bool mask as CUDA does")
    if s.precision == "amp_bf16":
        notes.append("CUDA autocast (bf16) emulated by a TorchFunctionMode with torch 2.x's op "
                     "lists; 16-bit weight copies that autocast makes (also of one expert's slice of "
                     "a 3-D expert weight) are excluded (see detail)")
    if s.finetune == "lora":
        notes.append(f"LoRA as PEFT Linear (adapters fp32, lora_dropout {s.lora_dropout}, "
                     f"rank {s.lora_rank}, targets {', '.join(s.lora_targets)})")
    if s.recompute == "full":
        notes.append("GradientCheckpointingLayer: each block under torch.utils.checkpoint.checkpoint"
                     "(use_reentrant=True) with hidden_states the only positional argument")
    return "; ".join(notes)


def describe(s):
    """Notes common to every entry of one scenario."""
    if s.hybrid:
        return hybrid_blocks.describe(s, torch.__version__)
    if s.v457:
        return describe_v457(s)
    notes = [f"CPU, torch {torch.__version__}; model code written after transformers v4.45 "
             f"({s.family}, attention '{s.attention}')"]
    if s.attention in ("sdpa", "flash"):
        notes.append("the fused attention kernel is emulated by a custom autograd Function that "
                     "saves what torch 2.x's flash/memory-efficient SDPA node "
                     + ("(transformers sdpa path: K/V repeated to all heads)" if s.attention == "sdpa"
                        else "or flash_attn's FlashAttnFunc saves (flash_attention_2 path: grouped K/V)")
                     + ": q, k, v, output, fp32 logsumexp [b, heads, s] and the RNG state")
    if s.dropout > 0 or (s.finetune == "lora" and s.lora_dropout > 0):
        notes.append("dropout through torch.native_dropout, which keeps a bool mask as CUDA does")
    if s.precision == "amp_bf16":
        notes.append("CUDA autocast (bf16) emulated by a TorchFunctionMode with torch 2.x's op "
                     "lists; 16-bit weight copies that autocast makes are excluded (see detail)")
    if s.finetune == "lora":
        notes.append(f"LoRA as PEFT 0.12 Linear (adapters fp32, lora_dropout {s.lora_dropout}, "
                     f"rank {s.lora_rank}, targets {', '.join(s.lora_targets)})")
    if s.recompute == "full":
        notes.append("each block under torch.utils.checkpoint.checkpoint(use_reentrant=True), as "
                     "transformers' gradient_checkpointing_enable()")
    return "; ".join(notes)


def fixture_entries(scenario, result, s, name):
    today = datetime.date.today().isoformat()
    provenance = {
        "device": "cpu",
        "torch": torch.__version__,
        "python": platform.python_version(),
        "date": today,
        "script": SCRIPT_PATH,
        "script_commit": _script_commit(),
    }
    common = describe(s)
    how = {
        "saved_per_layer": "bytes of unique storages that autograd saves for backward inside the middle "
                           "transformer block during one training forward (saved_tensors_hooks), "
                           "parameters, buffers and storages other blocks save too excluded",
        "saved_total": "bytes of unique storages saved for backward anywhere in forward and loss "
                       "(saved_tensors_hooks) plus the logits, loss and batch the training loop holds, "
                       "parameters and buffers excluded",
        "model_states": "bytes of all parameters, their .grad and every tensor in torch.optim's "
                        "state after one optimizer.step()",
    }
    details = {
        "saved_per_layer": result["per_layer_detail"],
        "saved_total": result["total_detail"],
        "model_states": result["states_detail"],
    }
    entries = []
    for metric in ("saved_per_layer", "saved_total", "model_states"):
        entries.append({
            "id": f"cpu-{name}-{metric.replace('_', '-')}",
            "reliability": "high",
            "scenario": scenario,
            "measured": {"metric": metric, "bytes": int(result[metric])},
            "how_measured": how[metric],
            "provenance": provenance,
            "notes": common,
            "detail": details[metric],
        })
    return entries


def run_scenario(scenario, name=None, lora_adapter_dtype="fp32"):
    s = Spec(scenario)
    if name is None:
        name = _slug(scenario.get("name", "scenario"))
    result = measure(s, lora_adapter_dtype)
    return fixture_entries(scenario, result, s, name), result


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("scenario", help="a vramplan scenario file (*.vramplan.json)")
    ap.add_argument("--id", help="name inside the fixture ids: cpu-<ID>-<metric> "
                                 "(default: the scenario's name, slugged)")
    ap.add_argument("--out", help="write the JSON array here instead of stdout")
    ap.add_argument("--lora-adapter-dtype", choices=("fp32", "base"), default="fp32",
                    help="PEFT >= 0.12 keeps adapters in fp32 (default); 'base': older PEFT, "
                         "adapters in the base weights' dtype")
    ap.add_argument("--threads", type=int, default=0, help="torch.set_num_threads (0: leave)")
    args = ap.parse_args(argv)
    if args.threads:
        torch.set_num_threads(args.threads)
    with open(args.scenario) as f:
        scenario = json.load(f)
    name = args.id or _slug(scenario.get("name") or os.path.basename(args.scenario).split(".")[0])
    try:
        entries, _ = run_scenario(scenario, name, args.lora_adapter_dtype)
    except ScenarioError as e:
        print(f"{args.scenario}: {e}", file=sys.stderr)
        return 2
    text = json.dumps(entries, indent=1) + "\n"
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
