// What the page should show, from `parallel-lab` on the same plan, and the comparison with
// what it does show: the CLI (each question asked once), the lesson's starting plans, the
// page's number formats as the core writes them, and `differences` between a grid's figures
// (drive.mjs's `shown`) and the CLI's.
//
// Not a test file itself: `node --test` only picks up `*.test.mjs`. drive.mjs re-exports all of
// it, so a test imports from either.

import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));

/**
 * The native CLI: `cargo build -p parallel-cli` puts it in `$CARGO_TARGET_DIR/debug` (a
 * relative one read from the workspace's root; `target/` when unset; scripts/test.sh builds
 * it); PARALLEL_LAB overrides.
 */
export const CLI = process.env.PARALLEL_LAB ??
  path.join(path.resolve(path.join(HERE, '..'), process.env.CARGO_TARGET_DIR ?? 'target'), 'debug', 'parallel-lab');

/**
 * Runs `parallel-lab ARGS` with `config` as JSON on stdin. Resolves to `{ ok: json }` or, for
 * a rejected plan (exit 2), `{ error: "field: reason" }`; anything else throws. A command that
 * reads no stdin (`--url`, `--megatron`) takes no `config`: the CLI may exit before a write to
 * its stdin, which then fails with EPIPE whenever the CLI is quick enough.
 */
export function cli(args, config) {
  // The same plan is asked about again and again (every value a control passes through): the
  // CLI is deterministic, so each question is asked once. Callers get their own copy.
  const key = JSON.stringify([args, config]);
  if (!CLI_ANSWERS.has(key)) CLI_ANSWERS.set(key, runCli(args, config));
  return structuredClone(CLI_ANSWERS.get(key));
}

const CLI_ANSWERS = new Map();

function runCli(args, config) {
  const run = spawnSync(CLI, args, { input: JSON.stringify(config), encoding: 'utf8' });
  if (run.error) throw new Error(`cannot run ${CLI}: ${run.error.message} (cargo build -p parallel-cli)`);
  if (run.status === 0) return { ok: JSON.parse(run.stdout) };
  if (run.status === 2) return { error: run.stderr.trim().replace(/^parallel-lab: error: /, '') };
  throw new Error(`parallel-lab ${args.join(' ')} exited ${run.status}: ${run.stderr}`);
}

/** The page's starting plans (SPEC §2, "The page's starting plans"): where the lesson starts each grid. */
export const START = {
  8: { gpus: 8, zero: 3 },
  64: { gpus: 64, tp: 8, pp: 8 },
};

let asked;
/**
 * `parallel-lab defaults`, asked once: `{ config, presets, hardware, sliders }`, the plan an empty input stands
 * for (every field, the core's defaults, SPEC §2) and the model presets `[{ id, name }]` in
 * the order the page's picker lists them.
 */
export function coreDefaults() {
  asked ??= cli(['defaults']).ok;
  return asked;
}

/** A plan with every field written out: `config` over the core's defaults. */
export function fullConfig(config) {
  return { ...coreDefaults().config, ...config };
}

/** "131,072": the page's thousands separators. */
export const thousands = (n) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/**
 * `x` with `digits` decimals as Rust's `{:.N}` writes it: like `toFixed`, except that an exact
 * tie (2516.25 to one decimal) goes to the even digit, where `toFixed` rounds it up.
 */
export function fixed(x, digits) {
  // `toFixed` rounds the double's exact value; a tie is exact only when that value's digits
  // after the last kept one are 5 and then zeros (read from its exact expansion, not from a
  // rounded x·10^digits, which would call 1.95 = 1.9499999… a tie).
  const exact = Math.abs(x).toFixed(Math.min(100, digits + 60));
  const point = exact.indexOf('.');
  const rest = exact.slice(point + 1 + digits);
  if (/^50*$/.test(rest)) {
    const kept = exact.slice(0, point + 1 + digits);
    const last = Number(kept[kept.length - 1] === '.' ? kept[kept.length - 2] : kept[kept.length - 1]);
    if (last % 2 === 0) return (x < 0 ? '-' : '') + (digits === 0 ? kept.replace('.', '') : kept);
  }
  return x.toFixed(digits);
}

/** "55.6 GB": the core's Bytes display, one decimal in GB. */
export const gb = (bytes) => `${fixed(bytes / 1e9, 1)} GB`;

/** "41.9 MB" below 0.1 GB, else as `gb`: the core's `Show::Bytes`, for a term of a few megabytes. */
export const mbOrGb = (bytes) => (Math.abs(bytes) < 1e8 ? `${fixed(bytes / 1e6, 1)} MB` : gb(bytes));

/** "17.64 s", "67.1 ms" or "14.0 µs" (under a tenth of a millisecond): the core's Seconds display. */
export const secondsText = (s) => {
  if (s >= 1) return `${fixed(s, 2)} s`;
  if (s > 0 && s < 1e-4) return `${fixed(s * 1e6, 1)} µs`;
  return `${fixed(s * 1e3, 1)} ms`;
};

/**
 * The derived DP the controls show for `c`: N ÷ (TP·PP·CP), or null ("—") when that is not a
 * whole number. It is the controls' own, so it follows a rejected plan too.
 */
export function derivedDp(c) {
  const d = c.gpus / (c.tp * c.pp * c.cp);
  return Number.isInteger(d) && d >= 1 ? d : null;
}

/**
 * What the grid should show for `config` with `card` selected, from the CLI: `eval --card`
 * and `groups --card`. Each card's groups are the selected card's groups it belongs to.
 */
export function expected(config, card) {
  const report = cli(['eval', '--card', String(card)], config).ok;
  const groups = cli(['groups', '--card', String(card)], config).ok;
  // Each dimension's time in the estimate: the results of `eval --explain`'s estimate-<dim>.
  const explained = cli(['eval', '--explain'], config).ok.explain;
  const dims = explained
    .filter((e) => /^estimate-(tp|cp|ep|pp|dp|edp|offload)$/.test(e.figure))
    .map((e) => [e.figure.slice('estimate-'.length), e.result]);
  const roles = {};
  for (const dim of ['tp', 'cp', 'pp', 'dp', 'ep', 'edp']) {
    if (!groups[dim] || groups[dim].length < 2) continue;
    for (const member of groups[dim]) roles[member] = [...(roles[member] ?? []), dim];
  }
  const cardGroups = {};
  for (const [member, dims] of Object.entries(roles)) cardGroups[member] = dims.sort().join(' ');
  return { report, groups: cardGroups, dims };
}

/** The report's `rollout` fields the page shows, each compared as it is. */
const ROLLOUT_KEYS = [
  'engines', 'gpus_per_engine', 'cards', 'colocated', 'sequences', 'sequences_per_engine',
  'tokens_per_sequence', 'weights', 'kv_cache', 'total', 'fits', 'peak', 'peak_phase',
];

/**
 * Compares what the grid shows with the CLI's figures for the same plan; returns a list of
 * differences (empty when everything agrees).
 */
export function differences(got, want) {
  const out = [];
  const same = (what, a, b) => {
    if (a !== b) out.push(`${what}: page ${JSON.stringify(a)}, CLI ${JSON.stringify(b)}`);
  };
  const r = want.report;
  same('dp', got.dp, r.dp);
  for (const key of ['model_states', 'activations', 'total']) {
    same(`memory.${key} bytes`, got.memory[key].bytes, r.memory[key]);
    if (!got.memory[key].text.startsWith(gb(r.memory[key]))) {
      out.push(`memory.${key} text: page "${got.memory[key].text}", CLI ${gb(r.memory[key])}`);
    }
  }
  same('memory.fits', got.memory.fits, r.memory.fits);
  // The runtime terms exactly when the CLI counts them (SPEC §24), each part equal.
  same('memory.runtime shown', Boolean(got.memory.runtime), Boolean(r.memory.runtime));
  if (got.memory.runtime && r.memory.runtime) {
    for (const key of ['total', 'context', 'buffers', 'reserve']) {
      same(`memory.runtime.${key}`, got.memory.runtime[key], r.memory.runtime[key]);
    }
    if (!got.memory.runtime.text.startsWith(gb(r.memory.runtime.total))) {
      out.push(`memory.runtime text: page "${got.memory.runtime.text}", CLI ${gb(r.memory.runtime.total)}`);
    }
    for (const key of ['context', 'buffers', 'reserve']) {
      if (!got.memory.runtime.split.includes(mbOrGb(r.memory.runtime[key]))) {
        out.push(`memory.runtime.${key} text: page "${got.memory.runtime.split}", CLI ${mbOrGb(r.memory.runtime[key])}`);
      }
    }
  }
  // The host's figure exactly when the CLI reports one (the optimizer on the host).
  same('memory.host shown', Boolean(got.memory.host), Boolean(r.memory.host));
  if (got.memory.host && r.memory.host) {
    for (const key of ['per_gpu', 'per_node', 'capacity', 'fits']) {
      same(`memory.host.${key}`, got.memory.host[key], r.memory.host[key]);
    }
    if (!got.memory.host.text.startsWith(gb(r.memory.host.per_gpu))) {
      out.push(`memory.host text: page "${got.memory.host.text}", CLI ${gb(r.memory.host.per_gpu)}`);
    }
    if (!got.memory.host.node_text.startsWith(`${gb(r.memory.host.per_node)} / ${gb(r.memory.host.capacity)}`)) {
      out.push(`memory.host node text: page "${got.memory.host.node_text}", CLI ${gb(r.memory.host.per_node)}`);
    }
  }
  same('memory.tight', got.memory.tight, r.memory.tight);
  // The rollout figures exactly when the CLI reports rollout engines (SPEC §15), each equal.
  same('rollout shown', Boolean(got.rollout), Boolean(r.rollout));
  if (got.rollout && r.rollout) {
    for (const key of ROLLOUT_KEYS) same(`rollout.${key}`, got.rollout[key], r.rollout[key]);
    for (const [i, key] of ['weights', 'kv_cache', 'total', 'peak'].entries()) {
      if (!got.rollout.text[i].startsWith(gb(r.rollout[key]))) {
        out.push(`rollout.${key} text: page "${got.rollout.text[i]}", CLI ${gb(r.rollout[key])}`);
      }
    }
  }
  same('traffic dims', got.traffic.map((t) => t.dim).join(','), r.comm.map((t) => t.dim).join(','));
  for (const t of r.comm) {
    const row = got.traffic.find((g) => g.dim === t.dim);
    if (!row) continue;
    same(`traffic.${t.dim} bytes`, row.bytes, t.bytes);
    same(`traffic.${t.dim} link`, row.link, t.link);
    same(`traffic.${t.dim} group size`, row.group_size, t.group_size);
    same(`traffic.${t.dim} collective`, row.collective, t.collective);
    if (!row.cells.includes(String(t.group_size))) out.push(`traffic.${t.dim}: no cell shows ${t.group_size}`);
    if (!row.cells.includes(gb(t.bytes))) out.push(`traffic.${t.dim}: no cell shows ${gb(t.bytes)}`);
  }
  // The step-time estimate: every term, and each shown in the text.
  same('estimate dims', JSON.stringify(got.estimate.dims), JSON.stringify(want.dims));
  if (!got.estimate.text[3].includes(secondsText(r.estimate.latency_s))) out.push(`estimate latency: "${got.estimate.text[3]}" lacks ${secondsText(r.estimate.latency_s)}`);
  for (const key of ['step_s', 'compute_s', 'bubble_s', 'exposed_comm_s', 'tokens_per_s_per_gpu', 'tokens_per_step', 'latency_s', 'roofline_factor', 'mfu']) {
    same(`estimate.${key}`, got.estimate[key], r.estimate[key]);
  }
  if (got.estimate.text[0] !== secondsText(r.estimate.step_s)) out.push(`estimate step text: page "${got.estimate.text[0]}", CLI ${secondsText(r.estimate.step_s)}`);
  for (const key of ['compute_s', 'bubble_s', 'exposed_comm_s']) {
    if (!got.estimate.text[1].includes(secondsText(r.estimate[key]))) out.push(`estimate ${key}: "${got.estimate.text[1]}" lacks ${secondsText(r.estimate[key])}`);
  }
  for (const count of [Math.round(r.estimate.tokens_per_s_per_gpu), r.estimate.tokens_per_step]) {
    if (!got.estimate.text[2].includes(thousands(count))) out.push(`estimate throughput: "${got.estimate.text[2]}" lacks ${thousands(count)}`);
  }
  // Compute by kind of kernel and the optimizer step exactly on a card with measured tables
  // (SPEC §18), each term equal and shown in its line.
  same('estimate.kernels shown', Boolean(got.estimate.kernels), Boolean(r.estimate.kernels));
  if (got.estimate.kernels && r.estimate.kernels) {
    for (const key of ['gemm_s', 'attention_s', 'memory_bound_s', 'optimizer_s', 'borrowed']) {
      same(`estimate.kernels.${key}`, got.estimate.kernels[key], r.estimate.kernels[key]);
    }
    for (const key of ['gemm_s', 'attention_s', 'memory_bound_s', 'optimizer_s']) {
      const want = secondsText(r.estimate.kernels[key]);
      if (!got.estimate.kernels.text.includes(want)) out.push(`estimate.kernels.${key}: "${got.estimate.kernels.text}" lacks ${want}`);
    }
  }
  same('bubble.ratio', got.bubble.ratio, r.bubble.ratio);
  same('bubble.share', got.bubble.share, r.bubble.share);
  same('card groups', JSON.stringify(got.groups), JSON.stringify(want.groups));
  // Each card's own memory: its stage's entry with "stages", the headline with "even"; every
  // stage holds N/p cards.
  const stages = r.memory.by_stage;
  const perStage = got.cards.length / stages.length;
  for (const [index, stage] of stages.entries()) {
    const count = got.cards.filter((c) => c.stage === index).length;
    if (count !== perStage) out.push(`stage ${index}: ${count} cards, expected ${perStage}`);
  }
  for (const [card, c] of got.cards.entries()) {
    // Under uneven routing (SPEC §20) the CLI lists every card's own memory.
    const own = r.cards_memory?.[card] ?? (r.memory.busiest_stage === undefined ? r.memory : stages[c.stage]);
    if (c.bytes !== own?.total) out.push(`card ${card} (stage ${c.stage}) data-bytes: page ${c.bytes}, CLI ${own?.total}`);
    if (c.tight !== own?.tight) out.push(`card ${card} (stage ${c.stage}) data-tight: page ${c.tight}, CLI ${own?.tight}`);
    if (c.tightClass !== Boolean(own?.tight)) out.push(`card ${card}: class tight ${c.tightClass}, CLI tight ${own?.tight}`);
  }
  return out;
}
