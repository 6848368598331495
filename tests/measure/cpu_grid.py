#!/usr/bin/python3
"""Run saved_tensors.py over a grid of small scenarios and write the fixture file.

Usage: /usr/bin/python3 tests/measure/cpu_grid.py [--out FILE] [--only SUBSTRING ...]
                                                  [--cli PATH | --no-cli] [--list]

Each grid point is a complete vramplan scenario (every model field written out) for a model
with the real widths of a small public model and 2 layers, run for one training step on the CPU
(see saved_tensors.py). The fixtures of all points, sorted by id, go to
tests/data/measured/cpu_saved_tensors.json. When the project's command line is built, each
scenario is first checked with `vramplan-cli estimate FILE --format table` (it must exit 0), and
the parameter count the CLI derives is compared with the model that was built.
"""

import argparse
import gc
import json
import os
import subprocess
import sys
import tempfile
import time

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import saved_tensors as st  # noqa: E402

DEFAULT_OUT = os.path.join(st.REPO_ROOT, "tests", "data", "measured", "cpu_saved_tensors.json")
DEFAULT_CLI = "/tmp/uibuild/app/vramplan-cli"

# Real widths of small public models (resources/models/*.json), 2 layers. The llama-3.2-1b
# stand-in uses the Llama 2 vocabulary (32000) to keep the step fast; qwen2.5-0.5b, gpt2,
# bert-base, phi-1.5 and pythia-1.4b keep theirs.
MODELS = {
    "llama1b": {  # meta-llama/Llama-3.2-1B widths
        "family": "llama", "layers": 2, "hidden_size": 2048, "attention_heads": 32, "kv_heads": 8,
        "head_dim": 64, "ffn_hidden_size": 8192, "ffn_type": "swiglu", "hidden_act": "silu",
        "vocab_size": 32000, "norm": "rmsnorm", "tied_embeddings": True, "bias": False,
        "qkv_bias": False, "lm_head_bias": False, "positions": "rope", "max_positions": 131072,
        "parallel_block": False, "norms_per_layer": 2, "token_types": 0, "pooler": False,
        "head": "lm",
    },
    "mistral-s": {  # Mistral-7B's shape (GQA 4:1, head_dim 128), scaled down to 1024 wide
        "family": "mistral", "layers": 2, "hidden_size": 1024, "attention_heads": 8, "kv_heads": 2,
        "head_dim": 128, "ffn_hidden_size": 3584, "ffn_type": "swiglu", "hidden_act": "silu",
        "vocab_size": 32000, "norm": "rmsnorm", "tied_embeddings": False, "bias": False,
        "qkv_bias": False, "lm_head_bias": False, "positions": "rope", "max_positions": 32768,
        "parallel_block": False, "norms_per_layer": 2, "token_types": 0, "pooler": False,
        "head": "lm",
    },
    "qwen05b": {  # Qwen/Qwen2.5-0.5B widths
        "family": "qwen2", "layers": 2, "hidden_size": 896, "attention_heads": 14, "kv_heads": 2,
        "head_dim": 64, "ffn_hidden_size": 4864, "ffn_type": "swiglu", "hidden_act": "silu",
        "vocab_size": 151936, "norm": "rmsnorm", "tied_embeddings": True, "bias": False,
        "qkv_bias": True, "lm_head_bias": False, "positions": "rope", "max_positions": 32768,
        "parallel_block": False, "norms_per_layer": 2, "token_types": 0, "pooler": False,
        "head": "lm",
    },
    "gpt2": {  # openai-community/gpt2 widths
        "family": "gpt2", "layers": 2, "hidden_size": 768, "attention_heads": 12, "kv_heads": 12,
        "head_dim": 64, "ffn_hidden_size": 3072, "ffn_type": "gelu", "hidden_act": "gelu_tanh_python",
        "vocab_size": 50257, "norm": "layernorm", "tied_embeddings": True, "bias": True,
        "qkv_bias": False, "lm_head_bias": False, "positions": "learned", "max_positions": 1024,
        "parallel_block": False, "norms_per_layer": 2, "token_types": 0, "pooler": False,
        "head": "lm",
    },
    "bert": {  # google-bert/bert-base-uncased widths, BertForMaskedLM
        "family": "bert", "layers": 2, "hidden_size": 768, "attention_heads": 12, "kv_heads": 12,
        "head_dim": 64, "ffn_hidden_size": 3072, "ffn_type": "gelu", "hidden_act": "gelu",
        "vocab_size": 30522, "norm": "layernorm", "tied_embeddings": True, "bias": True,
        "qkv_bias": False, "lm_head_bias": False, "positions": "learned", "max_positions": 512,
        "parallel_block": False, "norms_per_layer": 2, "token_types": 2, "pooler": False,
        "head": "lm",
    },
    "bertcls": {  # the same, BertForSequenceClassification (pooler + 2 labels)
        "family": "bert", "layers": 2, "hidden_size": 768, "attention_heads": 12, "kv_heads": 12,
        "head_dim": 64, "ffn_hidden_size": 3072, "ffn_type": "gelu", "hidden_act": "gelu",
        "vocab_size": 30522, "norm": "layernorm", "tied_embeddings": True, "bias": True,
        "qkv_bias": False, "lm_head_bias": False, "positions": "learned", "max_positions": 512,
        "parallel_block": False, "norms_per_layer": 2, "token_types": 2, "pooler": True,
        "head": "classifier", "classifier_labels": 2,
    },
    "phi15": {  # microsoft/phi-1_5 widths
        "family": "phi", "layers": 2, "hidden_size": 2048, "attention_heads": 32, "kv_heads": 32,
        "head_dim": 64, "ffn_hidden_size": 8192, "ffn_type": "gelu", "hidden_act": "gelu_tanh_python",
        "vocab_size": 51200, "norm": "layernorm", "tied_embeddings": False, "bias": True,
        "qkv_bias": False, "lm_head_bias": True, "positions": "rope", "max_positions": 2048,
        "parallel_block": True, "norms_per_layer": 1, "token_types": 0, "pooler": False,
        "head": "lm",
    },
    "pythia14b": {  # EleutherAI/pythia-1.4b widths (GPT-NeoX, parallel residual)
        "family": "gpt_neox", "layers": 2, "hidden_size": 2048, "attention_heads": 16, "kv_heads": 16,
        "head_dim": 128, "ffn_hidden_size": 8192, "ffn_type": "gelu", "hidden_act": "gelu",
        "vocab_size": 50304, "norm": "layernorm", "tied_embeddings": False, "bias": True,
        "qkv_bias": False, "lm_head_bias": False, "positions": "rope", "max_positions": 2048,
        "parallel_block": True, "norms_per_layer": 2, "token_types": 0, "pooler": False,
        "head": "lm",
    },
}


# Families of transformers >= 4.47 (model code after v4.57). Real widths of small public
# checkpoints, 2 layers; vocabularies reduced to 32000 where the real one would dominate memory
# and time (all but Qwen3-0.6B's), and fewer routed experts than the checkpoints have, with the
# real top-k and expert widths (the per-layer saves of an MoE block depend on the tokens
# dispatched, b*s*top_k, not on the expert count).
_V457_COMMON = {
    "norm": "rmsnorm", "bias": False, "qkv_bias": False, "lm_head_bias": False, "positions": "rope",
    "parallel_block": False, "norms_per_layer": 2, "token_types": 0, "pooler": False, "head": "lm",
    "o_bias": False, "qk_norm": "none", "sliding_window": 0, "sliding_layers": 0,
    "attention_softcap": 0, "final_softcap": 0, "attention_sinks": False,
    "ffn_type": "swiglu", "hidden_act": "silu",
}
_DEEPSEEK = dict(_V457_COMMON, **{  # DeepSeek-V2-Lite widths (MLA of V2/V3: kv_lora_rank 512,
    # rope 64, nope 128, v 128), with V3's q_lora_rank 1536; 16 of its 64 routed experts, top-6,
    # 2 shared experts of 1408; the V3 router (sigmoid, e_score_correction_bias)
    "family": "deepseek_v3", "layers": 2, "hidden_size": 2048, "attention_heads": 16, "kv_heads": 16,
    "head_dim": 192, "ffn_hidden_size": 10944, "vocab_size": 32000, "tied_embeddings": False,
    "max_positions": 163840,
    "mla": {"q_lora_rank": 1536, "kv_lora_rank": 512, "qk_rope_head_dim": 64, "qk_nope_head_dim": 128,
            "v_head_dim": 128},
    "moe": {"experts": 16, "experts_per_token": 6, "expert_ffn_hidden_size": 1408, "shared_experts": 2,
            "shared_expert_ffn_hidden_size": 1408, "dense_layers": 1, "layer_step": 1,
            "router_bias": False, "expert_bias": False, "score_correction_bias": True,
            "normalize_top_k": True, "router": "sigmoid"},
})
MODELS.update({
    "qwen3-06b": dict(_V457_COMMON, **{  # Qwen/Qwen3-0.6B widths, real vocabulary
        "family": "qwen3", "layers": 2, "hidden_size": 1024, "attention_heads": 16, "kv_heads": 8,
        "head_dim": 128, "ffn_hidden_size": 3072, "vocab_size": 151936, "tied_embeddings": True,
        "max_positions": 40960, "qk_norm": "head",
    }),
    "qwen3moe-30ba3b": dict(_V457_COMMON, **{  # Qwen/Qwen3-30B-A3B attention and expert widths;
        # 16 of its 128 experts, top-8
        "family": "qwen3_moe", "layers": 2, "hidden_size": 2048, "attention_heads": 32, "kv_heads": 4,
        "head_dim": 128, "ffn_hidden_size": 6144, "vocab_size": 32000, "tied_embeddings": False,
        "max_positions": 40960, "qk_norm": "head",
        "moe": {"experts": 16, "experts_per_token": 8, "expert_ffn_hidden_size": 768, "shared_experts": 0,
                "shared_expert_ffn_hidden_size": 0, "dense_layers": 0, "layer_step": 1,
                "router_bias": False, "expert_bias": False, "score_correction_bias": False,
                "normalize_top_k": True, "router": "softmax"},
    }),
    "deepseekv3-mla": _DEEPSEEK,  # layer 0 dense, layer 1 (measured) MoE
    "deepseekv3-dense": dict(_DEEPSEEK, moe=dict(_DEEPSEEK["moe"], dense_layers=2)),  # both dense
    "deepseekv2lite": dict(_DEEPSEEK, mla=dict(_DEEPSEEK["mla"], q_lora_rank=0)),  # plain q_proj
    "gptoss20b": dict(_V457_COMMON, **{  # openai/gpt-oss-20b widths; 8 of its 32 experts, top-4
        "family": "gpt_oss", "layers": 2, "hidden_size": 2880, "attention_heads": 64, "kv_heads": 8,
        "head_dim": 64, "ffn_hidden_size": 2880, "vocab_size": 32000, "tied_embeddings": False,
        "qkv_bias": True, "o_bias": True, "max_positions": 131072, "sliding_window": 128,
        "sliding_layers": 1, "attention_sinks": True,
        "moe": {"experts": 8, "experts_per_token": 4, "expert_ffn_hidden_size": 2880, "shared_experts": 0,
                "shared_expert_ffn_hidden_size": 0, "dense_layers": 0, "layer_step": 1,
                "router_bias": True, "expert_bias": True, "score_correction_bias": False,
                "normalize_top_k": True, "router": "softmax"},
    }),
    "gemma2-2b": dict(_V457_COMMON, **{  # google/gemma-2-2b widths
        "family": "gemma2", "layers": 2, "hidden_size": 2304, "attention_heads": 8, "kv_heads": 4,
        "head_dim": 256, "ffn_hidden_size": 9216, "ffn_type": "geglu", "hidden_act": "gelu",
        "vocab_size": 32000, "tied_embeddings": True, "max_positions": 8192, "norms_per_layer": 4,
        "sliding_window": 4096, "sliding_layers": 1, "attention_softcap": 50.0, "final_softcap": 30.0,
    }),
    "gemma3-1b": dict(_V457_COMMON, **{  # google/gemma-3-1b-pt widths (both layers sliding: 5:1)
        "family": "gemma3", "layers": 2, "hidden_size": 1152, "attention_heads": 4, "kv_heads": 1,
        "head_dim": 256, "ffn_hidden_size": 6912, "ffn_type": "geglu", "hidden_act": "gelu",
        "vocab_size": 32000, "tied_embeddings": True, "max_positions": 32768, "norms_per_layer": 4,
        "qk_norm": "head", "sliding_window": 512, "sliding_layers": 2,
    }),
    "olmo2-1b": dict(_V457_COMMON, **{  # allenai/OLMo-2-0425-1B widths
        "family": "olmo2", "layers": 2, "hidden_size": 2048, "attention_heads": 16, "kv_heads": 16,
        "head_dim": 128, "ffn_hidden_size": 8192, "vocab_size": 32000, "tied_embeddings": False,
        "max_positions": 4096, "qk_norm": "full",
    }),
})

LLAMA_ALL = ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"]
ATTN4 = ["q_proj", "k_proj", "v_proj", "o_proj"]
MLA_Q_LORA = ["q_a_proj", "q_b_proj", "kv_a_proj_with_mqa", "kv_b_proj", "o_proj"]
MLA_PLAIN_Q = ["q_proj", "kv_a_proj_with_mqa", "kv_b_proj", "o_proj"]

# The hybrid mixers of 2025-2026 (hybrid_blocks.py, transformers' torch fallbacks:
# training.linear_kernels "torch"); every layer is of the measured kind. Qwen3.5-0.8B's Gated
# DeltaNet widths (16 key and value heads of 128) and a grouped one (Qwen3.5-9B's 16 key and
# 32 value heads) 1024 wide; Nemotron-3-Nano-30B-A3B's Mamba2 widths (64 heads of 64, 8 groups,
# state 128, chunk 128). Vocabularies reduced to 32000.
_QWEN35 = dict(_V457_COMMON, **{
    "family": "qwen3_5", "layers": 2, "hidden_size": 1024, "attention_heads": 8, "kv_heads": 2,
    "head_dim": 256, "ffn_hidden_size": 3584, "vocab_size": 32000, "tied_embeddings": True,
    "max_positions": 262144, "qk_norm": "head", "attention_output_gate": True,
    "state_element_bytes": 4, "layer_types": ["linear_attention"] * 2, "mlp_types": ["dense"] * 2,
})
for _k in ("sliding_window", "sliding_layers", "attention_softcap", "final_softcap"):
    _QWEN35.pop(_k)
MODELS.update({
    "qwen35-08b-gdn": dict(_QWEN35, linear_attention={
        "key_heads": 16, "value_heads": 16, "key_head_dim": 128, "value_head_dim": 128, "conv_kernel": 4}),
    "qwen35-9b-gdn": dict(_QWEN35, linear_attention={
        "key_heads": 16, "value_heads": 32, "key_head_dim": 128, "value_head_dim": 128, "conv_kernel": 4}),
    "nemotronh-nano-mamba": {
        "family": "nemotron_h", "layers": 2, "hidden_size": 2688, "attention_heads": 32, "kv_heads": 2,
        "head_dim": 128, "ffn_hidden_size": 1856, "ffn_type": "gelu", "hidden_act": "relu",
        "vocab_size": 32000, "norm": "rmsnorm", "tied_embeddings": False, "bias": False,
        "qkv_bias": False, "lm_head_bias": False, "positions": "rope", "max_positions": 262144,
        "parallel_block": False, "norms_per_layer": 1, "token_types": 0, "pooler": False,
        "head": "lm", "o_bias": False, "qk_norm": "none", "attention_sinks": False,
        "state_element_bytes": 4, "layer_types": ["mamba"] * 2, "mlp_types": ["none"] * 2,
        "mamba": {"heads": 64, "head_dim": 64, "state_size": 128, "groups": 8, "conv_kernel": 4,
                  "chunk_size": 128, "conv_bias": True, "proj_bias": False, "gated_norm": True},
    },
})
# Qwen3.5-0.8B's gated attention layers (8 heads of 256, 2 key/value heads, a quarter rotated).
MODELS["qwen35-08b-attn"] = dict(_QWEN35, layer_types=["full_attention"] * 2)
HYBRID_MODELS = ("qwen35-08b-gdn", "qwen35-9b-gdn", "nemotronh-nano-mamba", "qwen35-08b-attn")
# DeepSeek sparse attention (DeepSeek-V3.2 / GLM-5): DeepSeek-V2-Lite's MLA widths with V3's
# q_lora_rank, V3.2's indexer (64 heads of 128), dense MLPs; top-k 128 (V3.2's is 2048: the
# top-k only picks which scores the mask keeps, it shapes no saved tensor), eager attention.
MODELS["deepseekv32-dsa"] = dict(_DEEPSEEK, **{
    "family": "deepseek_v32", "ffn_hidden_size": 5632,
    "layer_types": ["sparse_attention"] * 2, "mlp_types": ["dense"] * 2,
    "indexer": {"heads": 64, "head_dim": 128, "top_k": 128},
})
MODELS["deepseekv32-dsa"].pop("moe")

# (model, attention, precision, optimizer, dropout, recompute, lora, batch, seq)
# lora: None, or (targets, lora_dropout, rank)
GRID = [
    ("llama1b", "eager", "bf16", "adamw", 0.0, "none", None, 1, 384),
    ("llama1b", "sdpa", "bf16", "adamw", 0.0, "none", None, 1, 384),
    ("llama1b", "flash", "bf16", "adamw", 0.0, "none", None, 1, 384),
    ("llama1b", "eager", "fp32", "sgd", 0.0, "none", None, 1, 384),
    ("llama1b", "sdpa", "fp32", "adam", 0.0, "none", None, 1, 384),
    ("llama1b", "sdpa", "amp_bf16", "adamw", 0.0, "none", None, 1, 384),
    ("llama1b", "flash", "amp_bf16", "sgd_momentum", 0.0, "none", None, 1, 384),
    ("llama1b", "eager", "bf16", "adamw", 0.1, "none", None, 1, 384),
    ("llama1b", "sdpa", "bf16", "adamw", 0.0, "full", None, 1, 384),
    ("llama1b", "eager", "amp_bf16", "sgd", 0.0, "full", None, 1, 384),
    ("llama1b", "sdpa", "bf16", "adamw", 0.0, "none", (["q_proj", "v_proj"], 0.05, 16), 1, 384),
    ("llama1b", "flash", "bf16", "adamw", 0.0, "full", (LLAMA_ALL, 0.05, 16), 1, 384),
    ("llama1b", "eager", "amp_bf16", "adam", 0.0, "none", (["q_proj", "k_proj", "v_proj", "o_proj"], 0.0, 8), 1, 384),
    ("mistral-s", "eager", "bf16", "adamw", 0.0, "none", None, 2, 384),
    ("mistral-s", "sdpa", "bf16", "sgd_momentum", 0.0, "none", None, 2, 384),
    ("mistral-s", "flash", "bf16", "adamw", 0.0, "none", None, 2, 384),
    ("mistral-s", "flash", "amp_bf16", "adamw", 0.1, "none", None, 2, 384),
    ("mistral-s", "sdpa", "fp32", "adamw", 0.0, "full", (["q_proj", "v_proj"], 0.1, 16), 2, 384),
    ("qwen05b", "sdpa", "bf16", "adamw", 0.0, "none", None, 1, 320),
    ("qwen05b", "eager", "amp_bf16", "adamw", 0.0, "none", None, 1, 320),
    ("qwen05b", "flash", "bf16", "adamw", 0.0, "none", (LLAMA_ALL, 0.05, 16), 1, 320),
    ("qwen05b", "eager", "fp32", "sgd", 0.0, "none", None, 1, 320),
    ("gpt2", "eager", "fp32", "adamw", 0.1, "none", None, 2, 256),
    ("gpt2", "eager", "amp_bf16", "adamw", 0.1, "none", None, 2, 256),
    ("gpt2", "sdpa", "amp_bf16", "adamw", 0.0, "none", None, 2, 256),
    ("gpt2", "eager", "bf16", "sgd_momentum", 0.0, "none", None, 2, 256),
    ("gpt2", "flash", "bf16", "adamw", 0.1, "none", None, 2, 256),
    ("gpt2", "eager", "fp32", "adam", 0.1, "full", None, 2, 256),
    ("gpt2", "sdpa", "fp32", "adamw", 0.1, "none", (["c_attn"], 0.1, 8), 2, 256),
    ("bert", "eager", "fp32", "adamw", 0.1, "none", None, 2, 256),
    ("bert", "sdpa", "amp_bf16", "adamw", 0.1, "none", None, 2, 256),
    ("bert", "eager", "bf16", "sgd", 0.0, "none", None, 2, 256),
    ("bert", "eager", "fp32", "adamw", 0.0, "none", (["query", "value"], 0.1, 8), 2, 256),
    ("bertcls", "eager", "fp32", "adamw", 0.1, "none", None, 2, 256),
    ("bertcls", "sdpa", "amp_bf16", "adamw", 0.1, "full", None, 2, 256),
    ("phi15", "eager", "bf16", "adamw", 0.0, "none", None, 1, 384),
    ("phi15", "sdpa", "amp_bf16", "sgd", 0.1, "none", None, 1, 384),
    ("phi15", "flash", "bf16", "adamw", 0.0, "none", (["q_proj", "v_proj", "fc1", "fc2"], 0.05, 16), 1, 384),
    ("pythia14b", "eager", "fp32", "sgd", 0.0, "none", None, 1, 384),
    ("pythia14b", "sdpa", "bf16", "adamw", 0.1, "none", None, 1, 384),
    ("pythia14b", "flash", "amp_bf16", "adamw", 0.0, "full", None, 1, 384),
    # transformers >= 4.47 families (model code after v4.57)
    ("qwen3-06b", "eager", "bf16", "adamw", 0.0, "none", None, 1, 320),
    ("qwen3-06b", "sdpa", "fp32", "adamw", 0.0, "none", None, 1, 320),
    ("qwen3-06b", "flash", "amp_bf16", "adamw", 0.0, "none", None, 1, 320),
    ("qwen3-06b", "sdpa", "bf16", "adamw", 0.0, "none", (LLAMA_ALL, 0.05, 16), 1, 320),
    ("qwen3-06b", "flash", "bf16", "adamw", 0.0, "full", None, 1, 320),
    ("qwen3moe-30ba3b", "eager", "bf16", "adamw", 0.0, "none", None, 1, 288),
    ("qwen3moe-30ba3b", "sdpa", "amp_bf16", "sgd", 0.0, "none", None, 1, 288),
    ("qwen3moe-30ba3b", "flash", "bf16", "adamw", 0.0, "none", (ATTN4, 0.05, 16), 1, 288),
    ("qwen3moe-30ba3b", "sdpa", "bf16", "sgd", 0.0, "full", None, 1, 288),
    ("deepseekv3-mla", "eager", "bf16", "sgd", 0.0, "none", None, 1, 272),
    ("deepseekv3-mla", "flash", "bf16", "adamw", 0.0, "none", None, 1, 272),
    ("deepseekv3-mla", "sdpa", "amp_bf16", "adamw", 0.0, "none", (MLA_Q_LORA, 0.05, 16), 1, 272),
    ("deepseekv3-mla", "sdpa", "fp32", "sgd", 0.0, "none", None, 1, 272),
    ("deepseekv3-dense", "eager", "amp_bf16", "sgd", 0.0, "none", None, 1, 272),
    ("deepseekv3-dense", "flash", "bf16", "adamw", 0.0, "full", None, 1, 272),
    ("deepseekv2lite", "sdpa", "bf16", "adamw", 0.0, "none", None, 1, 272),
    ("deepseekv2lite", "flash", "bf16", "adamw", 0.0, "none", (MLA_PLAIN_Q, 0.05, 16), 1, 272),
    ("gptoss20b", "eager", "bf16", "sgd", 0.0, "none", None, 1, 200),
    ("gptoss20b", "eager", "amp_bf16", "adamw", 0.0, "none", (ATTN4, 0.05, 16), 1, 200),
    ("gptoss20b", "eager", "bf16", "sgd", 0.0, "full", None, 1, 200),
    ("gemma2-2b", "eager", "fp32", "adamw", 0.0, "none", None, 1, 320),
    ("gemma2-2b", "eager", "bf16", "adamw", 0.0, "none", None, 1, 320),
    ("gemma2-2b", "sdpa", "amp_bf16", "adamw", 0.0, "none", None, 1, 320),
    ("gemma2-2b", "flash", "bf16", "adamw", 0.0, "full", (LLAMA_ALL, 0.05, 16), 1, 320),
    ("gemma3-1b", "eager", "bf16", "adamw", 0.0, "none", None, 2, 384),
    ("gemma3-1b", "sdpa", "fp32", "adamw", 0.0, "none", None, 2, 384),
    ("gemma3-1b", "flash", "amp_bf16", "adamw", 0.0, "none", None, 2, 384),
    ("gemma3-1b", "sdpa", "bf16", "adamw", 0.0, "full", None, 2, 384),
    ("olmo2-1b", "eager", "fp32", "sgd", 0.0, "none", None, 1, 352),
    ("olmo2-1b", "sdpa", "bf16", "adamw", 0.0, "none", None, 1, 352),
    ("olmo2-1b", "flash", "bf16", "adamw", 0.0, "none", (LLAMA_ALL, 0.05, 16), 1, 352),
    ("olmo2-1b", "sdpa", "amp_bf16", "sgd_momentum", 0.0, "full", None, 1, 352),
    # hybrid mixers, torch fallbacks (sequences not multiples of the chunks: the rules pad)
    ("qwen35-08b-gdn", "sdpa", "bf16", "adamw", 0.0, "none", None, 1, 300),
    ("qwen35-08b-gdn", "sdpa", "fp32", "sgd", 0.0, "none", None, 1, 200),
    ("qwen35-08b-gdn", "sdpa", "bf16", "adamw", 0.0, "full", None, 1, 300),
    ("qwen35-9b-gdn", "sdpa", "bf16", "adamw", 0.0, "none", None, 2, 330),
    ("nemotronh-nano-mamba", "sdpa", "bf16", "adamw", 0.0, "none", None, 1, 300),
    ("nemotronh-nano-mamba", "sdpa", "fp32", "sgd", 0.0, "none", None, 1, 200),
    ("nemotronh-nano-mamba", "sdpa", "bf16", "adamw", 0.0, "full", None, 2, 150),
    ("qwen35-08b-attn", "sdpa", "bf16", "adamw", 0.0, "none", None, 1, 320),
    ("qwen35-08b-attn", "sdpa", "fp32", "adamw", 0.0, "none", None, 1, 200),
    ("deepseekv32-dsa", "eager", "bf16", "adamw", 0.0, "none", None, 1, 320),
    ("deepseekv32-dsa", "eager", "fp32", "sgd", 0.0, "none", None, 1, 288),
]

PRECISION_NAMES = {"fp32": "fp32", "bf16": "bf16", "amp_bf16": "amp"}


def point_name(model, attn, prec, opt, drop, rc, lora, b, s):
    parts = [model, attn, PRECISION_NAMES[prec], opt.replace("_", "")]
    if drop:
        parts.append(f"drop{drop:g}")
    if rc == "full":
        parts.append("recompute")
    if lora:
        parts.append(f"lora{len(lora[0])}r{lora[2]}" + (f"d{lora[1]:g}" if lora[1] else ""))
    parts.append(f"b{b}s{s}")
    return "-".join(parts)


def make_scenario(model, attn, prec, opt, drop, rc, lora, b, s):
    m = dict(MODELS[model])
    ft = {"method": "full"}
    if lora:
        ft = {"method": "lora", "lora_rank": lora[2], "lora_targets": list(lora[0]),
              "lora_dropout": lora[1], "base_weight_bits": 16 if prec == "bf16" else 32}
    # s must not coincide with another dimension, so that s x s tensors can be told apart.
    dims = {m["hidden_size"], m["ffn_hidden_size"], m["head_dim"], m["attention_heads"],
            m["kv_heads"], m["kv_heads"] * m["head_dim"], m["attention_heads"] * m["head_dim"],
            3 * m["hidden_size"], m["vocab_size"], b}
    if lora:
        dims.add(lora[2])
    moe, mla = m.get("moe") or {}, m.get("mla") or {}
    for key in ("experts", "experts_per_token", "expert_ffn_hidden_size", "shared_experts",
                "shared_expert_ffn_hidden_size"):
        if moe.get(key):
            dims.add(moe[key])
    if moe.get("shared_experts"):
        dims.add(moe["shared_experts"] * moe["shared_expert_ffn_hidden_size"])
    if mla:
        qk = mla["qk_nope_head_dim"] + mla["qk_rope_head_dim"]
        dims |= {v for v in mla.values() if v}
        dims |= {qk, mla["kv_lora_rank"] + mla["qk_rope_head_dim"], m["attention_heads"] * qk,
                 m["attention_heads"] * mla["v_head_dim"],
                 m["attention_heads"] * (mla["qk_nope_head_dim"] + mla["v_head_dim"])}
    assert s not in dims, f"{model}: sequence {s} equals a model dimension"
    if m.get("attention_sinks"):  # the probabilities are [b, heads, s, s + 1]
        assert s + 1 not in dims, f"{model}: sequence {s} + 1 equals a model dimension"
    return {
        "format": "vramplan-scenario",
        "version": 1,
        "name": "cpu grid: " + point_name(model, attn, prec, opt, drop, rc, lora, b, s),
        "model": m,
        "training": {
            "mode": "train",
            "micro_batch_size": b,
            "sequence_length": s,
            "gradient_accumulation_steps": 1,
            "precision": prec,
            "optimizer": opt,
            "activation_recompute": rc,
            "attention": attn,
            "dropout": drop,
            "finetune": ft,
            **({"linear_kernels": "torch"} if model in HYBRID_MODELS else {}),
        },
        "parallelism": {"gpus": 1, "zero_stage": 0},
        "framework": "transformers",
        "gpu": {"preset": "h100-80gb"},
    }


def check_with_cli(cli, scenario):
    """vramplan-cli must accept the scenario; returns (ok, message, its "parameters" object)."""
    with tempfile.NamedTemporaryFile("w", suffix=".vramplan.json", delete=False) as f:
        json.dump(scenario, f)
        path = f.name
    try:
        table = subprocess.run([cli, "estimate", path, "--format", "table"], capture_output=True, text=True)
        if table.returncode != 0:
            return False, table.stderr.strip(), None
        js = subprocess.run([cli, "estimate", path], capture_output=True, text=True)
        params = None
        if js.returncode == 0:
            params = json.loads(js.stdout).get("parameters", {})
        return True, "", params
    finally:
        os.unlink(path)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=DEFAULT_OUT)
    ap.add_argument("--only", nargs="*", help="run only the points whose name contains one of these")
    ap.add_argument("--cli", default=DEFAULT_CLI, help="vramplan-cli to validate the scenarios with")
    ap.add_argument("--no-cli", action="store_true")
    ap.add_argument("--list", action="store_true", help="print the point names and exit")
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args(argv)
    torch.set_num_threads(args.threads)

    points = [(point_name(*p), p) for p in GRID]
    names = [n for n, _ in points]
    assert len(set(names)) == len(names), "grid point names must be unique"
    if args.only:
        points = [(n, p) for n, p in points if any(o in n for o in args.only)]
    if args.list:
        print("\n".join(n for n, _ in points))
        return 0
    use_cli = not args.no_cli and os.path.exists(args.cli)
    if not use_cli:
        print(f"note: {args.cli} not found; scenarios are not validated by the CLI", file=sys.stderr)

    entries, failures = [], []
    start = time.time()
    for name, p in points:
        scenario = make_scenario(*p)
        cli_params = None
        if use_cli:
            ok, msg, cli_params = check_with_cli(args.cli, scenario)
            if not ok:
                failures.append(f"{name}: CLI rejects the scenario: {msg}")
                print(f"FAIL {name}: {msg}", file=sys.stderr)
                continue
        t0 = time.time()
        try:
            fixtures, result = st.run_scenario(scenario, name)
        except st.ScenarioError as e:
            failures.append(f"{name}: {e}")
            print(f"FAIL {name}: {e}", file=sys.stderr)
            continue
        entries += fixtures
        d = result["per_layer_detail"]
        built = (result["states_detail"]["parameters_count"], result["states_detail"]["trainable_count"])
        params_note = ""
        if cli_params:
            cli = (cli_params.get("total"), cli_params.get("trainable"))
            if cli != built:
                params_note = f"  [params total/trainable: built {built[0]}/{built[1]}, CLI {cli[0]}/{cli[1]}]"
        print(f"{name:58s} layer {d['units_bsh']:7.3f} bsh + {d['units_abss']:5.2f} abss  "
              f"total {result['saved_total']:>11d}  states {result['model_states']:>11d}  "
              f"{time.time() - t0:5.1f}s{params_note}", flush=True)
        del fixtures, result
        gc.collect()

    entries.sort(key=lambda e: e["id"])
    ids = [e["id"] for e in entries]
    assert len(set(ids)) == len(ids), "fixture ids must be unique"
    if args.only and os.path.exists(args.out):
        # A partial run replaces its own points and keeps the others.
        with open(args.out) as f:
            kept = [e for e in json.load(f) if e["id"] not in set(ids)]
        entries = sorted(kept + entries, key=lambda e: e["id"])
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(entries, f, indent=1)
        f.write("\n")
    print(f"{len(entries)} fixtures -> {args.out} in {time.time() - start:.0f}s", flush=True)
    for msg in failures:
        print("FAILED: " + msg, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
