#!/usr/bin/env python3
"""Writes what vramplan-cli prints for every scenario and config the project holds, one file per
command, so that two builds can be compared byte for byte (a change of structure must leave
them identical):

    tools/cli-outputs.py OLD/build/app/vramplan-cli /tmp/old
    tools/cli-outputs.py build/app/vramplan-cli /tmp/new
    diff -r /tmp/old /tmp/new && echo identical

Scenarios: resources/scenarios/, tests/data/ (the files, and every scenario a record of
tests/data/measured/ embeds), and ../shared/validation/measured.json where it is beside the
checkout. Configs: resources/models/, tests/data/hf_configs/, ../shared/validation/hf_configs*/.
Each output file holds the exit status, stdout and stderr.
"""
import hashlib
import os
import json
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def scenarios_in(value, found):
    """Every object with "format": "vramplan-scenario" inside a JSON value."""
    if isinstance(value, dict):
        if value.get("format") == "vramplan-scenario":
            found.append(value)
            return
        for v in value.values():
            scenarios_in(v, found)
    elif isinstance(value, list):
        for v in value:
            scenarios_in(v, found)


def collect_scenarios():
    texts = {}
    files = sorted((ROOT / "resources/scenarios").glob("*.json"))
    files += sorted((ROOT / "tests/data").rglob("*.json"))
    shared = ROOT.parent / "shared/validation/measured.json"
    if shared.exists():
        files.append(shared)
    for path in files:
        try:
            data = json.loads(path.read_text())
        except (ValueError, UnicodeDecodeError):
            continue
        found = []
        scenarios_in(data, found)
        for s in found:
            text = json.dumps(s, indent=1, sort_keys=False)
            key = hashlib.sha1(text.encode()).hexdigest()[:12]
            texts.setdefault(key, (os.path.relpath(path, ROOT), text))
    return texts


def collect_configs():
    dirs = [ROOT / "resources/models", ROOT / "tests/data/hf_configs"]
    dirs += sorted((ROOT.parent / "shared/validation").glob("hf_configs*"))
    return [p for d in dirs if d.exists() for p in sorted(d.rglob("*.json"))]


def run(cli, args, stdin, out):
    # From the checkout, with paths relative to it: two checkouts print the same paths.
    r = subprocess.run([cli] + args, input=stdin, capture_output=True, cwd=ROOT)
    out.write_bytes(b"rc %d\n--- stdout\n" % r.returncode + r.stdout + b"--- stderr\n" + r.stderr)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    cli, outdir = str(pathlib.Path(sys.argv[1]).resolve()), pathlib.Path(sys.argv[2])
    outdir.mkdir(parents=True, exist_ok=True)
    run(cli, ["presets"], None, outdir / "presets")
    run(cli, ["gpus"], None, outdir / "gpus")
    run(cli, ["--help"], None, outdir / "help")
    run(cli, ["estimate", "--default", "--format", "table"], None, outdir / "default-table")
    for i, path in enumerate(collect_configs()):
        relative = os.path.relpath(path, ROOT)
        run(cli, ["params", relative], None, outdir / ("params-%03d-%s" % (i, path.stem)))
    per_scenario = [
        ("estimate", ["estimate", "-"]),
        ("table", ["estimate", "-", "--format", "table"]),
        ("table-gb", ["estimate", "-", "--format", "table", "--units", "gb"]),
        ("max-batch", ["max-batch", "-"]),
        ("max-sequence", ["max-sequence", "-"]),
        ("min-gpus", ["min-gpus", "-"]),
        ("sweep-batch", ["sweep", "-", "--vary", "training.micro_batch_size=1:9:2"]),
        ("sweep-gpus", ["sweep", "-", "--vary", "parallelism.gpus=1:16:3"]),
        ("calibrate", ["calibrate", "-", "--metric", "reserved", "--measured", "20GiB"]),
        ("advise", ["advise", "-"]),
        ("advise-table", ["advise", "-", "--format", "table"]),
        ("advise-serving", ["advise", "-", "--requests", "8", "--tokens", "4096"]),
    ]
    scenarios = collect_scenarios()
    for key, (source, text) in sorted(scenarios.items()):
        (outdir / ("scenario-%s.json" % key)).write_text("%s\n%s\n" % (source, text))
        for name, args in per_scenario:
            run(cli, args, text.encode(), outdir / ("%s-%s" % (key, name)))
    print("%d scenarios, %d configs -> %s" % (len(scenarios), len(collect_configs()), outdir))


if __name__ == "__main__":
    main()
