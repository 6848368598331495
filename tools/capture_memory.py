#!/usr/bin/env python3
"""Record what one training step holds in GPU memory, in the files vramplan reads.

vramplan's `run-report` (and File > Open Measured Run in the window) lays a run's recording
beside the plan. This script makes that recording, from the user's own training loop, with
nothing but PyTorch (2.1 or later for the snapshot; anything older records what it can).

Use it inside a loop, around one step after the first (the first step also allocates the
optimizer's states, which the second holds from its start):

    from capture_memory import MemoryCapture
    cap = MemoryCapture("vram-run", model=model, optimizer=optimizer)
    for step, batch in enumerate(loader):
        with cap.step(enabled=(step == 1)):
            with cap.phase("forward"):
                loss = model(**batch).loss
            with cap.phase("backward"):
                loss.backward()
            with cap.phase("optimizer"):
                optimizer.step()
                optimizer.zero_grad(set_to_none=True)
    cap.write()          # or: the files are written when the recorded step ends

or without touching the loop, around a whole script (phases found by hooks: the outermost
module's forward, what follows it until the optimizer steps, the optimizer's step):

    python3 tools/capture_memory.py --out vram-run --step 2 -- train.py --its --own --args

Files written to OUT (each named in `capture.json`, which also says what could not be recorded
on this torch release and why):
- `snapshot.pickle`: `torch.cuda.memory._dump_snapshot` with Python stacks (torch >= 2.1);
- `memory_stats.json`: `torch.cuda.memory_stats()` at the end of the step;
- `memtracker.json`: `torch.distributed._tools.mem_tracker.MemTracker`'s peak by kind, when the
  release has it and a model was given (recorded on the step after the captured one, since its
  dispatch mode would otherwise show in the snapshot);
- `capture.json`: the device, driver and torch release, `mem_get_info()` before and after,
  the step's peaks (allocated, reserved) overall and per named phase, and the phases' times.
"""

import argparse
import contextlib
import json
import os
import platform
import runpy
import subprocess
import sys
import time

FORMAT = "vramplan-capture"
VERSION = 1


def _torch():
    import torch  # imported late: --help works without torch
    return torch


def torch_release(torch):
    """(major, minor) of torch.__version__ ("2.11.0+cu130" -> (2, 11))."""
    parts = torch.__version__.split("+")[0].split(".")
    try:
        return int(parts[0]), int(parts[1])
    except (ValueError, IndexError):
        return 0, 0


def driver_version():
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=driver_version,name,memory.total",
                              "--format=csv,noheader"], capture_output=True, text=True, timeout=20)
        return out.stdout.strip().splitlines()[0] if out.returncode == 0 and out.stdout else None
    except (OSError, subprocess.SubprocessError, IndexError):
        return None


def environment(torch, device):
    """What the figures depend on: the GPU, the driver, the torch and CUDA releases."""
    env = {"torch": torch.__version__, "python": platform.python_version(),
           "cuda": getattr(torch.version, "cuda", None), "device": str(device),
           "PYTORCH_CUDA_ALLOC_CONF": os.environ.get("PYTORCH_CUDA_ALLOC_CONF")}
    if device.type == "cuda":
        props = torch.cuda.get_device_properties(device)
        env.update({"gpu": props.name, "gpu_total_bytes": int(props.total_memory),
                    "multiprocessors": props.multi_processor_count,
                    "capability": "%d.%d" % (props.major, props.minor),
                    "nvidia_smi": driver_version()})
    for name in ("transformers", "peft", "accelerate"):
        mod = sys.modules.get(name)
        if mod is not None:
            env[name] = getattr(mod, "__version__", None)
    return env


class MemoryCapture:
    """Records one training step: the allocator's history, its statistics and peaks per phase.

    On a machine without CUDA it still runs (its bookkeeping can be tested on a CPU): every
    figure that needs CUDA is null and `capture.json` says why."""

    def __init__(self, out_dir, model=None, optimizer=None, device=None, max_entries=200000,
                 stacks="python", memtracker=True, snapshot=True, context="alloc"):
        self.torch = _torch()
        torch = self.torch
        self.out_dir = out_dir
        self.model, self.optimizer = model, optimizer
        if device is None:
            device = torch.device("cuda", torch.cuda.current_device()) if torch.cuda.is_available() \
                else torch.device("cpu")
        self.device = torch.device(device)
        self.cuda = self.device.type == "cuda"
        # context "alloc": a stack for every allocation (what places a block), none for frees,
        # which would double the file for nothing the planner reads.
        self.max_entries, self.stacks, self.context = max_entries, stacks, context
        self.want_memtracker = memtracker
        self.want_snapshot = snapshot
        self.not_recorded = {}   # file or figure -> why
        self.phases = []         # {"name", "start_s", "end_s", "peak_allocated_bytes", ...}
        self.files = {}
        self.recording = False
        self.captured = False
        self._memtracker_pending = False
        self._t0 = None
        self._running_peak = {"allocated": 0, "reserved": 0}
        self.result = None
        if not self.cuda:
            self.not_recorded["cuda"] = "no CUDA device: only the bookkeeping runs"

    # -- allocator helpers (None without CUDA) -------------------------------------------------
    def _allocated(self):
        return int(self.torch.cuda.memory_allocated(self.device)) if self.cuda else None

    def _reserved(self):
        return int(self.torch.cuda.memory_reserved(self.device)) if self.cuda else None

    def _mem_info(self):
        if not self.cuda:
            return None
        free, total = self.torch.cuda.mem_get_info(self.device)
        return {"free_bytes": int(free), "total_bytes": int(total), "used_bytes": int(total - free)}

    def _fold_peak(self):
        """Add the allocator's peak since the last reset to the running peak, then reset it, so
        each phase has its own peak and the step's is their maximum."""
        if not self.cuda:
            return None, None
        torch = self.torch
        a = int(torch.cuda.max_memory_allocated(self.device))
        r = int(torch.cuda.max_memory_reserved(self.device))
        self._running_peak["allocated"] = max(self._running_peak["allocated"], a)
        self._running_peak["reserved"] = max(self._running_peak["reserved"], r)
        torch.cuda.reset_peak_memory_stats(self.device)
        return a, r

    # -- the recorded step ---------------------------------------------------------------------
    def start(self):
        torch = self.torch
        self._t0 = time.monotonic()
        self.phases = []
        self._running_peak = {"allocated": 0, "reserved": 0}
        self.before = {"allocated_bytes": self._allocated(), "reserved_bytes": self._reserved(),
                       "mem_get_info": self._mem_info()}
        if self.cuda:
            torch.cuda.synchronize(self.device)
            torch.cuda.reset_peak_memory_stats(self.device)
            if self.want_snapshot:
                self._start_history()
            else:
                self.not_recorded["snapshot.pickle"] = "not asked for"
        self.recording = True

    def _start_history(self):
        torch = self.torch
        record = getattr(torch.cuda.memory, "_record_memory_history", None)
        if record is None or torch_release(torch) < (2, 1):
            self.not_recorded["snapshot.pickle"] = (
                "torch %s has no _record_memory_history with stacks (torch >= 2.1)" % torch.__version__)
            return
        try:
            record(enabled="all", context=self.context, stacks=self.stacks,
                   max_entries=self.max_entries)
        except TypeError:  # a release between 2.1 and 2.2 without one of the arguments
            record(enabled="all", max_entries=self.max_entries)

    def stop(self):
        torch = self.torch
        if not self.recording:
            return
        if self.cuda:
            torch.cuda.synchronize(self.device)
            self._fold_peak()
        self.after = {"allocated_bytes": self._allocated(), "reserved_bytes": self._reserved(),
                      "mem_get_info": self._mem_info()}
        self.recording = False
        self.captured = True
        os.makedirs(self.out_dir, exist_ok=True)
        if self.cuda and "snapshot.pickle" not in self.not_recorded:
            path = os.path.join(self.out_dir, "snapshot.pickle")
            try:
                torch.cuda.memory._dump_snapshot(path)
                self.files["snapshot"] = "snapshot.pickle"
            except Exception as e:  # noqa: BLE001 - a failed dump must not lose the rest
                self.not_recorded["snapshot.pickle"] = "dump failed: %s" % e
            with contextlib.suppress(Exception):
                torch.cuda.memory._record_memory_history(enabled=None)
        if self.cuda:
            stats = {k: int(v) if isinstance(v, (int, bool)) else v
                     for k, v in torch.cuda.memory_stats(self.device).items()}
            self._write_json("memory_stats.json", stats)
            self.files["memory_stats"] = "memory_stats.json"
        else:
            self.not_recorded["memory_stats.json"] = "no CUDA device"
        self._memtracker_pending = self.want_memtracker and self.model is not None
        if not self.want_memtracker:
            self.not_recorded["memtracker.json"] = "not asked for"
        elif self.model is None:
            self.not_recorded["memtracker.json"] = "no model given (MemTracker tracks a module)"
        else:
            self.not_recorded["memtracker.json"] = "recorded on the next step, if there is one"
        self.write()

    @contextlib.contextmanager
    def step(self, enabled=True):
        """Records the step it wraps when enabled; the step after a recorded one runs under
        MemTracker (when the release has it) for the peak by kind."""
        if enabled and not self.captured:
            self.start()
            try:
                yield self
            finally:
                self.stop()
        elif self._memtracker_pending:
            self._memtracker_pending = False
            with self._memtracker() as tracker:
                yield self
            if tracker is not None:
                self._write_memtracker(tracker)
            else:
                self.write()  # with the reason MemTracker could not run
        else:
            yield self

    @contextlib.contextmanager
    def phase(self, name):
        """A named phase of the recorded step: a record_function range (so the snapshot's
        annotations name it, on releases that record them) and a peak of its own."""
        if not self.recording:
            yield
            return
        torch = self.torch
        if self.cuda:
            torch.cuda.synchronize(self.device)
            self._fold_peak()
        entry = {"name": name, "start_s": time.monotonic() - self._t0,
                 "allocated_at_start_bytes": self._allocated()}
        with torch.autograd.profiler.record_function(name):
            yield
        if self.cuda:
            torch.cuda.synchronize(self.device)
        a, r = self._fold_peak()
        entry.update({"end_s": time.monotonic() - self._t0, "peak_allocated_bytes": a,
                      "peak_reserved_bytes": r, "allocated_at_end_bytes": self._allocated()})
        self.phases.append(entry)

    # -- MemTracker (torch >= 2.5) ------------------------------------------------------------
    @contextlib.contextmanager
    def _memtracker(self):
        try:
            from torch.distributed._tools.mem_tracker import MemTracker
        except Exception as e:  # noqa: BLE001 - ImportError, or a distributed-less build
            self.not_recorded["memtracker.json"] = "MemTracker not in torch %s (%s)" % (
                self.torch.__version__, type(e).__name__)
            yield None
            return
        tracker = MemTracker()
        try:
            tracker.track_external(*[x for x in (self.model, self.optimizer) if x is not None])
        except Exception as e:  # noqa: BLE001
            self.not_recorded["memtracker.json"] = "MemTracker.track_external failed: %s" % e
            yield None
            return
        with tracker:
            yield tracker

    def _write_memtracker(self, tracker):
        try:
            snap = tracker.get_tracker_snapshot("peak")
        except Exception as e:  # noqa: BLE001
            self.not_recorded["memtracker.json"] = "MemTracker peak unreadable: %s" % e
            return
        self._write_json("memtracker.json", memtracker_peak_json(snap))
        self.files["memtracker"] = "memtracker.json"
        self.not_recorded.pop("memtracker.json", None)
        self.write()

    # -- output -------------------------------------------------------------------------------
    def _write_json(self, name, obj):
        os.makedirs(self.out_dir, exist_ok=True)
        tmp = os.path.join(self.out_dir, name + ".tmp")
        with open(tmp, "w") as f:
            json.dump(obj, f, indent=1, sort_keys=True)
        os.replace(tmp, os.path.join(self.out_dir, name))

    def summary(self):
        return {"format": FORMAT, "version": VERSION,
                "environment": environment(self.torch, self.device),
                "captured": self.captured, "files": self.files,
                "not_recorded": self.not_recorded,
                "before": getattr(self, "before", None), "after": getattr(self, "after", None),
                "peak": {"allocated_bytes": self._running_peak["allocated"] if self.cuda else None,
                         "reserved_bytes": self._running_peak["reserved"] if self.cuda else None},
                "phases": self.phases}

    def write(self):
        self.result = self.summary()
        self._write_json("capture.json", self.result)
        return self.result


def memtracker_peak_json(snapshot):
    """MemTracker's {device: {reftype: bytes}} as SPEC §3 writes it: {"peak": {"cuda:0":
    {"PARAM": n, ..., "Total": n}}} (the enum's member names, which the reader expects)."""
    out = {}
    for dev, kinds in snapshot.items():
        row = {}
        for kind, nbytes in kinds.items():
            key = getattr(kind, "name", None) or str(kind)
            row[key] = int(nbytes)
        out[str(dev)] = row
    return {"peak": out}


# -- wrapping a whole script -------------------------------------------------------------------
class ScriptHooks:
    """Finds one step of an unmodified script: global module hooks mark the outermost forward,
    optimizer hooks mark the step; the Nth optimizer step (counting from 1) is recorded."""

    def __init__(self, cap, step):
        torch = cap.torch
        self.cap, self.target, self.steps, self.depth = cap, step, 0, 0
        self.current = None
        self._phase_cm = None
        mods = torch.nn.modules.module
        mods.register_module_forward_pre_hook(self._pre)
        mods.register_module_forward_hook(self._post)
        opt = torch.optim.optimizer
        opt.register_optimizer_step_pre_hook(self._opt_pre)
        opt.register_optimizer_step_post_hook(self._opt_post)

    def _enter(self, name):
        self._leave()
        self._phase_cm = self.cap.phase(name)
        self._phase_cm.__enter__()

    def _leave(self):
        if self._phase_cm is not None:
            self._phase_cm.__exit__(None, None, None)
            self._phase_cm = None

    def _pre(self, module, args):
        if self.depth == 0 and self.steps == self.target - 1 and not self.cap.captured:
            if not self.cap.recording:
                self.cap.start()
            self._enter("forward")
        self.depth += 1

    def _post(self, module, args, output):
        self.depth -= 1
        if self.depth == 0 and self.cap.recording:
            self._enter("backward")  # the loss and backward, until the optimizer steps

    def _opt_pre(self, optimizer, args, kwargs):
        if self.cap.recording:
            self._enter("optimizer")

    def _opt_post(self, optimizer, args, kwargs):
        self.steps += 1
        if self.cap.recording and self.steps == self.target:
            self._leave()
            self.cap.stop()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default="vram-run", help="folder for the files (default vram-run)")
    ap.add_argument("--step", type=int, default=2,
                    help="which optimizer step to record, from 1 (default 2: states exist)")
    ap.add_argument("--max-entries", type=int, default=200000,
                    help="allocator events kept (older ones are dropped; the peak stays right)")
    ap.add_argument("script", nargs=argparse.REMAINDER, help="-- SCRIPT.py [ARGS...]")
    args = ap.parse_args(argv)
    script = [a for a in args.script if a != "--"] if args.script[:1] == ["--"] else args.script
    if not script:
        ap.error("name the training script after --")
    if args.step < 1:
        ap.error("--step counts from 1")
    cap = MemoryCapture(args.out, max_entries=args.max_entries)
    ScriptHooks(cap, args.step)
    sys.argv = script
    try:
        runpy.run_path(script[0], run_name="__main__")
    finally:
        if cap.recording:  # the script ended inside the step: keep what was recorded
            cap.stop()
        if not cap.captured:
            cap.not_recorded["step"] = "the script made fewer than %d optimizer steps" % args.step
            cap.write()
        print("capture_memory: wrote %s (%s)%s" % (
            args.out, ", ".join(sorted(cap.files.values())) or "capture.json only",
            "".join("\n  not recorded: %s: %s" % kv for kv in sorted(cap.not_recorded.items()))),
            file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
