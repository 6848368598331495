#!/usr/bin/env python3
"""Writes the tiny checkpoint folders the tests read (config.json and real safetensors files of
zeros, a few hundred KB), so that the reader of safetensors headers meets files as the
safetensors library writes them: an 8-byte little-endian header length, the JSON header with
each tensor's dtype, shape and data_offsets, then the data.

    python3 tests/data/checkpoints/make_checkpoints.py

tiny-qwen3/      a model_type vramplan knows (qwen3): the tensors' count equals the config's.
tiny-brandnew/   a model_type it does not know: planned generically from the standard fields;
                 its tensors hold one more module (`model.extra_proj`) than those layers.
qwen3.5-2b-index/ the shared Qwen3.5-2B text fine-tune's config and index (no weights): the
                 index's metadata.total_parameters is the count.
broken-header/   a safetensors file whose header length runs past the file.
"""
import json
import os
import shutil
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


def write_safetensors(path, tensors):
    header, offset = {}, 0
    for name, shape in tensors:
        n = 1
        for d in shape:
            n *= d
        header[name] = {"dtype": "BF16", "shape": shape, "data_offsets": [offset, offset + 2 * n]}
        offset += 2 * n
    header["__metadata__"] = {"format": "pt"}
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        f.write(b"\0" * offset)


def llama_like_tensors(c, prefix="model."):
    h, i, v = c["hidden_size"], c["intermediate_size"], c["vocab_size"]
    heads, kv, d = c["num_attention_heads"], c["num_key_value_heads"], c["head_dim"]
    out = [(prefix + "embed_tokens.weight", [v, h])]
    for layer in range(c["num_hidden_layers"]):
        p = "%slayers.%d." % (prefix, layer)
        out += [(p + "input_layernorm.weight", [h]),
                (p + "self_attn.q_proj.weight", [heads * d, h]),
                (p + "self_attn.k_proj.weight", [kv * d, h]),
                (p + "self_attn.v_proj.weight", [kv * d, h]),
                (p + "self_attn.o_proj.weight", [h, heads * d]),
                (p + "post_attention_layernorm.weight", [h]),
                (p + "mlp.gate_proj.weight", [i, h]),
                (p + "mlp.up_proj.weight", [i, h]),
                (p + "mlp.down_proj.weight", [h, i])]
        if c["model_type"] == "qwen3":
            out += [(p + "self_attn.q_norm.weight", [d]), (p + "self_attn.k_norm.weight", [d])]
    out += [(prefix + "norm.weight", [h]), ("lm_head.weight", [v, h])]
    return out


def folder(name, config, tensors=None, files=1):
    path = os.path.join(HERE, name)
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    with open(os.path.join(path, "config.json"), "w") as f:
        json.dump(config, f, indent=2)
        f.write("\n")
    if tensors is not None:
        per = (len(tensors) + files - 1) // files
        for k in range(files):
            name_k = "model.safetensors" if files == 1 else \
                "model-%05d-of-%05d.safetensors" % (k + 1, files)
            write_safetensors(os.path.join(path, name_k), tensors[k * per:(k + 1) * per])
    return path


base = {"hidden_size": 64, "intermediate_size": 128, "num_hidden_layers": 2,
        "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 16, "vocab_size": 256,
        "max_position_embeddings": 2048, "tie_word_embeddings": False, "torch_dtype": "bfloat16"}

qwen3 = dict(base, model_type="qwen3", architectures=["Qwen3ForCausalLM"])
folder("tiny-qwen3", qwen3, llama_like_tensors(qwen3), files=2)

brandnew = dict(base, model_type="brandnew_lm", architectures=["BrandNewForCausalLM"])
folder("tiny-brandnew", brandnew,
       llama_like_tensors(brandnew) + [("model.extra_proj.weight", [64, 64])])

shared = os.path.join(HERE, "..", "..", "..", "..", "shared", "validation")
src_config = os.path.join(shared, "hf_configs_2026", "qwen3.5-2b-text-jevstyle.json")
src_index = os.path.join(shared, "checkpoints_2026",
                         "qwen3.5-2b-text-jevstyle.model.safetensors.index.json")
if os.path.exists(src_config):
    path = folder("qwen3.5-2b-index", json.load(open(src_config)))
    shutil.copy(src_index, os.path.join(path, "model.safetensors.index.json"))

path = folder("broken-header", qwen3)
with open(os.path.join(path, "model.safetensors"), "wb") as f:
    f.write(struct.pack("<Q", 4096))
    f.write(b'{"model.embed_tokens.weight":')
print("written under", HERE)
