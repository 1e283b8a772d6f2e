"""The lab against Megatron-LM's own code (issue 49), over seeded random plans.

For each plan (presets and inline models, dense and MoE, tied and untied; TP, CP, PP and EP from
1 to 16; both rank orders; up to 512 cards; every schedule, ZeRO stage and recompute):

- `parallel-lab eval`: a plan the lab's core refuses (exit 2) is skipped and counted;
- `parallel-lab flags --engine megatron --format json`: the lab's verdict (a line, or exit 2 with
  its reason) against Megatron's, from judge.py, which runs Megatron's start-up on the line
  (argument parsing and validation, TransformerConfig, initialize_model_parallel under a fake
  torch.distributed, the layer split, num_floating_point_operations). Where the lab refuses, there
  is no line: Megatron judges the lab's line for the same plan at sizes 1 with the plan's sizes put
  into the size flags (`sized_line`);
- where both accept: `parallel-lab groups --card N` (every card up to 16 cards, else the first,
  the last and 6 more) against the group of that card that Megatron formed, kind by kind; and the
  lab's model FLOPs per step (the MFU's numerator: `estimate.mfu` x N x peak x step; the report's
  `flops_per_step` adds recomputation's forward, which Megatron's figure leaves out) against
  Megatron's `num_floating_point_operations(args, global_batch_size)`, to 1e-3 relative; and the
  lab's parameter count (its model states on one card at ZeRO 0, 16 bytes a parameter) against
  Megatron's (theoretical_memory_usage.py's `num_total_parameters`), to 1e-4.

Also a mismatch: a line that lacks an argument Megatron requires (judge.py then fills it, so
that the rest can still be compared). The environment is the line's own: CUDA_DEVICE_MAX_CONNECTIONS
is set only where the line sets it (`CUDA_DEVICE_MAX_CONNECTIONS=1 torchrun ...`).
Models with multi-head latent attention and with linear attention (Gated DeltaNet) are compared
like the others, their dimensions on the line; Megatron's parameter count for linear layers is
its GatedDeltaNet module's (judge.py). FLOPs and parameters are not compared for a linear-attention
model whose dimensions are not published (the anchor preset, which carries its published total):
its line names none, its note says so, and the plan is counted apart in the summary.
Megatron pads --vocab-size to a multiple of make_vocab_size_divisible_by x TP for its logits, and
counts the padded size in its FLOPs: a FLOPs mismatch that padding alone explains is its own kind.
Where TP does not divide the vocabulary Megatron must pad whatever the divisor; the line's note
says so and that the lab counts V, and both figures are then compared with Megatron's own
formulas at the unpadded size.

Every mismatch is collected, and the test fails once with counts by kind (and, within a kind, by
Megatron's message or the model) and the first examples (the plan, the lab's message or figure,
Megatron's). The seed is printed; `PARALLEL_LAB_SEED=N` replays a run,
`PARALLEL_LAB_MEGATRON_PLANS` sets the number of plans (default 600),
`PARALLEL_LAB_MEGATRON_WORKERS` the processes (default 2), `PARALLEL_LAB_CLI` the binary. About
30 s on 2 cores. The CLI, the seed, the pool and the summary are tests/py/engine_harness.py's,
shared with tests/deepspeed; the judgment is this file's and judge.py's.

Run: `.tools/py/bin/python -m unittest discover -s tests/megatron -v` (scripts/setup.sh makes
.tools/py).
"""

import json
import os
import random
import shlex
import sys
import unittest
from collections import Counter

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "py"))

import engine_harness as harness  # noqa: E402  (tests/py: what the engine suites share)
import judge  # noqa: E402  (Megatron's imports: several seconds)
from engine_harness import lab  # noqa: E402

PLANS = harness.plan_count("PARALLEL_LAB_MEGATRON_PLANS", 600)
WORKERS = harness.worker_count("PARALLEL_LAB_MEGATRON_WORKERS")
FLOPS_TOLERANCE = 1e-3
PARAMS_TOLERANCE = 1e-4
# Lab group name -> judge.KINDS kind (Megatron's group_desc).
LAB_KINDS = {"tp": "tp", "cp": "cp", "pp": "pp", "dp": "dp", "ep": "ep", "edp": "edp"}
# Flags of the lab's line that carry a plan's sizes (with a value), and the switches that follow
# them: replaced in `sized_line`.
SIZE_FLAGS = {
    "--tensor-model-parallel-size", "--pipeline-model-parallel-size", "--context-parallel-size",
    "--expert-model-parallel-size", "--global-batch-size",
    "--num-layers-per-virtual-pipeline-stage", "--num-virtual-stages-per-pipeline-rank",
}
SIZE_SWITCHES = {"--sequence-parallel", "--use-tp-pp-dp-mapping"}


# ---------------------------------------------------------------------------------------------
# Random plans


def _inline_model(rng, moe):
    heads = rng.choice([8, 12, 16, 24, 32, 40, 48, 64])
    head_dim = rng.choice([64, 128, 128])
    hidden = rng.choice([heads * head_dim, heads * head_dim, 2048, 3072, 4096, 5120])
    kv_heads = harness.kv_heads(rng, heads)
    layers = rng.choice([2, 4, 6, 8, 12, 16, 24, 28, 30, 32, 36, 40, 48, 60, 64])
    model = {
        "hidden": hidden,
        "layers": layers,
        "heads": heads,
        "kv_heads": kv_heads,
        "head_dim": head_dim,
        "ffn": rng.choice([4 * hidden, int(8 * hidden / 3) // 64 * 64, 11008, 14336]),
        "vocab": rng.choice([32000, 32768, 50257, 50304, 65536, 100352, 128256, 151936, 152064]),
        "tied_embeddings": rng.random() < 0.5,
    }
    if rng.random() < 0.2 and layers % 4 == 0:
        # Linear attention (Gated DeltaNet) in 3 of every 4 layers; its heads and dimensions
        # given or left to the lab's defaults (Qwen3-Next's).
        model["full_attention_layers"] = layers // 4
        if rng.random() < 0.6:
            key_heads = rng.choice([4, 8, 16, 16])
            model.update({
                "linear_num_key_heads": key_heads,
                "linear_num_value_heads": key_heads * rng.choice([1, 2, 3]),
                "linear_key_head_dim": rng.choice([64, 128]),
                "linear_value_head_dim": rng.choice([64, 128]),
                "linear_conv_kernel_dim": rng.choice([2, 4]),
            })
    elif rng.random() < 0.15:
        # Multi-head latent attention (no query groups), with or without a query rank.
        model["kv_heads"] = heads
        model.update({
            "kv_lora_rank": rng.choice([64, 256, 512]),
            "qk_rope_head_dim": rng.choice([32, 64]),
            "qk_nope_head_dim": rng.choice([64, 128]),
            "v_head_dim": rng.choice([64, 128]),
        })
        if rng.random() < 0.7:
            model["q_lora_rank"] = rng.choice([384, 768, 1536])
    if moe:
        experts = rng.choice([8, 16, 32, 64, 128, 256])
        model.update({
            "experts": experts,
            "top_k": rng.choice([k for k in (1, 2, 4, 6, 8) if k <= experts]),
            "expert_ffn": rng.choice([512, 768, 1024, 1408, 2048, 4096]),
            "moe_layers": layers if rng.random() < 0.7 else max(1, layers - rng.choice([1, 2, 3])),
            "shared_experts": rng.choice([0, 0, 1, 2]),
        })
    return model


def random_plan(rng, presets, moe_presets):
    """One plan; the model's MoE-ness steers EP. No hardware fields: the lab's model FLOPs are
    read back from its MFU with the default card's peak_tflops."""
    model, moe = harness.pick_model(rng, presets, moe_presets, _inline_model, presets_below=0.45,
                                    moe_from=0.75)
    tp = rng.choice([1, 1, 2, 2, 4, 8, 16, 3, 6])
    cp = rng.choice([1, 1, 1, 2, 2, 4, 8, 16])
    pp = rng.choice([1, 1, 2, 2, 4, 8, 16, 3])
    ep = rng.choice([1, 2, 4, 8, 16]) if moe else rng.choice([1] * 19 + [2])
    dp = rng.choice([1, 1, 2, 4, 8, 16, 32])
    while tp * cp * pp * dp > 512 and dp > 1:
        dp //= 2
    gpus = tp * cp * pp * dp
    if gpus > 512 or rng.random() < 0.08:
        gpus = rng.choice([8, 16, 24, 32, 48, 64, 96, 128, 256, 512])
    plan = {"model": model, "gpus": gpus, "tp": tp, "cp": cp, "pp": pp, "ep": ep}
    if rng.random() < 0.8:
        plan["order"] = rng.choice(["tp-cp-pp-dp", "tp-cp-dp-pp"])
    schedule = rng.choice(["1f1b", "1f1b", "1f1b", "gpipe", "interleaved", "interleaved"])
    if schedule == "interleaved" and pp == 1 and rng.random() < 0.8:
        schedule = "1f1b"  # the core refuses it (no pipeline): keep a few such plans only
    plan["schedule"] = schedule
    if schedule == "interleaved":
        plan["virtual_stages"] = rng.choice([2, 2, 3, 4])
        plan["micro_batches"] = rng.choice([pp, 2 * pp, 4 * pp, 8 * pp, 3, 8])
    else:
        plan["micro_batches"] = rng.choice([1, 2, 3, 4, 8, 8, 16, 32, pp, 2 * pp])
    plan["micro_batch_size"] = rng.choice([1, 1, 2, 4])
    plan["seq_len"] = rng.choice([1024, 2048, 4096, 4096, 8192, 16384, 32768, 3000, 6144])
    plan["zero"] = rng.choice([0, 1, 2, 3])
    plan["recompute"] = rng.choice(["none", "selective", "full"])
    plan["precision"] = rng.choice(["bf16-grads", "bf16-grads", "fp32-grads"])
    if rng.random() < 0.25:
        # Sequence parallelism off (SPEC §22): Megatron refuses it for MoE with TP > 1.
        plan["sequence_parallel"] = False
    return plan


# ---------------------------------------------------------------------------------------------
# One plan, in a worker


def _value(words, flag):
    """The word after the first `flag` of the line, or None."""
    return next((words[i + 1] for i, w in enumerate(words[:-1]) if w == flag), None)


def sized_line(plan, base_words, default_order):
    """Megatron's line for a plan the lab refuses: the lab's own line for the same plan at sizes 1
    (1F1B), with the plan's TP, PP, CP, EP, order, virtual stages and global batch put into the
    size flags. Only the sizes are the test's; every other flag is the lab's."""
    launcher, script, flags = judge.split_line(base_words)
    kept, i = [], 0
    had_ep = "--expert-model-parallel-size" in flags
    while i < len(flags):
        if flags[i] in SIZE_FLAGS:
            i += 2
            continue
        if flags[i] not in SIZE_SWITCHES:
            kept.append(flags[i])
        i += 1
    tp, pp, cp, ep = (plan.get(k, 1) for k in ("tp", "pp", "cp", "ep"))
    gpus = plan.get("gpus", 8)
    dp = max(1, gpus // max(1, tp * pp * cp))
    sizes = ["--tensor-model-parallel-size", str(tp), "--pipeline-model-parallel-size", str(pp),
             "--context-parallel-size", str(cp)]
    if had_ep:
        sizes += ["--expert-model-parallel-size", str(ep)]
    if tp > 1 and plan.get("sequence_parallel", True):
        sizes.append("--sequence-parallel")
    if plan.get("order", default_order) == "tp-cp-pp-dp":
        sizes.append("--use-tp-pp-dp-mapping")
    if plan.get("schedule") == "interleaved":
        sizes += ["--num-virtual-stages-per-pipeline-rank", str(plan.get("virtual_stages", 1))]
    batch = dp * plan.get("micro_batches", 8) * plan.get("micro_batch_size", 1)
    sizes += ["--global-batch-size", str(batch)]
    # The environment Megatron needs at these sizes (validate_args: CUDA_DEVICE_MAX_CONNECTIONS=1
    # with TP or CP above 1, unset with Megatron-FSDP), so that only the sizes are judged.
    launcher = [w for w in launcher if not w.startswith(judge.ENV_VAR + "=")]
    if (tp > 1 or cp > 1) and "--use-megatron-fsdp" not in kept:
        launcher = [f"{judge.ENV_VAR}=1"] + launcher
    return launcher + [script] + sizes + kept


def _megatron_group(groups, kind, card):
    """The ranks of `card`'s group of `kind` in Megatron's groups, or None."""
    return next((ranks for ranks in groups.get(kind, []) if card in ranks), None)


def _shape(message):
    """A message with its numbers blanked, up to Megatron's " (in STAGE)"."""
    return harness.shape(message, cut=" (in ")


def _model_kind(model, words):
    """A plan's model as the FLOPs mismatches are grouped: preset id, or inline dense/MoE."""
    tied = "untied" if "--untie-embeddings-and-output-weights" in words else "tied"
    if isinstance(model, str):
        return f"preset {model} ({tied})"
    return f"inline {'MoE' if model.get('experts') else 'dense'} ({tied})"


def check_plan(out, plan, context, card_seed):
    """Everything about one plan, into `out` ({"index", "plan", "mismatches": []}): its "status",
    the lab's and Megatron's sides, the mismatches. `context`: the CLI's default rank order and
    card peak (TFLOP/s)."""
    default_order, peak_tflops = context
    mismatches = out["mismatches"]
    rc, stdout, stderr = lab(plan, "eval")
    if rc == 2:
        out["status"] = "skipped"
        out["lab"] = stderr
        return out
    if rc != 0:
        raise RuntimeError(f"parallel-lab eval exited {rc}: {stderr}")
    report = json.loads(stdout)
    rc, stdout, stderr = lab(plan, "flags", "--engine", "megatron", "--format", "json")
    if rc not in (0, 2):
        raise RuntimeError(f"parallel-lab flags exited {rc}: {stderr}")
    lab_accepts = rc == 0
    if lab_accepts:
        words = json.loads(stdout)["args"]
        out["line"] = words
    else:
        out["lab"] = stderr
        base = dict(plan, tp=1, pp=1, cp=1, ep=1, schedule="1f1b")
        base.pop("virtual_stages", None)
        brc, bstdout, bstderr = lab(base, "flags", "--engine", "megatron", "--format", "json")
        if brc != 0:
            out["status"] = "unjudged"
            out["lab"] = f"{stderr} (and at sizes 1: {bstderr})"
            return out
        words = sized_line(plan, json.loads(bstdout)["args"], default_order)
        out["sized_line"] = words
    out["status"] = "judged"
    verdict = judge.judge(words)
    out["megatron"] = {k: verdict[k] for k in ("accepted", "error", "stage", "missing_required", "env")}
    line_text = shlex.join(words)
    if not lab_accepts and "argparse refused" in (verdict["error"] or ""):
        # The test's own sized line did not parse: a fault here, not a verdict to compare.
        raise RuntimeError(f"sized line refused by Megatron's parser: {verdict['error']}\n{line_text}")
    for missing in verdict["missing_required"] if lab_accepts else []:
        mismatches.append({
            "kind": f"line lacks a required argument ({missing['arg']})",
            "lab": line_text,
            "megatron": f"{missing['error']} (judged again with {' '.join(missing['filled'])})",
        })
    if lab_accepts and not verdict["accepted"]:
        mismatches.append({"kind": "verdict: the lab prints a line, Megatron refuses it",
                           "lab": line_text,
                           "megatron": f"{verdict['error']} (in {verdict['stage']})",
                           "by": _shape(verdict["error"])})
    if not lab_accepts and verdict["accepted"]:
        mismatches.append({"kind": "verdict: the lab refuses, Megatron accepts",
                           "lab": stderr,
                           "megatron": f"accepts {line_text}",
                           "by": _shape(stderr)})
    if not (lab_accepts and verdict["accepted"]):
        return out
    mismatches.extend(_compare_groups(plan, words, verdict, card_seed))
    return _compare_flops_and_params(out, plan, words, verdict, report, peak_tflops)


def _compare_groups(plan, words, verdict, card_seed):
    """The mismatches of the lab's groups with Megatron's, card by card (the first of each kind
    and group name)."""
    mismatches = []
    moe = "--num-experts" in words
    wanted = ["tp", "cp", "pp", "dp"] + (["ep", "edp"] if moe else [])
    seen = set()
    for card in harness.cards(random.Random(card_seed), verdict["world_size"]):
        grc, gout, gerr = lab(plan, "groups", "--card", str(card))
        if grc != 0:
            raise RuntimeError(f"parallel-lab groups --card {card} exited {grc}: {gerr}")
        lab_groups = json.loads(gout)
        for name in wanted:
            if name not in lab_groups and ("missing", name) not in seen:
                seen.add(("missing", name))
                mega = _megatron_group(verdict["groups"], name, card)
                mismatches.append({"kind": f"groups: {name} missing from the lab",
                                   "lab": f"card {card}: {json.dumps(lab_groups)}",
                                   "megatron": f"card {card}'s {name} group: {mega}"})
        for name, ranks in lab_groups.items():
            kind = LAB_KINDS.get(name)
            if kind is None:
                if ("unknown", name) not in seen:
                    seen.add(("unknown", name))
                    mismatches.append({"kind": f"groups: {name} (no Megatron kind)",
                                       "lab": f"card {card}: {name} {ranks}",
                                       "megatron": f"kinds formed: {sorted(verdict['groups'])}"})
                continue
            mega = _megatron_group(verdict["groups"], kind, card)
            if mega != ranks and ("differ", name) not in seen:
                seen.add(("differ", name))
                mismatches.append({"kind": f"groups: {name}",
                                   "lab": f"card {card}: {name} {ranks}",
                                   "megatron": f"card {card}: {kind} {mega}"})
    return mismatches


def _compare_flops_and_params(out, plan, words, verdict, report, peak_tflops):
    """The lab's parameter count and model FLOPs per step against Megatron's, into `out`; not
    for a linear-attention model whose heads and dimensions are not published (the anchor: its
    line names none, and says so)."""
    mismatches = out["mismatches"]
    gpus = verdict["world_size"]
    if "--experimental-attention-variant" in words and "--linear-num-key-heads" not in words:
        out["flops_not_compared"] = True
        return out
    # The lab's P: SPEC §4's model states on one card at ZeRO 0 with BF16 gradients are
    # 16 bytes a parameter (2 weights + 2 gradients + 12 Adam), nothing sharded.
    one = {k: v for k, v in plan.items() if k in ("model",)}
    one.update({"gpus": 1, "zero": 0, "precision": "bf16-grads"})
    orc, ostdout, oerr = lab(one, "eval")
    if orc != 0:
        raise RuntimeError(f"parallel-lab eval of the model on one card exited {orc}: {oerr}")
    lab_params = json.loads(ostdout)["memory"]["model_states"] / 16
    # A vocabulary TP does not divide is padded by Megatron to a multiple of TP whatever the
    # divisor (the line's note says so and that the lab counts V): compared unpadded.
    vocab, tp = int(_value(words, "--vocab-size")), int(_value(words, "--tensor-model-parallel-size"))
    unavoidable = vocab % tp != 0
    out["padded_unavoidably"] = unavoidable
    mega_params = verdict["params_unpadded_vocab" if unavoidable else "params"]
    prel = abs(lab_params - mega_params) / mega_params
    out["params"] = {"lab": lab_params, "megatron": mega_params, "relative": prel}
    if prel > PARAMS_TOLERANCE:
        mismatches.append({
            "by": _model_kind(plan["model"], words),
            "kind": "parameters",
            "lab": f"{lab_params:,.0f} parameters",
            "megatron": (f"{mega_params:,.0f} (theoretical_memory_usage.py, padded vocab "
                         f"{verdict['padded_vocab_size']}); lab/megatron = {lab_params / mega_params:.6f}"),
        })
    est = report["estimate"]
    lab_flops = est["mfu"] * gpus * peak_tflops * 1e12 * est["step_s"]
    mega_flops = verdict["flops_unpadded_vocab" if unavoidable else "flops"]
    rel = abs(lab_flops - mega_flops) / mega_flops
    out["flops"] = {"lab": lab_flops, "megatron": mega_flops, "relative": rel}
    out["attention"] = ("MLA" if "--multi-latent-attention" in words else
                        "linear" if "--experimental-attention-variant" in words else "standard")
    if rel > FLOPS_TOLERANCE:
        unpadded = verdict["flops_unpadded_vocab"]
        padding = abs(lab_flops - unpadded) / unpadded <= FLOPS_TOLERANCE
        tokens = int(_value(words, "--global-batch-size")) * int(_value(words, "--seq-length"))
        logits = 6 * int(_value(words, "--hidden-size")) * verdict["padded_vocab_size"] * tokens
        mismatches.append({
            "by": _model_kind(plan["model"], words),
            "kind": "flops (only Megatron's vocabulary padding)" if padding else "flops",
            "lab": f"{lab_flops:.6e} model FLOPs (flops_per_step {est['flops_per_step']:.6e})",
            "megatron": (f"{mega_flops:.6e} (padded vocab {verdict['padded_vocab_size']}; "
                         f"{unpadded:.6e} unpadded); lab/megatron = {lab_flops / mega_flops:.6f}, "
                         f"difference = {(lab_flops - mega_flops) / logits:+.3f} x the logits' "
                         f"6*h*V*tokens"),
        })
    return out


# ---------------------------------------------------------------------------------------------


# The kinds of attention whose FLOPs and parameters every run must compare.
ATTENTION_KINDS = ("standard", "MLA", "linear")


def summarize(results, seed, seconds):
    """(text, by_kind): harness.summarize with Megatron's counts: the verdicts, the parameters,
    the FLOPs (by kind of attention)."""
    statuses = Counter(r["status"] for r in results)
    judged = [r for r in results if r["status"] == "judged"]
    lab_lines = sum(1 for r in judged if "line" in r)
    both = sum(1 for r in judged if "line" in r and r["megatron"]["accepted"])
    env = sum(1 for r in judged if "line" in r and r["megatron"]["env"])
    compared = sum(1 for r in judged if "flops" in r)
    apart = sum(1 for r in judged if r.get("flops_not_compared"))
    worst = max((r["flops"]["relative"] for r in judged if "flops" in r), default=0.0)
    worst_params = max((r["params"]["relative"] for r in judged if "params" in r), default=0.0)
    counts = [f"  judged: {len(judged)} (the lab prints a line: {lab_lines}, both accept: {both}; "
              f"the lab refuses: {len(judged) - lab_lines}); not judged (no line even at sizes 1): "
              f"{statuses['unjudged']}"]
    after = [
        f"  parameters compared: {sum(1 for r in judged if 'params' in r)} (largest relative "
        f"difference {worst_params:.1e}; {sum(1 for r in judged if r.get('padded_unavoidably'))} "
        f"with a vocabulary TP does not divide, compared without Megatron's padding)",
        f"  printed lines that set CUDA_DEVICE_MAX_CONNECTIONS=1: {env}; FLOPs compared: "
        f"{compared} (largest relative difference {worst:.1e}), not compared (linear "
        f"attention of unpublished dimensions): {apart}",
    ]
    for attention in ATTENTION_KINDS:
        rels = [r["flops"]["relative"] for r in judged if r.get("attention") == attention]
        after.append(f"    {attention} attention: {len(rels)} plans compared, largest FLOPs difference "
                     f"{max(rels, default=0.0):.1e}")
    return harness.summarize("megatron", seed, results, seconds, counts, after)


class MegatronJudgeTest(unittest.TestCase):
    """judge.py itself: Megatron refuses what it refuses and forms the groups it forms."""

    def test_refuses_heads_not_divisible_by_tp(self):
        line = ["CUDA_DEVICE_MAX_CONNECTIONS=1", "torchrun", "--nnodes", "1", "--nproc-per-node", "6", "pretrain_gpt.py",
                "--tensor-model-parallel-size", "3", "--num-layers", "4", "--hidden-size", "512",
                "--num-attention-heads", "8", "--max-position-embeddings", "1024", "--seq-length", "1024",
                "--micro-batch-size", "1", "--global-batch-size", "2", "--vocab-size", "1000", "--bf16"]
        verdict = judge.judge(line)
        self.assertFalse(verdict["accepted"])
        self.assertIn("num_attention_heads (8) must be a multiple of", verdict["error"])

    def test_groups_in_megatron_default_order(self):
        # 8 ranks, TP 2, PP 2, Megatron's default order tp-cp-ep-dp-pp: DP runs before PP.
        line = ["CUDA_DEVICE_MAX_CONNECTIONS=1", "torchrun", "--nnodes", "1", "--nproc-per-node", "8",
                "pretrain_gpt.py", "--tensor-model-parallel-size", "2", "--pipeline-model-parallel-size", "2",
                "--num-layers", "4", "--hidden-size", "512", "--num-attention-heads", "8",
                "--max-position-embeddings", "1024", "--seq-length", "1024", "--micro-batch-size", "1",
                "--global-batch-size", "4", "--vocab-size", "1000", "--bf16"]
        verdict = judge.judge(line)
        self.assertTrue(verdict["accepted"], verdict["error"])
        self.assertEqual(verdict["env"], {"CUDA_DEVICE_MAX_CONNECTIONS": "1"})
        self.assertEqual(verdict["missing_required"], [])
        # Without the variable the line sets, Megatron refuses TP 2 (before Blackwell).
        refused = judge.judge(line[1:])
        self.assertFalse(refused["accepted"])
        self.assertIn("CUDA_DEVICE_MAX_CONNECTIONS", refused["error"])
        self.assertEqual(verdict["groups"]["tp"], [[0, 1], [2, 3], [4, 5], [6, 7]])
        self.assertEqual(verdict["groups"]["dp"], [[0, 2], [1, 3], [4, 6], [5, 7]])
        self.assertEqual(verdict["groups"]["pp"], [[0, 4], [1, 5], [2, 6], [3, 7]])
        # Megatron pads the vocabulary to a multiple of 128 x TP for its logits.
        self.assertEqual(verdict["padded_vocab_size"], 1024)
        self.assertGreater(verdict["flops"], verdict["flops_unpadded_vocab"])

    def test_sequence_parallelism_off_as_megatron_takes_it(self):
        # SPEC §22. With SP off the lab's line has no --sequence-parallel and Megatron runs it:
        # a dense model, and Mixtral at TP 2 x EP 8, where Megatron-Core only warns (and the
        # lab warns as it does, naming the field).
        def megatron_words(plan):
            rc, stdout, stderr = lab(plan, "flags", "--engine", "megatron", "--format", "json")
            self.assertEqual(rc, 0, stderr)
            return json.loads(stdout)["args"]

        moe = {"model": "mixtral-8x7b", "gpus": 16, "tp": 2, "ep": 8}
        self.assertIn("--sequence-parallel", megatron_words(moe))
        self.assertTrue(judge.judge(megatron_words(moe))["accepted"])
        dense = {"model": "llama3-8b", "gpus": 8, "tp": 2, "sequence_parallel": False}
        off = dict(moe, sequence_parallel=False)
        for plan in (dense, off):
            words = megatron_words(plan)
            self.assertNotIn("--sequence-parallel", words)
            verdict = judge.judge(words)
            self.assertTrue(verdict["accepted"], verdict["error"])
        rc, stdout, _ = lab(off, "eval")
        self.assertEqual(rc, 0)
        self.assertTrue(any(w.startswith("sequence_parallel:") for w in json.loads(stdout)["warnings"]))

    def test_missing_required_argument_is_reported(self):
        line = ["pretrain_gpt.py", "--num-layers", "2", "--hidden-size", "256", "--num-attention-heads", "4",
                "--seq-length", "512", "--micro-batch-size", "1", "--global-batch-size", "1",
                "--vocab-size", "1000"]
        verdict = judge.judge(line)
        self.assertEqual([m["arg"] for m in verdict["missing_required"]], ["max_position_embeddings"])
        self.assertTrue(verdict["accepted"], verdict["error"])


class LabAgainstMegatronTest(unittest.TestCase):
    """Seeded random plans: the lab's verdict, groups and FLOPs against Megatron's."""

    def test_random_plans(self):
        seed = harness.start(self, "megatron", PLANS, WORKERS)
        defaults = harness.lab_defaults()
        presets = [p["id"] for p in defaults["presets"]]
        moe_presets = set()
        for preset in presets:
            rc, stdout, _ = lab({"model": preset}, "flags", "--engine", "megatron", "--format", "json")
            if rc == 0 and "--num-experts" in json.loads(stdout)["args"]:
                moe_presets.add(preset)
        config = defaults["config"]
        tasks = harness.draw_tasks(seed, PLANS, lambda rng: random_plan(rng, presets, moe_presets),
                                   (config["order"], config["peak_tflops"]))
        results, seconds = harness.check_plans(check_plan, tasks, WORKERS, "megatron")
        summary, by_kind = summarize(results, seed, seconds)
        print(summary, flush=True)
        self.assertGreater(sum(1 for r in results if r["status"] == "judged"), PLANS // 4,
                           "too few plans reached Megatron: the generator or the CLI changed")
        for attention in ATTENTION_KINDS:
            self.assertTrue(any(r.get("attention") == attention for r in results),
                            f"no plan with {attention} attention reached the FLOPs and parameter "
                            f"comparison (seed {seed}): the generator or the CLI changed")
        harness.fail_on_mismatches(self, by_kind, "Megatron-LM")


if __name__ == "__main__":
    unittest.main()
