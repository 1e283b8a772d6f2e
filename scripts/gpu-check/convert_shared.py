#!/usr/bin/env python3
"""Writes the H200 measurements of crates/parallel-core/data/h200-2026-12-04 (the lab's kernel
tables' source, SPEC §18) as measured files of this project's format, one per shipped workload
of the same shape, so that the lab's comparison reads them like any student's file:

    python3 scripts/gpu-check/convert_shared.py crates/parallel-core/data/h200-2026-12-04 tests/fixtures/check

Only what those files measured is filled in (one layer's time, eager and compiled, from
layer.json; one layer's activation bytes from acts.json and memory.json); every other figure
is null, which the comparison shows as "–".
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = "one H200 SXM, PyTorch 2.11.0 + CUDA 13.0, 2026-12-04 (the lab's kernel tables' source)"


def rows(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)["rows"]


def main(shared, out):
    layer = [r for r in rows(os.path.join(shared, "layer.json")) if r["shape"] == "llama3-8b"]
    acts = [r for r in rows(os.path.join(shared, "acts.json")) if r.get("shape") == "llama3-8b"]
    memory = [r for r in rows(os.path.join(shared, "memory.json")) if r.get("shape") == "llama3-8b"]
    with open(os.path.join(shared, "card.json"), encoding="utf-8") as f:
        card = json.load(f)
    for seq, name, full in [(2048, "llama3-8b-s2048", False), (4096, "llama3-8b-s4096", False),
                            (8192, "llama3-8b-s8192", False), (4096, "llama3-8b-s4096-full", True)]:
        with open(os.path.join(HERE, "workloads", name + ".json"), encoding="utf-8") as f:
            workload = json.load(f)
        eager = dict.fromkeys(["layer_fwd_bwd_s", "activation_per_layer_bytes",
                               "activation_in_flight_bytes", "states_bytes", "peak_bytes",
                               "reserved_bytes"])
        compiled = dict(eager)
        for r in layer:
            if r["seq"] == seq and not full:
                eager["layer_fwd_bwd_s"] = r["eager_fwd_bwd_ms"] / 1e3
                if "compiled_fwd_bwd_ms" in r:
                    compiled["layer_fwd_bwd_s"] = r["compiled_fwd_bwd_ms"] / 1e3
        for r in acts:
            if r["seq"] == seq and not full:
                (eager if r["mode"] == "eager" else compiled)["activation_per_layer_bytes"] = \
                    r["activation_bytes_per_layer"]
        for r in memory:
            if r["seq"] == seq and r["full_recompute"] == full and eager["activation_per_layer_bytes"] is None:
                eager["activation_per_layer_bytes"] = r["activation_bytes_per_layer"]
        measured = {
            "format": "parallel-lab/measured",
            "version": 1,
            "workload": workload,
            "card": {"name": card["name"], "memory_bytes": card["mem_bytes"], "sms": card["sms"]},
            "software": {"torch": card["torch"], "cuda": card["cuda"]},
            "date": "2026-12-04",
            "method": f"Converted from {SOURCE}: layer.json (one layer's forward + backward, "
                      "CUDA-event medians), acts.json and memory.json (a layer's activation "
                      "bytes, the forward of 4 layers less 2); figures those files lack are null.",
            "built": {"layers": 1, "moe": 0, "full_attention": 1, "held": 1},
            "eager": eager,
            "compiled": compiled if any(v is not None for v in compiled.values()) else None,
        }
        path = os.path.join(out, f"shared-h200-{name}.measured.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(measured, f, indent=1)
            f.write("\n")
        print("wrote", path)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: convert_shared.py SHARED_DIR OUT_DIR")
    main(sys.argv[1], sys.argv[2])
