#!/usr/bin/python3
"""Writes the measured-run fixtures of tests/data/runs/ (vramplan-cli run-report, core/runs/).

Standard library only (no torch): the snapshots are built the way
torch.cuda.memory._snapshot() shapes them (segments with blocks and their states,
device_traces with alloc / free_requested / free_completed / segment_alloc / segment_free
entries and their frames, shared frame lists, tuples for segment_pool_id) and pickled with
pickle.dump as torch.cuda.memory._dump_snapshot does. One training step of a toy model is
simulated, so every figure is known by construction and checked here before anything is written:

    allocated peak 30 MiB (in backward), reserved peak 40 MiB; at the peak: parameters 6 MiB,
    activations 8 MiB, temporary 12 MiB, gradients 4 MiB.

Run from anywhere: /usr/bin/python3 tests/data/runs/make_snapshots.py
With --large PATH MB it writes one large snapshot-shaped pickle for measuring speed and memory
(not kept in the repository).
"""

import json
import os
import pickle
import sys

MiB = 1 << 20
HERE = os.path.dirname(os.path.abspath(__file__))
TORCH = "/usr/lib/python3/dist-packages/torch"


def frame(filename, name, line):
    return {"filename": filename, "name": name, "line": line}


# Frames and stacks are shared objects, as in torch's snapshots (pickle memoizes them).
F_TRAIN = frame("train.py", "main", 40)
F_APPLY = frame(TORCH + "/nn/modules/module.py", "_apply", 900)
F_CALL = frame(TORCH + "/nn/modules/module.py", "_call_impl", 1527)
F_FORWARD = frame("model.py", "forward", 12)
F_BACKWARD = frame(TORCH + "/_tensor.py", "backward", 522)
F_ENGINE = frame("??", "torch::autograd::Engine::evaluate_function(...)", 0)
F_ACCUMULATE = frame("??", "torch::autograd::AccumulateGrad::apply(...)", 0)
F_STEP = frame(TORCH + "/optim/adamw.py", "step", 200)
F_INIT_GROUP = frame(TORCH + "/optim/adamw.py", "_init_group", 150)
F_SINGLE = frame(TORCH + "/optim/adamw.py", "_single_tensor_adamw", 350)

# Stacks as recorded with stacks="all" (C++ frames of the autograd engine)...
ALL = {
    "init": [F_TRAIN, F_APPLY],
    "forward": [F_TRAIN, F_CALL, F_FORWARD],
    "backward": [F_TRAIN, F_BACKWARD, F_ENGINE],
    "accumulate": [F_ENGINE, F_ACCUMULATE],
    "init_group": [F_TRAIN, F_STEP, F_INIT_GROUP],
    "optimizer": [F_TRAIN, F_STEP, F_SINGLE],
}
# ... and with stacks="python": the autograd engine's threads record no Python frames.
PYTHON = dict(ALL, backward=[], accumulate=[])


class Run:
    """One device's allocator history, and its final state as a snapshot's segments."""

    def __init__(self, stacks, timed, device=0):
        self.stacks, self.timed, self.device = stacks, timed, device
        self.trace, self.annotations = [], []
        self.segments = {}  # address -> total size
        self.live = {}  # address -> (requested size, block size, frames)
        self.t = 1_700_000_000_000_000

    def tick(self):
        self.t += 1000
        return self.t

    def event(self, action, addr, size, stack):
        e = {"action": action, "addr": addr, "size": size, "stream": 0}
        if stack is not None:
            e["frames"] = self.stacks[stack]
        if self.timed:
            e["time_us"] = self.tick()
        self.trace.append(e)

    def annotate(self, name, stage):
        self.annotations.append(
            {"device": self.device, "name": name, "stage": stage, "time_us": self.tick()})

    def segment_alloc(self, addr, size, stack):
        self.segments[addr] = size
        self.event("segment_alloc", addr, size, stack)

    def segment_free(self, addr, stack):
        self.event("segment_free", addr, self.segments.pop(addr), stack)

    def alloc(self, addr, requested, stack, block=None):
        self.live[addr] = (requested, block or requested, stack)
        self.event("alloc", addr, requested, stack)

    def free(self, addr, stack):
        requested = self.live.pop(addr)[0]
        self.event("free_requested", addr, requested, stack)
        self.event("free_completed", addr, requested, stack)

    def segments_now(self):
        out = []
        for base, total in sorted(self.segments.items()):
            blocks, at = [], base
            inside = sorted(a for a in self.live if base <= a < base + total)
            for a in inside + [base + total]:
                if a > at:
                    blocks.append({"address": at, "size": a - at, "requested_size": 0,
                                   "state": "inactive", "frames": []})
                if a == base + total:
                    break
                requested, block, stack = self.live[a]
                frames = self.stacks[stack] if stack is not None else []
                blocks.append({"address": a, "size": block, "requested_size": requested,
                               "state": "active_allocated", "frames": frames})
                at = a + block
            used = sum(b["size"] for b in blocks if b["state"] != "inactive")
            out.append({"device": self.device, "address": base, "total_size": total,
                        "allocated_size": used, "active_size": used,
                        "requested_size": sum(b["requested_size"] for b in blocks),
                        "stream": 0, "segment_type": "large", "segment_pool_id": (0, 0),
                        "is_expandable": False, "frames": [], "blocks": blocks})
        return out


def training_step(stacks, timed, annotated):
    """Device 0: one step of a toy model; returns the Run."""
    r = Run(stacks, timed)
    S1, S2, S3 = 0x7F0000000000, 0x7F0010000000, 0x7F0020000000
    r.segment_alloc(S1, 8 * MiB, "init")  # the model moves to the GPU
    r.alloc(S1, 4 * MiB, "init")  # P1
    r.alloc(S1 + 4 * MiB, 2 * MiB, "init")  # P2
    if annotated:
        r.annotate("## forward ##", "START")
    r.segment_alloc(S2, 20 * MiB, "forward")
    r.alloc(S2, 3 * MiB, "forward")  # A1, saved for backward
    r.alloc(S2 + 3 * MiB, 1 * MiB, "forward")  # T1, a temporary of forward
    r.free(S2 + 3 * MiB, "forward")
    r.alloc(S2 + 4 * MiB, 5 * MiB, "forward")  # A2
    if annotated:
        r.annotate("## forward ##", "END")
        r.annotate("## backward ##", "START")
    r.segment_alloc(S3, 12 * MiB, "backward")
    r.alloc(S3, 12 * MiB, "backward")  # T2, a temporary of backward
    r.alloc(S2 + 9 * MiB, 4 * MiB, "accumulate")  # G1: the peak, 30 MiB
    r.free(S3, "backward")
    r.segment_free(S3, "backward")
    r.free(S2 + 4 * MiB, "backward")
    # G2: requested 2,000,000 bytes in a block rounded to 512 (every figure uses requested).
    r.alloc(S2 + 13 * MiB, 2_000_000, "backward", block=2_000_384)
    r.free(S2, "backward")
    if annotated:
        r.annotate("## backward ##", "END")
        r.annotate("Optimizer.step#AdamW.step", "START")
    for offset, size in ((0, 4), (4, 4), (15, 2), (17, 2)):  # exp_avg, exp_avg_sq
        r.alloc(S2 + offset * MiB, size * MiB, "init_group")
    r.alloc(S2 + 8 * MiB, 1 * MiB, "optimizer")  # T3
    r.free(S2 + 8 * MiB, "optimizer")
    if annotated:
        r.annotate("Optimizer.step#AdamW.step", "END")
    return r


def second_device():
    r = Run({"none": None}, timed=True, device=1)
    D = 0x7F1000000000
    r.segment_alloc(D, 2 * MiB, None)
    r.alloc(D, 1 * MiB, None)
    r.free(D, None)
    r.alloc(D, 512 * 1024, None)
    return r


def replay(trace, allocated, reserved):
    """Forward through a trace from the state before it: the peaks (independent of vramplan)."""
    peak_a, peak_r = allocated, reserved
    for e in trace:
        delta = {"alloc": (e["size"], 0), "free_completed": (-e["size"], 0),
                 "segment_alloc": (0, e["size"]), "segment_free": (0, -e["size"])}
        a, r = delta.get(e["action"], (0, 0))
        allocated, reserved = allocated + a, reserved + r
        peak_a, peak_r = max(peak_a, allocated), max(peak_r, reserved)
    return peak_a, peak_r, allocated, reserved


def snapshot(run, devices=(), annotations=True, settings=True):
    s = {"segments": run.segments_now(), "device_traces": [run.trace]}
    for d in devices:
        s["segments"] += d.segments_now()
        s["device_traces"].append(d.trace)
    if settings:
        s["allocator_settings"] = {"PYTORCH_CUDA_ALLOC_CONF": "", "max_split_size": -1,
                                   "garbage_collection_threshold": 0.0,
                                   "expandable_segments": False,
                                   "roundup_power2_divisions": {"1": 0, "2": 0}}
    if annotations and run.annotations:
        s["external_annotations"] = run.annotations
    return s


def write(name, data):
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(data)


def large(path, megabytes):
    """A snapshot-shaped pickle of about `megabytes` MB: many steps of the toy model."""
    r = Run(ALL, timed=True)
    base = 0x7E0000000000
    r.segment_alloc(base, 1 << 40, "init")
    step = 0
    while len(r.trace) * 60 < megabytes * 1_000_000:
        stacks = [[F_TRAIN, F_CALL, frame("model.py", "layer%d" % (i % 97), i)] for i in range(8)]
        for i in range(64):
            r.stacks["s%d" % i] = stacks[i % 8]
            r.alloc(base + (step * 64 + i) * 4096, 4096 + i, "s%d" % i)
        for i in range(64):
            r.free(base + (step * 64 + i) * 4096, "s%d" % i)
        step += 1
    with open(path, "wb") as f:
        pickle.dump(snapshot(r), f, protocol=4)


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--large":
        large(sys.argv[2], int(sys.argv[3]))
        return
    full = training_step(ALL, timed=True, annotated=True)
    python_only = training_step(PYTHON, timed=False, annotated=False)
    # The figures by construction, checked by an independent forward replay.
    for r in (full, python_only):
        assert replay(r.trace, 0, 0)[:2] == (30 * MiB, 40 * MiB), replay(r.trace, 0, 0)
        assert replay(r.trace, 0, 0)[2] == 22 * MiB + 2_000_000
    annotated = snapshot(full, devices=[second_device()])
    for protocol in (2, 4, 5):
        write("snapshot_p%d.pickle" % protocol, pickle.dumps(annotated, protocol=protocol))
    write("snapshot.json", json.dumps(annotated, indent=1).encode())
    frames_only = snapshot(python_only, settings=False)
    write("snapshot_frames.pickle", pickle.dumps(frames_only, protocol=4))
    for protocol in (0, 1):  # the text forms, read too
        write("snapshot_frames_p%d.pickle" % protocol, pickle.dumps(frames_only, protocol=protocol))
    # A ring buffer that lost its oldest entries: the trace starts at T1's alloc.
    lost = snapshot(full)
    lost["device_traces"][0] = full.trace[5:]
    assert replay(full.trace[5:], 9 * MiB, 28 * MiB)[:2] == (30 * MiB, 40 * MiB)
    write("snapshot_lost_oldest.pickle", pickle.dumps(lost, protocol=4))
    # History not recorded: only the state at the end.
    state_only = snapshot(full, annotations=False)
    state_only["device_traces"] = [[]]
    write("snapshot_state_only.pickle", pickle.dumps(state_only, protocol=4))

    # What must be refused: an import and a call (nothing may run), and truncated files.
    write("evil_global_reduce.pickle", b"\x80\x02cos\nsystem\nX\x0a\x00\x00\x00echo pwned\x85R.")
    write("evil_stack_global.pickle",
          b"\x80\x04\x8c\x02os\x94\x8c\x06system\x94\x93\x94\x8c\x0aecho pwned\x94\x85\x94R\x94.")
    p4 = pickle.dumps(annotated, protocol=4)
    write("truncated_half.pickle", p4[: len(p4) // 2])
    write("truncated_end.pickle", p4[:-1])
    write("truncated.json", json.dumps(annotated).encode()[:1000])

    # The other files a run writes.
    write("memory_stats.json", json.dumps({
        "active_bytes.all.peak": 32212254720, "allocated_bytes.all.current": 17179869184,
        "allocated_bytes.all.peak": 32212254720, "requested_bytes.all.peak": 32000000000,
        "reserved_bytes.all.current": 34359738368, "reserved_bytes.all.peak": 36507222016,
        "num_alloc_retries": 0, "num_ooms": 0}, indent=1).encode())
    write("mem_tracker_peak.json", json.dumps({"peak": {
        "cpu": {"PARAM": 0, "BUFFER": 0, "GRAD": 0, "ACT": 0, "TEMP": 0, "OPT": 0, "OTH": 0,
                "Total": 0},
        "cuda:0": {"PARAM": 16060522496, "BUFFER": 262144, "GRAD": 16060522496,
                   "ACT": 5368709120, "TEMP": 1073741824, "OPT": 32121044992, "OTH": 4096,
                   "Total": 70684803072}}}, indent=1).encode())
    rows = ["timestamp, memory.used [MiB]"]
    for second, used in enumerate((1024, 17000, 31000, 33500, 32000, 18000)):
        rows.append("2025/01/15 10:00:%02d.250, %d MiB" % (second, used))
    write("nvidia_smi.csv", ("\n".join(rows) + "\n").encode())
    rows = ["timestamp, memory.used [MiB]"]
    for second, (gpu0, gpu1) in enumerate(((500, 600), (40000, 41000), (39000, 45000))):
        rows += ["2025/01/15 10:00:%02d.000, %d MiB" % (second, gpu0),
                 "2025/01/15 10:00:%02d.000, %d MiB" % (second, gpu1)]
    write("nvidia_smi_2gpu.csv", ("\n".join(rows) + "\n").encode())


if __name__ == "__main__":
    main()
