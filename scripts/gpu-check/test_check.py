"""Tests of check.py that need no GPU (and, but for the last, no PyTorch): the workload it
reads, the layers it builds, and its refusals. Run: python3 -m unittest discover scripts/gpu-check
"""

import contextlib
import io
import json
import os
import sys
import types
import unittest
from unittest import mock

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import check  # noqa: E402

WORKLOADS = os.path.join(HERE, "workloads")
GB = 1e9


def load(name):
    with open(os.path.join(WORKLOADS, name + ".json"), encoding="utf-8") as f:
        return f.read()


def plans():
    with open(os.path.join(WORKLOADS, "plans.json"), encoding="utf-8") as f:
        return json.load(f)


class ReadsWorkloads(unittest.TestCase):
    def test_every_shipped_workload_reads(self):
        for plan in plans():
            w = check.read_workload(load(plan["name"]))
            self.assertEqual(w["card"], plan["card"], plan["name"])
            self.assertGreaterEqual(check.held(w), 1)

    def test_held_is_the_in_flight_count_rounded_up(self):
        w = check.read_workload(load("lesson-64-card0"))
        self.assertEqual(check.held(w), 8)
        w["in_flight"] = 4.5
        self.assertEqual(check.held(w), 5)
        w["in_flight"] = 0.0
        self.assertEqual(check.held(w), 1)

    def test_first_layers_keep_the_stage_proportions(self):
        # The same rule as parallel_core::check::StageLayers::first: the lesson's stage 0
        # has 8 layers, 2 of them full attention.
        w = check.read_workload(load("lesson-64-card0"))
        self.assertEqual(check.first_layers(w, 8), {"total": 8, "moe": 0, "full_attention": 2})
        self.assertEqual(check.first_layers(w, 4), {"total": 4, "moe": 0, "full_attention": 1})
        self.assertEqual(check.first_layers(w, 1), {"total": 1, "moe": 0, "full_attention": 1})
        m = check.read_workload(load("mixtral-ep8-card0"))
        self.assertEqual(check.first_layers(m, 3), {"total": 3, "moe": 3, "full_attention": 3})

    def test_malformed_workloads_name_the_field(self):
        good = json.loads(load("llama3-8b-s4096"))

        def fails(change, words):
            w = json.loads(json.dumps(good))
            change(w)
            with self.assertRaises(check.WorkloadError) as e:
                check.read_workload(json.dumps(w))
            self.assertIn(words, str(e.exception))

        fails(lambda w: w.update(format="something-else"), "`format`")
        fails(lambda w: w.update(format="parallel-lab/measured"), "measured file")
        fails(lambda w: w.update(version=2), "`version`")
        fails(lambda w: w["layer"].pop("hidden"), "`layer.hidden` is missing")
        fails(lambda w: w["layer"].update(heads=-1), "`layer.heads`")
        fails(lambda w: w["tokens"].update(queries=0), "`tokens.queries` is 0")
        fails(lambda w: w.update(recompute="sometimes"), "`recompute`")
        fails(lambda w: w.update(grad_bytes=3), "`grad_bytes`")
        fails(lambda w: w.update(in_flight="two"), "`in_flight`")
        fails(lambda w: w["layers"].update(moe=2), "`layer.experts` is null")
        fails(lambda w: w["layer"].update(mlp="swish"), "`layer.mlp`")

    def test_a_plain_mlp_reads_and_gated_is_the_default(self):
        w = json.loads(load("llama3-8b-s4096"))
        self.assertNotIn("mlp", w["layer"])
        w["layer"]["mlp"] = "plain"
        self.assertEqual(check.read_workload(json.dumps(w))["layer"]["mlp"], "plain")
        for text in ["", "[]", "not json", "{}"]:
            with self.assertRaises(check.WorkloadError):
                check.read_workload(text)


class Refuses(unittest.TestCase):
    def test_a_card_no_gpu_holds_is_refused_with_its_size(self):
        w = check.read_workload(load("too-big"))
        with self.assertRaises(check.WorkloadError) as e:
            check.layers_that_fit(w, 141 * GB)
        self.assertIn("does not fit", str(e.exception))
        self.assertIn("GiB", str(e.exception))

    def test_the_stage_shrinks_to_what_fits(self):
        w = check.read_workload(load("llama3-8b-s4096"))
        whole = check.need_bytes(w, w["layers"]["total"])
        n = check.layers_that_fit(w, whole - 1)
        self.assertLess(n, w["layers"]["total"])
        self.assertLessEqual(check.need_bytes(w, n), whole - 1)
        self.assertGreater(check.need_bytes(w, n + 1), whole - 1)
        self.assertEqual(check.layers_that_fit(w, whole), w["layers"]["total"])

    def test_asked_layers_are_checked(self):
        w = check.read_workload(load("lesson-64-card0"))
        self.assertEqual(check.layers_that_fit(w, 141 * GB, asked=3), 3)
        for asked in (0, 9):
            with self.assertRaises(check.WorkloadError) as e:
                check.layers_that_fit(w, 141 * GB, asked=asked)
            self.assertIn("--layers", str(e.exception))
        with self.assertRaises(check.WorkloadError) as e:
            check.layers_that_fit(w, 1 * GB, asked=8)
        self.assertIn("does not fit", str(e.exception))

    def test_no_pytorch_is_refused(self):
        with mock.patch.dict(sys.modules, {"torch": None}):
            with self.assertRaises(check.WorkloadError) as e:
                check.find_gpu()
        self.assertIn("PyTorch is not installed", str(e.exception))

    def test_no_gpu_is_refused(self):
        fake = types.SimpleNamespace(__version__="0.0", cuda=types.SimpleNamespace(is_available=lambda: False))
        with mock.patch.dict(sys.modules, {"torch": fake}):
            with self.assertRaises(check.WorkloadError) as e:
                check.find_gpu()
        self.assertIn("no GPU found", str(e.exception))

    def test_main_says_why_and_exits_2(self):
        path = os.path.join(WORKLOADS, "lesson-64-card0.json")
        fake = types.SimpleNamespace(__version__="0.0", cuda=types.SimpleNamespace(is_available=lambda: False))
        err = io.StringIO()
        with mock.patch.dict(sys.modules, {"torch": fake}), contextlib.redirect_stderr(err):
            self.assertEqual(check.main([path, "-o", os.devnull]), 2)
        self.assertIn("no GPU found", err.getvalue())
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            self.assertEqual(check.main([os.path.join(WORKLOADS, "absent.json")]), 2)
        self.assertIn("absent.json", err.getvalue())


def has_torch():
    try:
        import torch  # noqa: F401
        return True
    except ImportError:
        return False


@unittest.skipUnless(has_torch(), "PyTorch is not installed here")
class BuildsOnCpu(unittest.TestCase):
    """The layers build and run forward and backward at the workload's shapes (shrunk)."""

    def shrunk(self, name):
        w = check.read_workload(load(name))
        w["tokens"]["queries"] = 64
        w["layer"]["hidden"] = 256
        w["layer"]["head_dim"] = 32
        w["layer"]["ffn"] = 128
        if w["layer"]["experts"]:
            w["layer"]["experts"].update(ffn=64, tokens=96)
        return w

    def test_each_shipped_plan_builds(self):
        import torch
        for plan in plans():
            if plan["name"] == "too-big":
                continue
            w = self.shrunk(plan["name"])
            built = check.first_layers(w, 2)
            layers, forward = check.build(torch, w, built, compiled=False, device="cpu")
            x = torch.randn(w["tokens"]["micro_batch"], 64, 256, dtype=torch.bfloat16, requires_grad=True)
            y = forward(x)
            self.assertEqual(tuple(y.shape), tuple(x.shape), plan["name"])
            y.float().sum().backward()
            for p in layers.parameters():
                self.assertIsNotNone(p.grad, plan["name"])
            states = check.States(torch, layers, w["grad_bytes"])
            states.after_backward()
            states.step()

    def test_a_plain_mlp_builds_up_and_down_only(self):
        import torch
        w = self.shrunk("llama3-8b-s4096")
        w["layer"]["mlp"] = "plain"
        layers, _ = check.build(torch, w, check.first_layers(w, 1), compiled=False, device="cpu")
        mlp = layers[0].mlp
        self.assertEqual(tuple(mlp.up.weight.shape), (128, 256))
        self.assertEqual(tuple(mlp.down.weight.shape), (256, 128))

    def test_a_mode_measures_every_figure(self):
        """measure_mode end to end on the CPU, the CUDA counters stood in for by a ledger of
        the tensors alive (so the figures are counted, not invented)."""
        import torch
        w = self.shrunk("llama3-70b-cp2-card0")
        built = check.first_layers(w, 2)
        ticks = iter(range(1, 10 ** 6))

        class Event:
            def __init__(self, **_):
                self.t = 0

            def record(self):
                self.t = next(ticks)

            def elapsed_time(self, other):
                return float(other.t - self.t)

        counters = types.SimpleNamespace(
            memory_allocated=lambda: 0, max_memory_allocated=lambda: 1, max_memory_reserved=lambda: 2,
            reset_peak_memory_stats=lambda: None, empty_cache=lambda: None, synchronize=lambda: None,
            Event=Event)

        class CpuTorch:
            cuda = counters

            def __getattr__(self, name):
                return getattr(torch, name)

        figures = check.measure_mode(CpuTorch(), w, built, compiled=False, device="cpu")
        self.assertEqual(sorted(figures), sorted([
            "layer_fwd_bwd_s", "activation_per_layer_bytes", "activation_in_flight_bytes",
            "states_bytes", "peak_bytes", "reserved_bytes"]))
        self.assertEqual(figures["layer_fwd_bwd_s"], 1e-3 / built["total"])


if __name__ == "__main__":
    unittest.main()
