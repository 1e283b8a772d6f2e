"""What the engine suites share: tests/megatron/test_megatron.py and tests/deepspeed/test_deepspeed.py.

Both run seeded random plans through `parallel-lab` and have each plan judged by an engine's own
code (their judge.py); the judgment is each suite's own. This module holds the rest, written once:

- the CLI: `cli_path()`, `lab(plan, *args)`, `lab_defaults()`;
- the run: `start` (the CLI is there; the seed, `PARALLEL_LAB_SEED` or a fresh one, printed),
  `draw_tasks` (the seeded plans), `check_plans` (each plan checked, in a fork pool of
  `worker_count(...)` processes, a harness failure reported with its plan) and `fail_on_mismatches`;
- the random plans' common draws: `pick_model` (a preset or an inline model), `kv_heads`, and
  `cards` (the cards whose groups are compared);
- the summary: `summarize` (the suite's counts around the common ones, then every mismatch grouped
  by kind and, within a kind, by its `by`, with the first examples) and `shape`.

A task is `(index, plan, context, card_seed)`: `context` is what the suite's check needs besides
the plan (the CLI's defaults), `card_seed` seeds the choice of cards. A result is a dict with at
least "index", "plan", "status" ("skipped", "judged" or "unjudged") and "mismatches", each one
{"kind", "lab", ENGINE, and optionally "by"}, where ENGINE is the suite's name ("megatron",
"deepspeed").

Only this folder (tests/py) goes on sys.path, not tests/ itself: tests/megatron would otherwise
join Megatron-Core's `megatron` namespace package.
"""

import functools
import json
import multiprocessing
import os
import random
import re
import subprocess
import time
import traceback
from collections import Counter, defaultdict

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# Examples shown of a kind of mismatch (2 a subgroup when the kind has several).
EXAMPLES = 3


# ---------------------------------------------------------------------------------------------
# The CLI


def cli_path():
    """The `parallel-lab` binary: `PARALLEL_LAB_CLI`, else target/debug (or under
    CARGO_TARGET_DIR)."""
    if os.environ.get("PARALLEL_LAB_CLI"):
        return os.environ["PARALLEL_LAB_CLI"]
    target = os.environ.get("CARGO_TARGET_DIR") or os.path.join(ROOT, "target")
    return os.path.join(target, "debug", "parallel-lab")


def lab(plan, *args):
    """(exit status, stdout, stderr) of `parallel-lab ARGS` with the plan on stdin."""
    done = subprocess.run([cli_path(), *args], input=json.dumps(plan), capture_output=True,
                          text=True, timeout=60)
    return done.returncode, done.stdout, done.stderr.strip()


def lab_defaults():
    """`parallel-lab defaults`: {"config": the default plan, "presets": [...], ...}."""
    done = subprocess.run([cli_path(), "defaults"], capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


# ---------------------------------------------------------------------------------------------
# The run


def plan_count(variable, default):
    """The number of plans: the environment variable `variable`, else `default`."""
    return int(os.environ.get(variable, str(default)))


def worker_count(variable, default=2):
    """The worker processes: `variable` (else `default`), at least 1, at most the CPUs."""
    return max(1, min(int(os.environ.get(variable, str(default))), os.cpu_count() or 1))


def start(test, engine, plans, workers):
    """The start of a random run: fails `test` if the CLI is missing, then picks the seed
    (`PARALLEL_LAB_SEED`, else a fresh one), prints it and returns it."""
    cli = cli_path()
    test.assertTrue(os.access(cli, os.X_OK),
                    f"{cli} not found: build it with `cargo build -p parallel-cli` (or set PARALLEL_LAB_CLI)")
    seed = int(os.environ.get("PARALLEL_LAB_SEED") or random.SystemRandom().randrange(2**31))
    print(f"\n{engine}: seed {seed} (PARALLEL_LAB_SEED={seed} replays), {plans} plans, "
          f"{workers} workers", flush=True)
    return seed


def draw_tasks(seed, count, draw_plan, context):
    """`count` tasks `(index, plan, context, card_seed)` from one generator seeded with `seed`:
    each plan `draw_plan(rng)`, then its card seed, from the same generator."""
    rng = random.Random(seed)
    return [(i, draw_plan(rng), context, rng.randrange(2**31)) for i in range(count)]


def _check_one(check, engine, task):
    """One task through `check(out, plan, context, card_seed)`, which fills and returns `out`;
    an exception is a mismatch of kind "harness error", its traceback under `engine`."""
    index, plan, context, card_seed = task
    out = {"index": index, "plan": plan, "mismatches": []}
    try:
        return check(out, plan, context, card_seed)
    except Exception:  # noqa: BLE001 (a harness failure is reported with its plan)
        out["status"] = "judged"
        out["mismatches"].append({"kind": "harness error", "lab": "", engine: traceback.format_exc()})
        return out


def check_plans(check, tasks, workers, engine):
    """(results in the tasks' order, seconds): every task through `check` (see `_check_one`; a
    module-level function, so that the pool can send it), in a fork pool when `workers` > 1."""
    started = time.monotonic()
    one = functools.partial(_check_one, check, engine)
    if workers > 1:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            results = list(pool.imap(one, tasks, chunksize=4))
    else:
        results = [one(t) for t in tasks]
    return results, time.monotonic() - started


def fail_on_mismatches(test, by_kind, engine_name):
    """Fails `test` once if there is any mismatch, with the plans of each kind counted."""
    if by_kind:
        test.fail(f"the lab and {engine_name} disagree:\n"
                  + "\n".join(f"  {k}: {len(v)} plans" for k, v in sorted(by_kind.items()))
                  + "\n(details above)")


# ---------------------------------------------------------------------------------------------
# Random plans: the draws both suites make


def pick_model(rng, presets, moe_presets, inline_model, *, presets_below, moe_from):
    """(model, moe): one draw r; a preset when r < `presets_below` (MoE when in `moe_presets`),
    else `inline_model(rng, moe)`, MoE when r >= `moe_from`."""
    r = rng.random()
    if r < presets_below:
        model = rng.choice(presets)
        return model, model in moe_presets
    moe = r >= moe_from
    return inline_model(rng, moe), moe


def kv_heads(rng, heads):
    """A number of key/value heads that divides `heads`: 1, 2, 4, 8 or `heads` (no GQA)."""
    return rng.choice([k for k in (1, 2, 4, 8, heads) if heads % k == 0])


def cards(rng, gpus):
    """The cards whose groups are compared: every card up to 16, else the first, the last and
    6 more drawn."""
    if gpus <= 16:
        return list(range(gpus))
    return sorted({0, gpus - 1, *rng.sample(range(1, gpus - 1), 6)})


# ---------------------------------------------------------------------------------------------
# The summary


def shape(message, cut=None):
    """A message with its numbers blanked, so that refusals of one rule fall together; with
    `cut`, the message is first cut where `cut` starts."""
    message = message or ""
    if cut is not None:
        message = message.split(cut)[0]
    return re.sub(r"\d+(\.\d+)?", "N", message)[:160]


def summarize(engine, seed, results, seconds, counts, after=(), note=""):
    """(text, by_kind): the run's summary, and its mismatches by kind ({kind: [(result,
    mismatch)]}).

    The text: a headline (`engine`, the seed, the plans, the seconds, then `note`), the plans
    skipped, the suite's `counts` lines, the plans with a mismatch, the suite's `after` lines;
    then each kind of mismatch (most plans first) with its plans grouped by the mismatches' `by`
    (largest first) and the first examples of each: the plan, the lab's side, the engine's."""
    statuses = Counter(r["status"] for r in results)
    by_kind = defaultdict(list)
    for r in results:
        for m in r["mismatches"]:
            by_kind[m["kind"]].append((r, m))
    lines = [
        f"{engine}: seed {seed} (PARALLEL_LAB_SEED={seed} replays), {len(results)} plans in "
        f"{seconds:.0f} s{note}",
        f"  skipped, the lab's core refuses the plan: {statuses['skipped']}",
        *counts,
        f"  plans with a mismatch: {sum(1 for r in results if r['mismatches'])}",
        *after,
    ]
    lab_label = f"{'lab:':<{len(engine) + 1}}"
    for kind, items in sorted(by_kind.items(), key=lambda kv: -len(kv[1])):
        lines.append(f"\n== {kind}: {len(items)} plans")
        subgroups = defaultdict(list)
        for r, m in items:
            subgroups[m.get("by", "")].append((r, m))
        for by, subitems in sorted(subgroups.items(), key=lambda kv: -len(kv[1])):
            if by:
                lines.append(f"  -- {len(subitems)} x {by}")
            for r, m in subitems[:EXAMPLES if len(subgroups) == 1 else 2]:
                lines.append(f"    plan #{r['index']}: {json.dumps(r['plan'], separators=(',', ':'))}")
                lines.append(f"      {lab_label} {m['lab']}")
                lines.append(f"      {engine}: {m[engine]}")
    return "\n".join(lines), by_kind
