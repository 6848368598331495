#!/usr/bin/env python3
"""Measure a grid of training steps on a CUDA GPU and write them as vramplan fixtures.

Usage (on a machine with a GPU, PyTorch 2.x and transformers; PEFT for the LoRA points):
    python3 tests/measure/gpu_grid.py --out DIR [--only SUBSTRING ...] [--list] [--snapshots N]

Each point is one model built from the config.json of one of the project's presets
(`resources/models/NAME.json`, some with fewer layers), with random weights, on the GPU, by
transformers' own classes (what users run: the real SDPA/flash kernels, autocast, PEFT, the
fused losses of the release at hand), trained for three steps of a plain loop: forward with
`input_ids` and `labels`, `loss.backward()`, `optimizer.step()`, `zero_grad(set_to_none=True)`.
The steps are recorded by tools/capture_memory.py (peaks per phase; the second step's
allocator snapshot for the points named by --snapshots).

The project's own CPU measurement models (saved_tensors.py) are not used on the GPU: they
emulate the fused attention kernels with a math path, whose s^2 transients would be measured
instead of the kernels'; here the real kernels run.

Output, in DIR: `gpu_<GPU>.json`, an array of entries in the fixture format of
tests/data/measured (metric `peak_allocated`, with the reserved and device figures, the peaks
per step and phase, the environment, and the scenario that vramplan estimates), written after
every point so that a run cut short keeps what it measured; `snapshots.tar.xz` with the
recorded snapshots, each compressed as `snapshot-<point>.pickle.xz`.
"""

import argparse
import copy
import gc
import json
import os
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
REPO_ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO_ROOT, "tools"))
import capture_memory  # noqa: E402

GIB = 1 << 30


def load(path):
    with open(path) as f:
        return json.load(f)


def preset_config(name):
    with open(os.path.join(REPO_ROOT, "resources", "models", name + ".json")) as f:
        cfg = json.load(f)
    cfg.pop("_vramplan", None)
    return cfg


def text_config(cfg):
    """The language model of a vision-language config, as its *ForCausalLM builds it (the
    tower is not trained here); the top-level tie flag applies when the text config lacks it."""
    if "text_config" not in cfg:
        return cfg
    t = copy.deepcopy(cfg["text_config"])
    if "tie_word_embeddings" not in t and "tie_word_embeddings" in cfg:
        t["tie_word_embeddings"] = cfg["tie_word_embeddings"]
    return t


def with_layers(cfg, layers):
    """The same model with its first `layers` layers: every per-layer list is cut to match."""
    c = copy.deepcopy(cfg)
    old = c["num_hidden_layers"]
    c["num_hidden_layers"] = layers
    if isinstance(c.get("layer_types"), list):
        c["layer_types"] = c["layer_types"][:layers]
    if isinstance(c.get("hybrid_override_pattern"), str):
        c["hybrid_override_pattern"] = c["hybrid_override_pattern"][:layers]
    if isinstance(c.get("mlp_only_layers"), list):
        c["mlp_only_layers"] = [i for i in c["mlp_only_layers"] if i < layers]
    if "max_window_layers" in c and c["max_window_layers"] == old:
        c["max_window_layers"] = layers
    c.pop("mtp_num_hidden_layers", None) if c.get("mtp_num_hidden_layers") == 0 else None
    return c


# Models: (preset, layers or None for all, how to get the config the model is built from).
MODELS = {
    "qwen3-0.6b": lambda: preset_config("qwen3-0.6b"),
    "llama-3.2-1b": lambda: preset_config("llama-3.2-1b"),
    "qwen3-1.7b": lambda: preset_config("qwen3-1.7b"),
    "qwen3-4b": lambda: preset_config("qwen3-4b"),
    "gemma-3-1b": lambda: preset_config("gemma-3-1b-pt"),
    # MoE: Qwen3-30B-A3B's attention and 128 experts (top 8), 4 of its 48 layers.
    "qwen3-30b-a3b-l4": lambda: with_layers(preset_config("qwen3-30b-a3b"), 4),
    # MLA + MoE: DeepSeek-V2-Lite, its dense first layer and 3 MoE layers (64 experts, top 6).
    "deepseek-v2-lite-l4": lambda: with_layers(preset_config("deepseek-v2-lite"), 4),
    # Gated DeltaNet + gated attention: Qwen3.5-0.8B's language model (24 layers, 3:1).
    "qwen3.5-0.8b": lambda: text_config(preset_config("qwen3.5-0.8b")),
    # Mamba2 + MoE + attention: Nemotron 3 Nano's first 6 layers (M E M E M *).
    "nemotron-3-nano-l6": lambda: with_layers(preset_config("nemotron-3-nano-30b-a3b"), 6),
    # Held-out families (not looked at while the estimator is tuned on the calibration points).
    "qwen2.5-0.5b": lambda: preset_config("qwen2.5-0.5b"),
    "olmo-2-1b": lambda: preset_config("olmo-2-0425-1b"),
    "smollm3-3b": lambda: preset_config("smollm3-3b"),
    "llama-3.2-3b": lambda: preset_config("llama-3.2-3b"),
    "qwen3.5-2b": lambda: text_config(preset_config("qwen3.5-2b")),
    "granite-4.0-h-tiny-l8": lambda: with_layers(preset_config("granite-4.0-h-tiny"), 8),
}


def point(model, precision="bf16", optimizer="adamw", recompute="none", batch=1, seq=1024,
          attention="sdpa", lora=None, kernels=None, held_out=False, loop="custom"):
    pid = "%s-%s-%s-b%d-s%d" % (model, precision, optimizer, batch, seq)
    if loop != "custom":
        pid += "-" + loop
    if attention != "sdpa":
        pid += "-" + attention
    if recompute != "none":
        pid += "-rc" + recompute
    if lora:
        pid += "-lora%d%s" % (lora["r"], "-all" if lora["targets"] == "all" else "")
    return {"id": "gpu-" + pid, "model": model, "precision": precision, "optimizer": optimizer,
            "recompute": recompute, "batch": batch, "seq": seq, "attention": attention,
            "lora": lora, "kernels": kernels, "set": "held_out" if held_out else "calibration",
            "loop": loop}


QV = {"r": 16, "alpha": 32, "targets": ["q_proj", "v_proj"]}
ALL = {"r": 16, "alpha": 32, "targets": "all"}

GRID = [
    # Dense, tied 151936 vocabulary: precision, batch and sequence, recompute, eager attention.
    point("qwen3-0.6b", "bf16", batch=1, seq=1024),
    point("qwen3-0.6b", "bf16", batch=2, seq=2048),
    point("qwen3-0.6b", "bf16", batch=2, seq=4096),
    point("qwen3-0.6b", "amp_bf16", batch=2, seq=1024),
    point("qwen3-0.6b", "fp32", batch=2, seq=1024),
    point("qwen3-0.6b", "bf16", recompute="full", batch=4, seq=2048),
    point("qwen3-0.6b", "fp32", recompute="full", batch=2, seq=2048),
    point("qwen3-0.6b", "bf16", attention="eager", batch=1, seq=2048),
    point("qwen3-0.6b", "bf16", optimizer="sgd_momentum", batch=2, seq=1024),
    # GQA 32/8, tied 128256 vocabulary; LoRA.
    point("llama-3.2-1b", "bf16", batch=2, seq=2048),
    point("llama-3.2-1b", "amp_bf16", batch=1, seq=2048),
    point("llama-3.2-1b", "fp32", batch=1, seq=1024),
    point("llama-3.2-1b", "bf16", batch=2, seq=2048, lora=QV),
    point("llama-3.2-1b", "bf16", recompute="full", batch=4, seq=4096, lora=QV),
    point("llama-3.2-1b", "amp_bf16", batch=2, seq=1024, lora=ALL),
    point("qwen3-1.7b", "bf16", batch=1, seq=4096),
    point("qwen3-1.7b", "bf16", batch=2, seq=2048, lora=ALL),
    point("qwen3-4b", "bf16", batch=1, seq=2048),
    point("qwen3-4b", "bf16", recompute="full", batch=1, seq=8192, lora=ALL),
    point("gemma-3-1b", "bf16", batch=1, seq=1024),
    # MoE (128 experts, top 8) and MLA + MoE.
    point("qwen3-30b-a3b-l4", "bf16", batch=1, seq=2048),
    point("qwen3-30b-a3b-l4", "bf16", recompute="full", batch=2, seq=4096),
    point("qwen3-30b-a3b-l4", "bf16", batch=2, seq=2048, lora=QV),
    point("deepseek-v2-lite-l4", "bf16", batch=1, seq=2048),
    point("deepseek-v2-lite-l4", "amp_bf16", batch=1, seq=1024),
    # Hybrids, on transformers' torch paths (no flash-linear-attention / mamba_ssm here).
    point("qwen3.5-0.8b", "bf16", batch=1, seq=2048, kernels="torch"),
    point("qwen3.5-0.8b", "bf16", recompute="full", batch=2, seq=2048, kernels="torch"),
    point("qwen3.5-0.8b", "amp_bf16", batch=1, seq=1024, kernels="torch"),
    point("nemotron-3-nano-l6", "bf16", batch=1, seq=1024, kernels="torch"),
    point("nemotron-3-nano-l6", "bf16", batch=1, seq=2048, kernels="torch"),
    point("qwen3-30b-a3b-l4", "bf16", batch=1, seq=512),
    # The held-out set: other families, sizes and settings of the same kinds.
    point("qwen2.5-0.5b", "bf16", batch=4, seq=1024, held_out=True),
    point("qwen2.5-0.5b", "amp_bf16", batch=1, seq=4096, held_out=True),
    point("olmo-2-1b", "bf16", batch=2, seq=2048, held_out=True),
    point("smollm3-3b", "bf16", batch=1, seq=4096, lora=ALL, held_out=True),
    point("llama-3.2-3b", "bf16", batch=1, seq=2048, held_out=True),
    point("qwen3-1.7b", "fp32", batch=2, seq=1024, lora=QV, held_out=True),
    point("qwen3-0.6b", "bf16", optimizer="adam", batch=1, seq=4096, held_out=True),
    point("llama-3.2-1b", "bf16", attention="eager", batch=1, seq=1024, held_out=True),
    point("qwen3-30b-a3b-l4", "bf16", batch=4, seq=1024, held_out=True),
    point("deepseek-v2-lite-l4", "bf16", recompute="full", batch=2, seq=2048, held_out=True),
    point("qwen3.5-0.8b", "bf16", batch=2, seq=1024, lora=ALL, kernels="torch", held_out=True),
    point("qwen3.5-2b", "bf16", batch=1, seq=1024, kernels="torch", held_out=True),
    point("nemotron-3-nano-l6", "bf16", recompute="full", batch=1, seq=2048, kernels="torch",
          held_out=True),
    point("gemma-3-1b", "bf16", batch=2, seq=2048, held_out=True),
    point("qwen3-4b", "bf16", batch=2, seq=2048, lora=QV, held_out=True),
    point("granite-4.0-h-tiny-l8", "bf16", batch=1, seq=2048, kernels="torch", held_out=True),
    # HF Trainer's loop: compute_loss drops the outputs before backward, and the optimizer is
    # TrainingArguments' default `optim` of the release (recorded in the environment).
    point("qwen3-0.6b", "bf16", batch=2, seq=2048, loop="trainer"),
    point("qwen3-0.6b", "amp_bf16", batch=2, seq=1024, loop="trainer"),
    point("llama-3.2-1b", "fp32", batch=1, seq=1024, loop="trainer"),
    point("llama-3.2-1b", "bf16", batch=2, seq=2048, lora=QV, loop="trainer"),
    point("qwen3-30b-a3b-l4", "bf16", batch=1, seq=2048, loop="trainer"),
    point("qwen3.5-0.8b", "bf16", batch=1, seq=2048, kernels="torch", loop="trainer"),
    point("qwen2.5-0.5b", "bf16", batch=4, seq=1024, held_out=True, loop="trainer"),
    point("deepseek-v2-lite-l4", "bf16", batch=1, seq=2048, held_out=True, loop="trainer"),
    point("qwen3-1.7b", "bf16", batch=2, seq=2048, lora=ALL, held_out=True, loop="trainer"),
    point("llama-3.2-3b", "amp_bf16", batch=1, seq=1024, lora=QV, held_out=True, loop="trainer"),
]

# Points whose second step is recorded with stacks (kept small: they travel back as files).
SNAPSHOT_POINTS = ["gpu-qwen3-0.6b-bf16-adamw-b1-s1024", "gpu-llama-3.2-1b-bf16-adamw-b2-s2048-lora16",
                   "gpu-qwen3.5-0.8b-bf16-adamw-b1-s2048", "gpu-nemotron-3-nano-l6-bf16-adamw-b1-s1024"]


def scenario_for(p, cfg, gpu_preset, transformers_version):
    """The vramplan scenario of a point (SPEC §3), with the exact config the model was built from."""
    lora = p["lora"]
    finetune = {"method": "lora" if lora else "full"}
    if lora:
        targets = lora["targets"]
        # "all" runs PEFT's "all-linear", which adapts a hybrid's mixer linears too (Qwen3.5's
        # Gated DeltaNet in_proj_* and out_proj), not only the seven Llama names.
        finetune.update({"lora_rank": lora["r"], "lora_targets": targets if targets != "all" else
                         ["all-linear"],
                         "base_weight_bits": 16 if p["precision"] == "bf16" else 32,
                         "lora_dropout": 0.0,
                         # PEFT's autocast_adapter_dtype=True (its default): fp32 adapters
                         "lora_adapter_dtype": "fp32"})
    training = {"mode": "train", "micro_batch_size": p["batch"], "sequence_length": p["seq"],
                "gradient_accumulation_steps": 1, "precision": p["precision"],
                "optimizer": p["optimizer"], "activation_recompute": p["recompute"],
                "attention": p["attention"], "dropout": 0.0, "finetune": finetune,
                "loop": p["loop"],
                # torch.optim.AdamW's foreach default in a plain loop; Trainer's adamw_torch_fused
                "optimizer_implementation": "fused" if p["loop"] == "trainer" else "foreach"}
    if p["kernels"]:
        training["linear_kernels"] = p["kernels"]
    return {"format": "vramplan-scenario", "version": 1, "name": p["id"],
            "model": {"hf_config": cfg}, "training": training, "parallelism": {"gpus": 1},
            "framework": "transformers", "framework_version": transformers_version,
            "gpu": {"preset": gpu_preset}}


def gpu_preset_name(gpu_name, total_bytes):
    if "H100" in gpu_name:
        return "h100-80gb" if total_bytes < 90 * GIB else "h100-nvl-94gb"
    if "H200" in gpu_name:
        return "h200-141gb"
    if "A100" in gpu_name:
        return "a100-80gb" if total_bytes > 50 * GIB else "a100-40gb"
    return None


class Runner:
    """Builds and trains the points, one at a time, in one process (each point frees its model,
    optimizer and cache before the next; the CUDA context and cuBLAS workspaces stay)."""

    def __init__(self, torch, transformers, peft):
        self.torch, self.transformers, self.peft = torch, transformers, peft

    def build(self, p, cfg):
        torch, tf = self.torch, self.transformers
        cfg = dict(cfg)
        model_type = cfg.pop("model_type")
        config = tf.AutoConfig.for_model(model_type, **cfg)
        dtype = torch.bfloat16 if p["precision"] == "bf16" else torch.float32
        torch.manual_seed(0)
        with torch.device("cuda"):
            try:
                model = tf.AutoModelForCausalLM.from_config(config, dtype=dtype,
                                                            attn_implementation=p["attention"])
            except TypeError:  # releases before `dtype` replaced `torch_dtype`
                model = tf.AutoModelForCausalLM.from_config(config, torch_dtype=dtype,
                                                            attn_implementation=p["attention"])
        if next(model.parameters()).dtype != dtype:
            model = model.to(dtype)
        model.config.use_cache = False
        if p["recompute"] == "full":
            model.gradient_checkpointing_enable()
        if p["lora"]:
            lora = p["lora"]
            targets = "all-linear" if lora["targets"] == "all" else lora["targets"]
            lcfg = self.peft.LoraConfig(r=lora["r"], lora_alpha=lora["alpha"], lora_dropout=0.0,
                                        target_modules=targets, task_type="CAUSAL_LM")
            if p["recompute"] == "full":
                model.enable_input_require_grads()
            model = self.peft.get_peft_model(model, lcfg)
        model.train()
        return model

    def trainer_optim(self):
        """TrainingArguments' default `optim` in this release (what HF Trainer builds)."""
        if not hasattr(self, "_trainer_optim"):
            args = self.transformers.TrainingArguments(output_dir="/tmp/gpu_grid_trainer",
                                                       report_to=[])
            self._trainer_optim = str(getattr(args.optim, "value", args.optim))
        return self._trainer_optim

    def optimizer(self, p, params):
        torch = self.torch
        if p["loop"] == "trainer" and p["optimizer"] == "adamw":
            name = self.trainer_optim()
            if name == "adamw_torch_fused":
                return torch.optim.AdamW(params, lr=1e-4, weight_decay=0.0, fused=True)
            if name != "adamw_torch":
                raise RuntimeError("Trainer's default optim %s is not emulated here" % name)
        if p["optimizer"] == "sgd_momentum":
            return torch.optim.SGD(params, lr=1e-4, momentum=0.9)
        if p["optimizer"] == "adam":
            return torch.optim.Adam(params, lr=1e-4)
        return torch.optim.AdamW(params, lr=1e-4, weight_decay=0.0)

    def run(self, p, cfg, snap_dir):
        torch = self.torch
        model = self.build(p, cfg)
        params = [x for x in model.parameters() if x.requires_grad]
        n_params = sum(x.numel() for x in model.parameters())
        n_train = sum(x.numel() for x in params)
        opt = self.optimizer(p, params)
        g = torch.Generator(device="cuda").manual_seed(1)
        vocab = model.config.get_text_config().vocab_size if hasattr(model.config, "get_text_config") \
            else model.config.vocab_size
        ids = torch.randint(1, vocab, (p["batch"], p["seq"]), device="cuda", generator=g)
        labels = ids.clone()
        amp = p["precision"] == "amp_bf16"
        steps = []
        snapshot = None
        for i in range(3):
            record = snap_dir is not None and i == 1
            out = os.path.join(snap_dir, p["id"]) if record else os.path.join("/tmp/gpu_grid_caps", p["id"], str(i))
            cap = capture_memory.MemoryCapture(out, model=model, optimizer=opt,
                                               memtracker=record, snapshot=record)
            t0 = time.monotonic()
            with cap.step():
                with cap.phase("forward"):
                    with torch.autocast("cuda", dtype=torch.bfloat16, enabled=amp):
                        outputs = model(input_ids=ids, labels=labels)
                    loss = outputs.loss
                    if p["loop"] == "trainer":  # compute_loss returns the loss alone
                        del outputs
                with cap.phase("backward"):
                    loss.backward()
                    del loss
                    if p["loop"] != "trainer":  # a plain loop holds `outputs` until here
                        del outputs
                with cap.phase("optimizer"):
                    opt.step()
                    opt.zero_grad(set_to_none=True)
            if record:  # the third step runs under MemTracker, which must not lose the rest
                try:
                    with cap.step():
                        with torch.autocast("cuda", dtype=torch.bfloat16, enabled=amp):
                            loss = model(input_ids=ids, labels=labels).loss
                        loss.backward()
                        del loss
                        opt.step()
                        opt.zero_grad(set_to_none=True)
                except Exception as e:  # noqa: BLE001
                    cap.not_recorded["memtracker.json"] = "%s: %s" % (type(e).__name__, e)
                    cap.write()
                    opt.zero_grad(set_to_none=True)
                snapshot = out
            r = cap.result
            steps.append({"step": i + 1, "seconds": round(time.monotonic() - t0, 3),
                          "peak_allocated_bytes": r["peak"]["allocated_bytes"],
                          "peak_reserved_bytes": r["peak"]["reserved_bytes"],
                          "allocated_after_bytes": r["after"]["allocated_bytes"],
                          "device_used_after_bytes": r["after"]["mem_get_info"]["used_bytes"],
                          "phases": [{k: ph[k] for k in ("name", "peak_allocated_bytes",
                                                         "peak_reserved_bytes", "allocated_at_end_bytes")}
                                     for ph in r["phases"]],
                          "not_recorded": r["not_recorded"]})
            if record:
                break  # step 3 ran under MemTracker above; its peaks would include the tracker
        ckpt = next((repr(m._gradient_checkpointing_func) for m in model.modules()
                     if getattr(m, "_gradient_checkpointing_func", None) is not None), None)
        info = {"parameters": n_params, "trainable": n_train,
                "model_class": type(model).__name__,
                "attn_implementation": getattr(model.config, "_attn_implementation", None),
                "checkpointing_function": ckpt}
        del opt, model, params, ids, labels
        return steps, info, snapshot


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=False, default=".")
    ap.add_argument("--only", nargs="*", default=None)
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--scenarios", help="write each point's scenario to this folder and stop "
                    "(no GPU needed; needs --transformers-version and --gpu-preset)")
    ap.add_argument("--transformers-version", default=None)
    ap.add_argument("--gpu-preset", default=None)
    ap.add_argument("--snapshot-dir", default=None,
                    help="where the recorded snapshots go (default OUT/snapshots); packed into "
                    "OUT/snapshots.tar.xz at the end")
    ap.add_argument("--snapshots", action="store_true",
                    help="run only the points whose second step is recorded with stacks (in a "
                    "process of their own: MemTracker can keep a model alive after its step)")
    ap.add_argument("--budget-s", type=float, default=420.0,
                    help="stop starting new points after this many seconds")
    args = ap.parse_args(argv)
    points = [p for p in GRID if not args.only or any(s in p["id"] for s in args.only)]
    if args.snapshots and not args.only:  # --only names the points to record instead
        points = [p for p in points if p["id"] in SNAPSHOT_POINTS]
    if args.list:
        for p in points:
            print(p["id"])
        return 0
    if args.scenarios:
        os.makedirs(args.scenarios, exist_ok=True)
        for p in points:
            sc = scenario_for(p, MODELS[p["model"]](), args.gpu_preset or "h100-80gb",
                              args.transformers_version or "5.17")
            with open(os.path.join(args.scenarios, p["id"] + ".vramplan.json"), "w") as f:
                json.dump(sc, f, indent=1)
        return 0

    import torch
    import transformers
    try:
        import peft
    except ImportError:
        peft = None
    if not torch.cuda.is_available():
        print("gpu_grid: no CUDA device", file=sys.stderr)
        return 2
    t_start = time.monotonic()
    torch.cuda.init()
    torch.ones(1, device="cuda") @ torch.ones(1, 1, device="cuda")  # context and cuBLAS up
    env = capture_memory.environment(torch, torch.device("cuda", 0))
    env["transformers"], env["peft"] = transformers.__version__, getattr(peft, "__version__", None)
    for name in ("fla", "causal_conv1d", "mamba_ssm", "flash_attn", "bitsandbytes"):
        try:
            __import__(name)
            env.setdefault("present", []).append(name)
        except Exception:  # noqa: BLE001
            env.setdefault("absent", []).append(name)
    free, total = torch.cuda.mem_get_info()
    env["idle_used_bytes"] = int(total - free)
    try:
        env["trainer_default_optim"] = Runner(torch, transformers, peft).trainer_optim()
    except Exception as e:  # noqa: BLE001
        env["trainer_default_optim"] = "unknown: %s" % e
    env["idle_reserved_bytes"] = int(torch.cuda.memory_reserved())
    print("gpu_grid: " + json.dumps(env), flush=True)
    tv = ".".join(transformers.__version__.split(".")[:2])
    preset = gpu_preset_name(env["gpu"], env["gpu_total_bytes"]) or "h100-80gb"
    os.makedirs(args.out, exist_ok=True)
    snap_root = args.snapshot_dir or os.path.join(args.out, "snapshots")
    out_file = os.path.join(args.out, "gpu_%s%s.json" % (env["gpu"].replace(" ", "_"),
                                                         "_snapshots" if args.snapshots else ""))
    entries = []
    runner = Runner(torch, transformers, peft)
    for p in points:
        if time.monotonic() - t_start > args.budget_s:
            print("gpu_grid: budget spent, skipping %s" % p["id"], flush=True)
            continue
        if p["lora"] and peft is None:
            print("gpu_grid: %s skipped: no peft" % p["id"], flush=True)
            continue
        cfg = MODELS[p["model"]]()
        gc.collect()
        torch.cuda.empty_cache()
        base = int(torch.cuda.memory_allocated())
        t0 = time.monotonic()
        entry = {"id": p["id"], "set": p["set"], "reliability": "high",
                 "scenario": scenario_for(p, cfg, preset, tv),
                 "how_measured": ("three steps of a %s (transformers %s, torch %s) on one %s; "
                                  "peak = the largest torch.cuda.max_memory_allocated of the three "
                                  "steps" % ("loop that drops the outputs before backward and "
                                             "uses Trainer's default optimizer, as HF Trainer"
                                             if p["loop"] == "trainer" else
                                             "plain loop holding the outputs through backward",
                                             transformers.__version__, torch.__version__,
                                             env["gpu"])),
                 "provenance": {"device": env["gpu"], "torch": torch.__version__,
                                "transformers": transformers.__version__,
                                "driver": env.get("nvidia_smi"), "date": time.strftime("%Y-%m-%d"),
                                "script": "tests/measure/gpu_grid.py"}}
        try:
            steps, info, snap = runner.run(p, cfg, snap_root if args.snapshots else None)
            peak = max(s["peak_allocated_bytes"] for s in steps)
            entry["measured"] = {
                "metric": "peak_allocated", "bytes": peak,
                "reserved_bytes": max(s["peak_reserved_bytes"] for s in steps),
                "device_bytes": max(s["device_used_after_bytes"] for s in steps),
                "allocated_before_bytes": base}
            gc.collect()
            torch.cuda.empty_cache()
            entry["measured"]["left_allocated_after_bytes"] = int(torch.cuda.memory_allocated()) - base
            entry["detail"] = {"steps": steps, "model": info, "snapshot": snap and os.path.relpath(snap, snap_root)}
            print("%-62s %7.2f GiB alloc %7.2f GiB reserved %5.1fs" % (
                p["id"], peak / GIB, entry["measured"]["reserved_bytes"] / GIB,
                time.monotonic() - t0), flush=True)
        except Exception as e:  # noqa: BLE001 - one failing point must not lose the grid
            entry["error"] = "%s: %s" % (type(e).__name__, e)
            entry["traceback"] = traceback.format_exc()[-2000:]
            print("%-62s FAILED %s" % (p["id"], entry["error"][:300]), flush=True)
        entries.append(entry)
        with open(out_file + ".tmp", "w") as f:
            json.dump({"environment": env, "entries": entries}, f, indent=1)
        os.replace(out_file + ".tmp", out_file)
    # Each snapshot as its own .xz beside the results (a machine may send back only a few
    # files of bounded size: one that is too big loses only itself).
    import lzma
    for e in entries:
        snap = (e.get("detail") or {}).get("snapshot")
        if snap:
            src = os.path.join(snap_root, snap, "snapshot.pickle")
            dst = os.path.join(args.out, "snapshot-%s.pickle.xz" % snap.replace("gpu-", ""))
            with open(src, "rb") as f, lzma.open(dst, "wb", preset=3) as g:
                g.write(f.read())
            for extra in ("memtracker.json", "capture.json"):
                if os.path.exists(os.path.join(snap_root, snap, extra)):
                    e["detail"][extra.replace(".json", "")] = load(os.path.join(snap_root, snap, extra))
    with open(out_file, "w") as f:
        json.dump({"environment": env, "entries": entries}, f, indent=1)
    print("gpu_grid: %d points in %.0f s -> %s" % (len(entries), time.monotonic() - t_start, out_file))
    return 0


if __name__ == "__main__":
    sys.exit(main())
