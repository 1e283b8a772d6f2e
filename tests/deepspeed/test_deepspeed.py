"""The lab against DeepSpeed's own code (issue 56), over seeded random plans.

For each plan (presets and small inline models, dense and MoE; TP 1-8, PP 1-4, CP 1-2, EP 1-8;
card counts that are whole nodes and ones that are not, such as 12 cards on 8-card nodes; both rank
orders; ZeRO 0-3, the optimizer on the card or the host, BF16 or FP32 gradients):

- `parallel-lab eval`: a plan the lab's core refuses (exit 2) is skipped and counted;
- `parallel-lab flags --engine deepspeed --format json`: the lab's launch line, ds_config.json and
  notes, or exit 2 with a named error (`field: DeepSpeed refuses this plan: ...`);
- judge.py runs DeepSpeed 0.19.8's own start-up on what the lab printed (the launcher's runner on
  the line, train.py's DeepSpeed arguments, the model-parallel unit the notes name,
  `DeepSpeedConfig`, the engine up to its optimizer, the MoE groups) and reports what DeepSpeed
  derives;
- where the lab prints: DeepSpeed must accept it, and derive exactly what the lab's report
  counts: the processes on each node (the cluster's nodes filled in order, no card a node lacks),
  the data-parallel size (the report's `dp`), train_batch_size (the report's tokens per step / s),
  the micro-batch size b, the gradient accumulation steps m, the ZeRO stage, the group the
  optimizer states are sharded over (1 at ZeRO 0, d·c from ZeRO 1, as the lab's ledger divides
  them), the optimizer on the host exactly when the plan puts it there (and the report counts its
  PCIe traffic), Adam with FP32 states, the gradients' accumulation and reduction dtypes (2 or 4
  bytes, the ledger's g); and the data-parallel, pipeline and (MoE) expert groups of sampled cards
  equal `parallel-lab groups --card N`;
- where the lab refuses: its error must name a field (exit 2), and DeepSpeed must be unable to run
  the plan as planned: the lab's own output for the plan at ZeRO 1 (and, if it refuses that too,
  in the order tp-cp-dp-pp) with the plan's stage and order put back (`sized_output`) is judged,
  and DeepSpeed must refuse it or derive something other than the plan.

Every mismatch is collected, and the test fails once with counts by kind and the first examples
(the plan, the lab's value, DeepSpeed's). The seed is printed; `PARALLEL_LAB_SEED=N` replays a run,
`PARALLEL_LAB_DEEPSPEED_PLANS` sets the number of plans (default 300),
`PARALLEL_LAB_DEEPSPEED_WORKERS` the processes (default 2), `PARALLEL_LAB_CLI` the binary. The CLI,
the seed, the pool and the summary are tests/py/engine_harness.py's, shared with tests/megatron;
the judgment is this file's and judge.py's.

Run: `.tools/py/bin/python -m unittest discover -s tests/deepspeed -v` (scripts/setup.sh makes
.tools/py).
"""

import copy
import json
import os
import random
import re
import shlex
import sys
import unittest
from collections import Counter

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "py"))

import engine_harness as harness  # noqa: E402  (tests/py: what the engine suites share)
import judge  # noqa: E402  (DeepSpeed's imports: a few seconds)
from engine_harness import lab  # noqa: E402

PLANS = harness.plan_count("PARALLEL_LAB_DEEPSPEED_PLANS", 300)
WORKERS = harness.worker_count("PARALLEL_LAB_DEEPSPEED_WORKERS")
REFUSAL = re.compile(r"^(?:parallel-lab: error: )?([a-z_.]+): DeepSpeed refuses this plan: (.+)$")


def flags(plan):
    """`parallel-lab flags --engine deepspeed --format json` of the plan: (status, stdout, stderr)."""
    return lab(plan, "flags", "--engine", "deepspeed", "--format", "json")


# ---------------------------------------------------------------------------------------------
# Random plans


def _inline_model(rng, moe):
    heads = rng.choice([8, 16, 24, 32])
    model = {
        "hidden": heads * 128,
        "layers": rng.choice([8, 12, 16, 24, 32]),
        "heads": heads,
        "kv_heads": harness.kv_heads(rng, heads),
        "ffn": rng.choice([4 * heads * 128, 11008]),
        "vocab": rng.choice([32000, 50304, 128256]),
        "tied_embeddings": rng.random() < 0.5,
    }
    if moe:
        model.update({"experts": rng.choice([8, 16, 64]), "top_k": 2, "expert_ffn": rng.choice([1024, 2048]),
                      "moe_layers": model["layers"]})
    return model


def random_plan(rng, presets, moe_presets):
    """One plan. ZeRO, offload and precision are drawn evenly: they are what the config states."""
    model, moe = harness.pick_model(rng, presets, moe_presets, _inline_model, presets_below=0.5,
                                    moe_from=0.8)
    per_node = rng.choice([8, 8, 8, 4, 16])
    tp = rng.choice([1, 1, 2, 2, 4, 8])
    pp = rng.choice([1, 1, 2, 2, 4, 3])
    cp = rng.choice([1] * 6 + [2])
    # Odd replicas give card counts that are not whole nodes (12 cards on 8-card nodes, 20, 6 …).
    dp = rng.choice([1, 1, 2, 4, 8, 3, 5, 6])
    gpus = tp * cp * pp * dp
    ep = rng.choice([e for e in (1, 2, 4, 8) if (gpus // pp) % e == 0]) if moe else 1
    if rng.random() < 0.03:
        gpus += 1  # a few plans the lab's core refuses
    plan = {"model": model, "gpus": gpus, "gpus_per_node": per_node, "tp": tp, "cp": cp, "pp": pp, "ep": ep}
    if rng.random() < 0.7:
        plan["order"] = rng.choice(["tp-cp-pp-dp", "tp-cp-dp-pp"])
    plan["schedule"] = rng.choice(["1f1b"] * 5 + ["gpipe"])
    plan["micro_batches"] = rng.choice([1, 2, 4, 8, 8, 16, pp, 2 * pp])
    plan["micro_batch_size"] = rng.choice([1, 1, 2, 4])
    plan["seq_len"] = rng.choice([2048, 4096, 4096, 8192])
    plan["zero"] = rng.choice([0, 1, 2, 3])
    plan["optimizer_offload"] = rng.choice(["none", "cpu"])
    plan["precision"] = rng.choice(["bf16-grads", "fp32-grads"])
    return plan


# ---------------------------------------------------------------------------------------------
# What the lab counts


def lab_counts(plan, report, defaults):
    """The settings the lab's report counts, from the report and the plan it was made of."""
    full = dict(defaults, **plan)
    d, c = report["dp"], full["cp"]
    offload_counted = any(row["dim"] == "offload" for row in report["comm"])
    return {
        "dp": d,
        "train_batch_size": round(report["estimate"]["tokens_per_step"] / full["seq_len"]),
        "micro_batch_size": full["micro_batch_size"],
        "gradient_accumulation_steps": full["micro_batches"],
        "zero_stage": full["zero"],
        "states_sharded_over": d * c if full["zero"] >= 1 else 1,
        "offload": full["optimizer_offload"] == "cpu",
        "offload_counted": offload_counted,
        "grad_accum_bytes": 4 if full["precision"] == "fp32-grads" else 2,
        "grad_reduce_bytes": 4 if full["precision"] == "fp32-grads" else 2,
        "optimizer": "DeepSpeedCPUAdam" if full["optimizer_offload"] == "cpu" else "FusedAdam",
        "optimizer_fp32_states": True,
        "per_node": full["gpus_per_node"],
        "gpus": full["gpus"],
    }


SETTINGS = ["dp", "train_batch_size", "micro_batch_size", "gradient_accumulation_steps", "zero_stage",
            "states_sharded_over", "offload", "grad_accum_bytes", "grad_reduce_bytes", "optimizer",
            "optimizer_fp32_states"]


def node_counts(resources):
    return [len(slots) for slots in resources.values()]


def cluster_spread(gpus, per_node):
    """The cluster's nodes filled in order: whole nodes, then the rest on one more."""
    return [per_node] * (gpus // per_node) + ([gpus % per_node] if gpus % per_node else [])


def differences(verdict, want, cards_groups):
    """What DeepSpeed derives that the lab does not count: [(kind, lab, deepspeed)]."""
    out = []
    resources = verdict["launch"]["resources"]
    if node_counts(resources) != cluster_spread(want["gpus"], want["per_node"]):
        out.append(("launch: processes per node", f"{cluster_spread(want['gpus'], want['per_node'])} "
                    f"({want['gpus']} cards on nodes of {want['per_node']})",
                    f"{ {h: len(s) for h, s in resources.items()} }"))
    beyond = {h: s for h, s in resources.items() if any(x >= want["per_node"] for x in s)}
    if beyond:
        out.append(("launch: a card the node does not have", f"nodes of {want['per_node']} cards",
                    f"slots {beyond}"))
    args = verdict["script_args"]
    if not args["deepspeed"] or args["deepspeed_config"] != "ds_config.json":
        out.append(("train.py's DeepSpeed arguments", "--deepspeed --deepspeed_config ds_config.json",
                    json.dumps(args)))
    for key in SETTINGS:
        if verdict[key] != want[key]:
            out.append((f"setting: {key}", want[key], verdict[key]))
    if want["offload"] != want["offload_counted"]:
        out.append(("the report's offload", f"plan: {want['offload']}",
                    f"report counts offload traffic: {want['offload_counted']}"))
    if verdict["offload_named"] and not verdict["offload"]:
        out.append(("config names an offload DeepSpeed does not do", False, verdict["wrapper"]))
    if verdict["ep_size"] != want["ep"]:
        out.append(("MoE: the notes' ep_size", want["ep"], verdict["ep_size"]))
    for card, lab_groups in cards_groups:
        for name in ("dp", "pp", "ep", "edp"):
            if name not in lab_groups or name not in verdict["groups"]:
                continue
            mine = next((g for g in verdict["groups"][name] if card in g), None)
            if mine != lab_groups[name]:
                out.append((f"groups: {name}", f"card {card}: {lab_groups[name]}", f"card {card}: {mine}"))
                break
    return out


def sized_output(plan, base_out, base_plan):
    """The lab's output for `base_plan` (a plan it prints) with `plan`'s ZeRO stage and order put
    back: the stage into ds_config.json, the order into the topology of the unit the notes name
    (the lab's own spelling of it for the other order)."""
    out = copy.deepcopy(base_out)
    out["config"]["zero_optimization"]["stage"] = plan["zero"]
    if base_plan.get("order") != plan.get("order"):
        notes = []
        for note in out["notes"]:
            m = re.search(r"PipeModelDataParallelTopology\(num_pp=(\d+), num_mp=(\d+), num_dp=(\d+)\)", note)
            if m:
                p, mp, d = m.groups()
                note = note.replace(m.group(0), f"ProcessTopology(axes=['data', 'pipe', 'model'], dims=[{d}, {p}, {mp}])")
            notes.append(note)
        out["notes"] = notes
    return out


def check_plan(out, plan, defaults, card_seed):
    """Everything about one plan, into `out` ({"index", "plan", "mismatches": []}): its "status",
    the lab's and DeepSpeed's sides, the mismatches. `defaults`: the CLI's default plan."""
    mismatches = out["mismatches"]
    shown = plan
    rc, stdout, stderr = lab(shown, "eval")
    if rc == 2:
        out["status"] = "skipped"
        out["lab"] = stderr
        return out
    if rc != 0:
        raise RuntimeError(f"parallel-lab eval exited {rc}: {stderr}")
    report = json.loads(stdout)
    want = lab_counts(plan, report, defaults)
    rng = random.Random(card_seed)
    cards = [(card, json.loads(lab(shown, "groups", "--card", str(card))[1]))
             for card in harness.cards(rng, want["gpus"])]
    # A MoE model, as the lab has it: its cards have expert groups.
    want["ep"] = dict(defaults, **plan)["ep"] if "ep" in cards[0][1] else None
    rc, stdout, stderr = flags(shown)
    if rc not in (0, 2):
        raise RuntimeError(f"parallel-lab flags exited {rc}: {stderr}")
    out["status"] = "judged"
    if rc == 0:
        printed = json.loads(stdout)
        out["line"] = shlex.join(printed["args"])
        verdict = judge.judge(printed, want["per_node"])
        out["deepspeed"] = {k: verdict.get(k) for k in ("accepted", "error", "stage", "unit")}
        if not verdict["accepted"]:
            mismatches.append({"kind": "verdict: the lab prints a config, DeepSpeed refuses it",
                               "by": harness.shape(verdict["error"]), "lab": out["line"],
                               "deepspeed": f"{verdict['error']} (in {verdict['stage']})"})
            return out
        for kind, lab_value, ds_value in differences(verdict, want, cards):
            mismatches.append({"kind": kind, "lab": str(lab_value), "deepspeed": str(ds_value)})
        return out
    # The lab refuses: a named error, and DeepSpeed unable to run the plan as planned.
    out["lab"] = stderr
    named = REFUSAL.match(stderr)
    if not named:
        mismatches.append({"kind": "refusal without a field named", "lab": stderr, "deepspeed": ""})
    else:
        out["refused_by"] = named.group(1)
    base = None
    for change in ({"zero": 1}, {"zero": 1, "order": "tp-cp-dp-pp"}):
        base_plan = dict(shown, **change)
        brc, bstdout, _ = flags(base_plan)
        if brc == 0:
            base = (base_plan, json.loads(bstdout))
            break
    if base is None:
        out["status"] = "unjudged"
        return out
    sized = sized_output(plan, base[1], base[0])
    verdict = judge.judge(sized, want["per_node"])
    out["deepspeed"] = {k: verdict.get(k) for k in ("accepted", "error", "stage", "unit")}
    if verdict["accepted"]:
        apart = differences(verdict, want, cards)
        out["deepspeed_differs"] = [k for k, _, _ in apart]
        if not apart:
            mismatches.append({"kind": "verdict: the lab refuses, DeepSpeed runs the plan as planned",
                               "by": harness.shape(stderr), "lab": stderr,
                               "deepspeed": f"accepts {json.dumps(sized['config'])} with {verdict['unit']}"})
    return out


# ---------------------------------------------------------------------------------------------


def summarize(results, seed, seconds):
    """(text, by_kind): harness.summarize with DeepSpeed's counts: the configs the lab prints and
    what DeepSpeed derives of them, the plans the lab refuses and what DeepSpeed does with them."""
    statuses = Counter(r["status"] for r in results)
    judged = [r for r in results if r["status"] == "judged"]
    printed = [r for r in judged if "line" in r]
    accepted = [r for r in printed if r.get("deepspeed", {}).get("accepted")]
    exact = [r for r in accepted if not r["mismatches"]]
    refused = [r for r in judged if "line" not in r and "deepspeed" in r]
    ds_refuses = [r for r in refused if not r["deepspeed"]["accepted"]]
    ds_differs = [r for r in refused if r["deepspeed"]["accepted"] and r.get("deepspeed_differs")]
    counts = [
        f"  the lab prints a config: {len(printed)}; DeepSpeed accepts: {len(accepted)}; and derives exactly "
        f"what the lab counts: {len(exact)}",
        f"  the lab refuses: {len(refused)} (by field: "
        f"{dict(Counter(r.get('refused_by', '?') for r in refused))}); DeepSpeed refuses it too: "
        f"{len(ds_refuses)}, runs it otherwise than planned: {len(ds_differs)}; not judged: {statuses['unjudged']}",
    ]
    return harness.summarize("deepspeed", seed, results, seconds, counts, note=f", DeepSpeed {judge.VERSION}")


class DeepSpeedJudgeTest(unittest.TestCase):
    """judge.py itself: DeepSpeed refuses what it refuses and derives what it derives."""

    CONFIG = {"train_batch_size": 16, "train_micro_batch_size_per_gpu": 1, "gradient_accumulation_steps": 8,
              "bf16": {"enabled": True}, "optimizer": {"type": "AdamW"}, "zero_optimization": {"stage": 1}}

    def test_batch_sizes_need_the_unit(self):
        # 8 cards, TP 4: without a unit DeepSpeed counts 8 replicas and refuses 16 = 1 x 8 x 2.
        line = ["deepspeed", "--num_gpus", "8", "train.py", "--deepspeed", "--deepspeed_config", "ds_config.json"]
        bare = judge.judge({"args": line, "config": self.CONFIG, "notes": []}, 8)
        self.assertFalse(bare["accepted"])
        self.assertIn("train_batch_size is not equal", bare["error"])
        unit = "`deepspeed.initialize(..., mpu=PipelineParallelGrid(topology=PipeModelDataParallelTopology(" \
               "num_pp=1, num_mp=4, num_dp=2)))`"
        verdict = judge.judge({"args": line, "config": self.CONFIG, "notes": [unit]}, 8)
        self.assertTrue(verdict["accepted"], verdict["error"])
        self.assertEqual((verdict["dp"], verdict["wrapper"], verdict["states_sharded_over"]),
                         (2, "DeepSpeedZeroOptimizer", 2))
        self.assertEqual(verdict["groups"]["dp"][0], [0, 4])

    def test_fp32_accumulation_needs_zero(self):
        config = dict(self.CONFIG, zero_optimization={"stage": 0}, train_batch_size=64,
                      data_types={"grad_accum_dtype": "fp32"})
        line = ["deepspeed", "--num_gpus", "8", "train.py", "--deepspeed", "--deepspeed_config", "ds_config.json"]
        verdict = judge.judge({"args": line, "config": config, "notes": []}, 8)
        self.assertFalse(verdict["accepted"])
        self.assertIn("unsupported mix", verdict["error"])
        at_one = judge.judge({"args": line, "config": dict(config, zero_optimization={"stage": 1}), "notes": []}, 8)
        self.assertEqual((at_one["wrapper"], at_one["grad_accum_bytes"]), ("BF16_Optimizer", 4))

    def test_the_runner_spreads_cards_as_the_line_says(self):
        line = ["deepspeed", "--hostfile", "hostfile", "--include", "node-1@node-2:0,1,2,3", "train.py",
                "--deepspeed", "--deepspeed_config", "ds_config.json"]
        config = dict(self.CONFIG, train_batch_size=96)
        verdict = judge.judge({"args": line, "config": config, "notes": []}, 8)
        self.assertEqual(verdict["launch"]["resources"], {"node-1": list(range(8)), "node-2": [0, 1, 2, 3]})
        one_node = judge.judge({"args": ["deepspeed", "--num_nodes", "1", "--num_gpus", "12"] + line[5:],
                                "config": config, "notes": []}, 8)
        self.assertEqual(node_counts(one_node["launch"]["resources"]), [12])
        none = judge.judge({"args": ["deepspeed", "--num_nodes", "2", "--num_gpus", "8"] + line[5:],
                            "config": config, "notes": []}, 8)
        self.assertIn("no extra nodes", none["error"])


class LabAgainstDeepSpeedTest(unittest.TestCase):
    """Seeded random plans: the lab's DeepSpeed launch against DeepSpeed's own code."""

    def test_random_plans(self):
        seed = harness.start(self, "deepspeed", PLANS, WORKERS)
        defaults = harness.lab_defaults()
        presets = [p["id"] for p in defaults["presets"]]
        moe_presets = {p for p in presets
                       if lab({"model": p}, "groups", "--card", "0")[0] == 0
                       and "ep" in json.loads(lab({"model": p}, "groups", "--card", "0")[1])}
        tasks = harness.draw_tasks(seed, PLANS, lambda rng: random_plan(rng, presets, moe_presets),
                                   defaults["config"])
        results, seconds = harness.check_plans(check_plan, tasks, WORKERS, "deepspeed")
        summary, by_kind = summarize(results, seed, seconds)
        print(summary, flush=True)
        self.assertGreater(sum(1 for r in results if "line" in r), PLANS // 4,
                           "too few plans reached DeepSpeed: the generator or the CLI changed")
        harness.fail_on_mismatches(self, by_kind, "DeepSpeed")


if __name__ == "__main__":
    unittest.main()
