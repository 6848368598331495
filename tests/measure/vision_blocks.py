#!/usr/bin/python3
"""A vision-language model's tower, trained, measured on the CPU: what autograd keeps for one
vision block and for the patch merger.

Usage: /usr/bin/python3 tests/measure/vision_blocks.py [--out FILE] [--only SUBSTRING ...]

The tower is Qwen3.5's (and Qwen3-VL's without deepstack), written op for op after
transformers' modeling_qwen3_5.py at 009e78d6: Qwen3_5VisionPatchEmbed (Conv3d over 2 x 16 x 16
patches), the learned position table sampled at four neighbours (bilinear), the vision rotary
table (computed once, shared by the blocks), Qwen3_5VisionBlock (LayerNorm, fused qkv with
biases, the rotation in fp32 cast back, attention per image through SDPA, proj; LayerNorm,
fc1, gelu_pytorch_tanh, fc2) and Qwen3_5VisionPatchMerger (LayerNorm, 2 x 2 patches
concatenated, fc1, GELU, fc2 to the language model's width). SDPA and the CUDA/CPU differences
are emulated as saved_tensors.py does (bf16 with head_dim <= 256 takes the flash kernel, which
keeps q, k, v, the output and an fp32 logsumexp; LayerNorm statistics counted in fp32).

Each grid point is a vramplan scenario with training.vision (images per sample, image size,
train_tower) and two fixtures: `vision_saved_per_block` (the storages only the middle block
keeps) and `vision_merger_saved` (the merger's). They are merged into
tests/data/measured/cpu_saved_tensors.json (sorted by id).
"""

import argparse
import json
import os
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import saved_tensors as st  # noqa: E402

OUT = os.path.join(st.REPO_ROOT, "tests", "data", "measured", "cpu_saved_tensors.json")
SCRIPT = "tests/measure/vision_blocks.py"


class VisionAttention(nn.Module):
    def __init__(self, hidden, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(hidden, hidden * 3, bias=True)
        self.proj = nn.Linear(hidden, hidden)
        self.scaling = (hidden // heads) ** -0.5

    def forward(self, hidden_states, lengths, cos, sin):
        seq = hidden_states.shape[0]
        q, k, v = self.qkv(hidden_states).reshape(seq, 3, self.heads, -1).permute(1, 0, 2, 3).unbind(0)
        # apply_rotary_pos_emb_vision: the rotation in fp32, cast back
        dtype = q.dtype
        q, k = q.float(), k.float()
        cos, sin = cos.unsqueeze(-2).float(), sin.unsqueeze(-2).float()
        q = ((q * cos) + (st.rotate_half(q) * sin)).to(dtype)
        k = ((k * cos) + (st.rotate_half(k) * sin)).to(dtype)
        q, k, v = (x.transpose(0, 1).unsqueeze(0) for x in (q, k, v))
        splits = [torch.split(x, lengths, dim=2) for x in (q, k, v)]
        outs = [st.sdpa_attention_v457(self, qi, ki, vi, None, 0.0, self.scaling)
                for qi, ki, vi in zip(*splits)]
        out = torch.cat(outs, dim=1)
        return self.proj(out.reshape(seq, -1).contiguous())


class VisionBlock(nn.Module):
    def __init__(self, hidden, inter, heads):
        super().__init__()
        self.norm1 = nn.LayerNorm(hidden, eps=1e-6)
        self.norm2 = nn.LayerNorm(hidden, eps=1e-6)
        self.attn = VisionAttention(hidden, heads)
        self.fc1 = nn.Linear(hidden, inter, bias=True)
        self.fc2 = nn.Linear(inter, hidden, bias=True)

    def forward(self, hidden_states, lengths, cos, sin):
        hidden_states = hidden_states + self.attn(self.norm1(hidden_states), lengths, cos, sin)
        h = self.norm2(hidden_states)
        return hidden_states + self.fc2(F.gelu(self.fc1(h), approximate="tanh"))


class PatchMerger(nn.Module):
    def __init__(self, hidden, merge, out_hidden):
        super().__init__()
        self.merged = hidden * merge * merge
        self.norm = nn.LayerNorm(hidden, eps=1e-6)
        self.fc1 = nn.Linear(self.merged, self.merged)
        self.fc2 = nn.Linear(self.merged, out_hidden)

    def forward(self, x):
        x = self.norm(x).view(-1, self.merged)
        return self.fc2(F.gelu(self.fc1(x)))


class VisionTower(nn.Module):
    def __init__(self, v):
        super().__init__()
        self.v = v
        hidden, p, t = v["hidden_size"], v["patch_size"], v["temporal_patch_size"]
        self.patch_embed = nn.Conv3d(v["in_channels"], hidden, kernel_size=[t, p, p], stride=[t, p, p])
        self.pos_embed = nn.Embedding(v["position_embeddings"], hidden)
        self.blocks = nn.ModuleList(VisionBlock(hidden, v["intermediate_size"], v["heads"])
                                    for _ in range(v["depth"]))
        self.merger = PatchMerger(hidden, v["spatial_merge"], v["out_hidden_size"])
        dim = hidden // v["heads"] // 2
        self.register_buffer("inv_freq", 1.0 / (10000 ** (torch.arange(0, dim, 2).float() / dim)),
                             persistent=False)

    def forward(self, pixels, grids):
        v = self.v
        x = pixels.view(-1, v["in_channels"], v["temporal_patch_size"], v["patch_size"], v["patch_size"])
        with st.region("embed"):
            h = self.patch_embed(x.to(self.patch_embed.weight.dtype)).view(-1, v["hidden_size"])
            n = h.shape[0]
            g = torch.Generator().manual_seed(2)
            idx = torch.randint(0, v["position_embeddings"], (n, 4), generator=g)
            w = torch.rand(n, 4, generator=g)
            pos = (self.pos_embed(idx) * w[:, :, None].to(h.dtype)).sum(1)
            h = h + pos.to(h.dtype)
            with torch.no_grad():  # Qwen3_5VisionRotaryEmbedding: positions per patch, fp32
                rows = torch.cat([torch.arange(gh).repeat_interleave(gw) for _, gh, gw in grids])
                cols = torch.cat([torch.arange(gw).repeat(gh) for _, gh, gw in grids])
                freqs = torch.cat([rows[:, None] * self.inv_freq, cols[:, None] * self.inv_freq], -1)
                emb = torch.cat((freqs, freqs), dim=-1)
                cos, sin = emb.cos(), emb.sin()
        lengths = [gt * gh * gw for gt, gh, gw in grids]
        for i, blk in enumerate(self.blocks):
            with st.region(f"vblock{i}"):
                h = blk(h, lengths, cos, sin)
        with st.region("merger"):
            return self.merger(h)


# (name, image size, images per sample, micro-batch, precision)
GRID = [
    ("qwen35-vision-bf16-2x448", 448, 1, 2, "bf16"),
    ("qwen35-vision-fp32-1x320", 320, 1, 1, "fp32"),
]
# Qwen3.5-0.8B's tower (12 blocks of 768, 12 heads, MLP 3072, patch 16, merge 2), 3 blocks here;
# the merger projects to the language model's 1024.
VISION = {"tower": "qwen3_vl", "depth": 3, "hidden_size": 768, "intermediate_size": 3072,
          "heads": 12, "head_dim": 0, "patch_size": 16, "temporal_patch_size": 2, "spatial_merge": 2,
          "out_hidden_size": 1024, "position_embeddings": 2304, "deepstack_mergers": 0, "in_channels": 3}


def scenario(name, size, images, batch, precision):
    import cpu_grid
    m = dict(cpu_grid.MODELS["qwen35-08b-attn"])
    m["vision"] = dict(VISION)
    return {
        "format": "vramplan-scenario", "version": 1, "name": "cpu vision: " + name, "model": m,
        "training": {"mode": "train", "micro_batch_size": batch, "sequence_length": 1024,
                     "gradient_accumulation_steps": 1, "precision": precision, "optimizer": "adamw",
                     "activation_recompute": "none", "attention": "sdpa", "dropout": 0.0,
                     "finetune": {"method": "full"},
                     "vision": {"images_per_sample": images, "image_size": [size, size], "train_tower": True}},
        "parallelism": {"gpus": 1, "zero_stage": 0}, "framework": "transformers",
        "gpu": {"preset": "h100-80gb"},
    }


def measure(sc):
    v = sc["model"]["vision"]
    t = sc["training"]
    dtype = torch.bfloat16 if t["precision"] == "bf16" else torch.float32
    torch.manual_seed(0)
    tower = VisionTower(v).to(dtype)
    # The rotary table stays fp32 (its inv_freq is made with dtype=torch.float and is no
    # parameter): the blocks' cos.float() is then the table itself, shared by every block.
    tower.inv_freq = tower.inv_freq.float()
    side = round(t["vision"]["image_size"][0] / (v["patch_size"] * v["spatial_merge"])) * v["spatial_merge"]
    grids = [(1, side, side)] * (t["vision"]["images_per_sample"] * t["micro_batch_size"])
    patches = sum(a * b * c for a, b, c in grids)
    per_patch = v["in_channels"] * v["temporal_patch_size"] * v["patch_size"] ** 2
    pixels = torch.randn(patches, per_patch, generator=torch.Generator().manual_seed(1))
    excluded = {p.storage().data_ptr() for p in list(tower.parameters()) + list(tower.buffers())}
    rec = st.SavedTensorRecorder()
    st._SDPA_KERNELS.clear()
    with torch.autograd.graph.saved_tensors_hooks(rec.pack, rec.unpack):
        out = tower(pixels, grids)
    ops = st._walk_saved([out.sum().grad_fn])
    regions = {}
    for ptr, r in rec.storages.items():
        if ptr in excluded:
            continue
        r["ops"] = sorted(ops.get(ptr, []))
        if r["ops"] and all(o in st.TORCH113_ONLY_SAVES for o in r["ops"]):
            continue
        nbytes = r["nbytes"]
        if r["dtype"] in ("bfloat16", "float16") and r["ops"] and all(
                o.startswith("NativeLayerNormBackward0.result") for o in r["ops"]):
            nbytes *= 2  # LayerNorm statistics are fp32 on CUDA
        if len(r["regions"]) == 1:
            (name,) = r["regions"]
            regions.setdefault(name, []).append({"bytes": nbytes, "dtype": r["dtype"],
                                                 "shape": r["shape"], "saved_by": r["ops"]})
    mid = f"vblock{v['depth'] // 2}"
    return patches, regions, mid


def fixtures(name, sc):
    patches, regions, mid = measure(sc)
    blocks = [sum(e["bytes"] for e in regions.get(f"vblock{i}", [])) for i in range(sc["model"]["vision"]["depth"])]
    if len(set(blocks)) != 1:
        raise RuntimeError(f"{name}: the blocks keep different bytes: {blocks}")
    provenance = {"device": "cpu", "torch": torch.__version__, "date": st.datetime.date.today().isoformat(),
                  "script": SCRIPT, "script_commit": st._script_commit()}
    notes = (f"CPU, torch {torch.__version__}; Qwen3.5's vision tower as transformers' modeling_qwen3_5.py "
             f"(009e78d6) builds it, trained, {patches} patches; SDPA kernels: {sorted(st._SDPA_KERNELS)}")
    out = []
    for metric, region in (("vision_saved_per_block", mid), ("vision_merger_saved", "merger")):
        tensors = sorted(regions.get(region, []), key=lambda e: -e["bytes"])
        out.append({"id": f"cpu-{name}-{metric.replace('_', '-')}", "reliability": "high", "scenario": sc,
                    "measured": {"metric": metric, "bytes": sum(e["bytes"] for e in tensors)},
                    "how_measured": "bytes of unique storages autograd saves for backward inside the " +
                                    ("middle vision block" if region != "merger" else "patch merger") +
                                    " (saved_tensors_hooks), parameters, buffers and storages other "
                                    "regions save too excluded",
                    "provenance": provenance, "notes": notes,
                    "detail": {"patches": patches, "tensors": tensors}})
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=OUT)
    ap.add_argument("--only", nargs="*")
    args = ap.parse_args(argv)
    torch.set_num_threads(2)
    new = []
    for name, size, images, batch, prec in GRID:
        if args.only and not any(o in name for o in args.only):
            continue
        entries = fixtures(name, scenario(name, size, images, batch, prec))
        new += entries
        print(f"{name:34s} block {entries[0]['measured']['bytes']:>11d}  merger {entries[1]['measured']['bytes']:>10d}")
    with open(args.out) as f:
        kept = [e for e in json.load(f) if e["id"] not in {e["id"] for e in new}]
    entries = sorted(kept + new, key=lambda e: e["id"])
    with open(args.out, "w") as f:
        json.dump(entries, f, indent=1)
        f.write("\n")
    print(f"{len(entries)} fixtures -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
