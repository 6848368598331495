#!/usr/bin/env python3
"""The bookkeeping of tools/capture_memory.py, tested without a GPU and without PyTorch.

A stand-in `torch` module simulates a CUDA caching allocator whose figures the test sets
(allocations made inside each phase), so the peaks per phase and per step, the files written
and the reasons given for what could not be recorded are checked exactly. CTest runs it
(`capture_memory_bookkeeping`); it needs only python3.
"""

import contextlib
import json
import os
import pickle
import sys
import tempfile
import types
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "tools"))

MIB = 1 << 20


def load_json(path):
    with open(path) as f:
        return json.load(f)


class FakeAllocator:
    """allocated/reserved now and their peaks since the last reset; reserved grows in 2 MiB
    segments and never shrinks (as the caching allocator keeps what it reserved)."""

    def __init__(self):
        self.allocated = 0
        self.reserved = 0
        self.peak_allocated = 0
        self.peak_reserved = 0
        self.history = None
        self.events = []

    def alloc(self, n):
        self.allocated += n
        while self.reserved < self.allocated:
            self.reserved += 2 * MIB
        self.peak_allocated = max(self.peak_allocated, self.allocated)
        self.peak_reserved = max(self.peak_reserved, self.reserved)
        if self.history:
            self.events.append({"action": "alloc", "size": n})

    def free(self, n):
        self.allocated -= n
        if self.history:
            self.events.append({"action": "free_completed", "size": n})

    def reset_peaks(self):
        self.peak_allocated = self.allocated
        self.peak_reserved = self.reserved


def fake_torch(alloc, release="2.11.0+cu130", with_history=True, with_memtracker=False):
    torch = types.ModuleType("torch")
    torch.__version__ = release
    torch.version = types.SimpleNamespace(cuda="13.0")

    class Device:
        def __init__(self, kind, index=None):
            if isinstance(kind, Device):
                kind, index = kind.type, kind.index
            self.type, self.index = kind, index

        def __str__(self):
            return self.type if self.index is None else "%s:%d" % (self.type, self.index)

    torch.device = Device
    cuda = types.SimpleNamespace()
    cuda.is_available = lambda: True
    cuda.current_device = lambda: 0
    cuda.synchronize = lambda device=None: None
    cuda.memory_allocated = lambda device=None: alloc.allocated
    cuda.memory_reserved = lambda device=None: alloc.reserved
    cuda.max_memory_allocated = lambda device=None: alloc.peak_allocated
    cuda.max_memory_reserved = lambda device=None: alloc.peak_reserved
    cuda.reset_peak_memory_stats = lambda device=None: alloc.reset_peaks()
    cuda.mem_get_info = lambda device=None: (80 * 1024 * MIB - alloc.reserved - 500 * MIB,
                                             80 * 1024 * MIB)
    cuda.get_device_properties = lambda device: types.SimpleNamespace(
        name="Fake H100", total_memory=80 * 1024 * MIB, multi_processor_count=132, major=9, minor=0)
    cuda.memory_stats = lambda device=None: {"allocated_bytes.all.peak": alloc.peak_allocated,
                                             "reserved_bytes.all.peak": alloc.peak_reserved}
    memory = types.SimpleNamespace()
    if with_history:
        def record(enabled="all", **kwargs):
            alloc.history = enabled
            if enabled:
                alloc.events = []
        memory._record_memory_history = record

        def dump(path):
            with open(path, "wb") as f:
                pickle.dump({"segments": [], "device_traces": [alloc.events]}, f, protocol=4)
        memory._dump_snapshot = dump
    cuda.memory = memory
    torch.cuda = cuda
    torch.autograd = types.SimpleNamespace(profiler=types.SimpleNamespace(
        record_function=lambda name: contextlib.nullcontext()))
    modules = {"torch": torch}
    if with_memtracker:
        class Kind:
            def __init__(self, name):
                self.name = name

        class MemTracker:
            def track_external(self, *mods):
                self.mods = mods

            def __enter__(self):
                return self

            def __exit__(self, *exc):
                return False

            def get_tracker_snapshot(self, kind):
                return {"cuda:0": {Kind("PARAM"): 100, Kind("OPT"): 200, "Total": 300}}
        mt = types.ModuleType("torch.distributed._tools.mem_tracker")
        mt.MemTracker = MemTracker
        for name in ("torch.distributed", "torch.distributed._tools"):
            modules[name] = types.ModuleType(name)
        modules["torch.distributed._tools.mem_tracker"] = mt
    return modules


class CaptureBookkeeping(unittest.TestCase):
    def setUp(self):
        self.alloc = FakeAllocator()
        self.tmp = tempfile.TemporaryDirectory()
        self.saved = {k: v for k, v in sys.modules.items() if k == "torch" or k.startswith("torch.")}

    def tearDown(self):
        for k in [k for k in sys.modules if k == "torch" or k.startswith("torch.")]:
            del sys.modules[k]
        sys.modules.update(self.saved)
        sys.modules.pop("capture_memory", None)
        self.tmp.cleanup()

    def capture_module(self, **kwargs):
        sys.modules.update(fake_torch(self.alloc, **kwargs))
        sys.modules.pop("capture_memory", None)
        import capture_memory
        return capture_memory

    def one_step(self, cap, enabled=True):
        """params 100 MiB resident; forward keeps 300 MiB (a 50 MiB temporary on top);
        backward frees activations as gradients (100 MiB) appear; the step adds states once."""
        a = self.alloc
        with cap.step(enabled=enabled):
            with cap.phase("forward"):
                a.alloc(300 * MIB)
                a.alloc(50 * MIB)
                a.free(50 * MIB)
            with cap.phase("backward"):
                a.alloc(100 * MIB)   # gradients, while activations are still alive
                a.free(300 * MIB)
            with cap.phase("optimizer"):
                if not getattr(self, "states", False):
                    a.alloc(200 * MIB)
                    self.states = True
                a.alloc(25 * MIB)    # a foreach temporary
                a.free(25 * MIB)
                a.free(100 * MIB)   # zero_grad(set_to_none=True)

    def test_peaks_per_phase_and_step(self):
        cm = self.capture_module()
        self.alloc.alloc(100 * MIB)
        out = os.path.join(self.tmp.name, "run")
        cap = cm.MemoryCapture(out, model=None)
        self.one_step(cap, enabled=False)  # step 1: states appear, not recorded
        self.assertFalse(cap.captured)
        self.one_step(cap, enabled=True)
        r = load_json(os.path.join(out, "capture.json"))
        phases = {p["name"]: p for p in r["phases"]}
        self.assertEqual(list(phases), ["forward", "backward", "optimizer"])
        base = 300 * MIB  # parameters + states
        self.assertEqual(phases["forward"]["peak_allocated_bytes"], base + 350 * MIB)
        self.assertEqual(phases["backward"]["peak_allocated_bytes"], base + 400 * MIB)
        self.assertEqual(phases["optimizer"]["peak_allocated_bytes"], base + 125 * MIB)
        self.assertEqual(r["peak"]["allocated_bytes"], base + 400 * MIB)
        self.assertEqual(r["after"]["allocated_bytes"], base)
        self.assertEqual(r["after"]["mem_get_info"]["used_bytes"], self.alloc.reserved + 500 * MIB)
        self.assertEqual(r["environment"]["gpu"], "Fake H100")
        self.assertEqual(sorted(r["files"].values()), ["memory_stats.json", "snapshot.pickle"])
        self.assertIn("no model given", r["not_recorded"]["memtracker.json"])
        with open(os.path.join(out, "snapshot.pickle"), "rb") as f:
            snap = pickle.load(f)
        sizes = [e["size"] for e in snap["device_traces"][0] if e["action"] == "alloc"]
        self.assertEqual(sizes, [300 * MIB, 50 * MIB, 100 * MIB, 25 * MIB])  # step 2 only
        stats = load_json(os.path.join(out, "memory_stats.json"))
        self.assertEqual(stats["allocated_bytes.all.peak"], self.alloc.peak_allocated)

    def test_old_release_says_what_is_missing(self):
        cm = self.capture_module(release="2.0.1", with_history=False)
        out = os.path.join(self.tmp.name, "old")
        cap = cm.MemoryCapture(out, model=object())
        self.one_step(cap)
        r = load_json(os.path.join(out, "capture.json"))
        self.assertIn("torch 2.0.1 has no _record_memory_history", r["not_recorded"]["snapshot.pickle"])
        self.assertNotIn("snapshot", r["files"])
        self.one_step(cap, enabled=False)  # MemTracker is tried on the next step
        r = load_json(os.path.join(out, "capture.json"))
        self.assertIn("MemTracker not in torch 2.0.1", r["not_recorded"]["memtracker.json"])

    def test_memtracker_peak_in_spec_form(self):
        cm = self.capture_module(with_memtracker=True)
        out = os.path.join(self.tmp.name, "mt")
        cap = cm.MemoryCapture(out, model=object(), optimizer=object())
        self.one_step(cap)
        self.one_step(cap, enabled=False)
        peak = load_json(os.path.join(out, "memtracker.json"))
        self.assertEqual(peak, {"peak": {"cuda:0": {"PARAM": 100, "OPT": 200, "Total": 300}}})
        r = load_json(os.path.join(out, "capture.json"))
        self.assertEqual(r["files"]["memtracker"], "memtracker.json")
        self.assertNotIn("memtracker.json", r["not_recorded"])

    def test_a_step_that_raises_still_writes(self):
        cm = self.capture_module()
        out = os.path.join(self.tmp.name, "oom")
        cap = cm.MemoryCapture(out)
        with self.assertRaises(RuntimeError):
            with cap.step():
                with cap.phase("forward"):
                    self.alloc.alloc(10 * MIB)
                    raise RuntimeError("CUDA out of memory")
        r = load_json(os.path.join(out, "capture.json"))
        self.assertTrue(r["captured"])
        self.assertEqual(r["peak"]["allocated_bytes"], 10 * MIB)


if __name__ == "__main__":
    unittest.main()
