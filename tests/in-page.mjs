// Readers that run inside the page, shared by the Chromium tests (drive.mjs, harness.mjs,
// through playwright's `evaluate`) and the Firefox/WebKit journeys (engines/, through an
// adapter's `evaluate`). Each is serialized on its own, so it may use nothing from this
// module's scope.

/**
 * Everything a grid's section shows for its plan (DP, memory, the rollout engines' figures or
 * null, traffic rows, bubble, estimate (its kernel terms or null), every card's groups, stage and bytes), in one read so the figures are seen together, as
 * drawn; drive.mjs's `differences()` compares it with the CLI. `target` is the section's
 * element or its test id; it must be on screen (engines/page.mjs's `showSection`).
 */
export function readSection(target) {
  const root = typeof target === 'string' ? document.querySelector(`[data-testid="${target}"]`) : target;
  const byId = (id) => root.querySelector(`[data-testid="${id}"]`);
  const text = (id) => byId(id).innerText.trim();
  const attr = (id, name) => byId(id).getAttribute(name);
  const memory = {};
  for (const [key, id] of [['model_states', 'mem-states'], ['activations', 'mem-activations'], ['total', 'mem-total']]) {
    memory[key] = { bytes: Number(attr(id, 'data-bytes')), text: text(id) };
  }
  memory.fits = attr('mem-total', 'data-fits') === 'true';
  memory.tight = attr('mem-total', 'data-tight') === 'true';
  // With the runtime terms counted (SPEC §24): their total and its three parts.
  const runtime = byId('mem-runtime');
  memory.runtime = runtime && {
    total: Number(runtime.dataset.bytes),
    context: Number(attr('mem-runtime-split', 'data-context')),
    buffers: Number(attr('mem-runtime-split', 'data-buffers')),
    reserve: Number(attr('mem-runtime-split', 'data-reserve')),
    text: runtime.innerText.trim(),
    split: text('mem-runtime-split'),
  };
  // With the optimizer on the host (SPEC §14): per card, the fullest node, its capacity.
  const host = byId('mem-host');
  memory.host = host && {
    per_gpu: Number(host.dataset.bytes),
    per_node: Number(host.dataset.nodeBytes),
    capacity: Number(host.dataset.capacity),
    fits: host.dataset.fits === 'true',
    text: host.innerText.trim(),
    node_text: text('mem-host-node'),
  };
  // With rollout engines (SPEC §15): one rollout card's figures, primitives only.
  const total = byId('rollout-total');
  const rollout = total && {
    engines: Number(attr('rollout-engines', 'data-count')),
    gpus_per_engine: Number(attr('rollout-engines', 'data-gpus-per-engine')),
    cards: Number(attr('rollout-engines', 'data-cards')),
    colocated: attr('rollout-engines', 'data-colocated') === 'true',
    sequences: Number(attr('rollout-seqs-per-engine', 'data-sequences')),
    sequences_per_engine: Number(attr('rollout-seqs-per-engine', 'data-count')),
    tokens_per_sequence: Number(attr('rollout-seqs-per-engine', 'data-tokens')),
    weights: Number(attr('rollout-weights', 'data-bytes')),
    kv_cache: Number(attr('rollout-kv', 'data-bytes')),
    total: Number(total.dataset.bytes),
    fits: total.dataset.fits === 'true',
    peak: Number(attr('rollout-peak', 'data-bytes')),
    peak_phase: attr('rollout-peak', 'data-phase'),
    // The texts of weights, KV cache, total, peak, in that order.
    text: ['rollout-weights', 'rollout-kv', 'rollout-total', 'rollout-peak'].map(text),
  };
  const traffic = [...root.querySelectorAll('tr[data-testid^="traffic-"]')].map((row) => ({
    dim: row.dataset.testid.slice('traffic-'.length),
    bytes: Number(row.dataset.bytes),
    link: row.dataset.link,
    group_size: Number(row.dataset.groupSize),
    collective: row.dataset.collective,
    cells: [...row.querySelectorAll('td')].map((td) => td.textContent.trim()),
  }));
  const groups = {};
  const cards = [];
  for (const card of root.querySelectorAll('[data-card]')) {
    const value = card.getAttribute('data-groups');
    if (value) groups[card.dataset.card] = value.trim().split(/\s+/).sort().join(' ');
    cards.push({
      stage: Number(card.getAttribute('data-stage')),
      bytes: Number(card.getAttribute('data-bytes')),
      tight: card.getAttribute('data-tight') === 'true',
      tightClass: card.classList.contains('tight'),
    });
  }
  const estimate = {
    step_s: Number(attr('estimate-step', 'data-seconds')),
    compute_s: Number(attr('estimate-split', 'data-compute')),
    bubble_s: Number(attr('estimate-split', 'data-bubble')),
    exposed_comm_s: Number(attr('estimate-split', 'data-exposed')),
    tokens_per_s_per_gpu: Number(attr('estimate-throughput', 'data-tokens-per-s')),
    tokens_per_step: Number(attr('estimate-throughput', 'data-tokens-per-step')),
    latency_s: Number(attr('estimate-latency', 'data-seconds')),
    roofline_factor: Number(attr('estimate-roofline', 'data-value')),
    mfu: Number(attr('estimate-mfu', 'data-value')),
    // [dim, seconds] pairs in the page's order: an array, since WebKit's WebDriver returns
    // an object's keys in an order of its own.
    dims: [...byId('estimate-dims').querySelectorAll('li[data-testid^="estimate-"]')]
      .map((li) => [li.dataset.testid.slice('estimate-'.length), Number(li.dataset.seconds)]),
    text: [text('estimate-step'), text('estimate-split'), text('estimate-throughput'), text('estimate-latency')],
    // On a card with measured kernel tables (SPEC §18): compute by kind of kernel and the
    // optimizer step, with the line that writes them; null on the lesson's card.
    kernels: byId('estimate-kernels') && {
      gemm_s: Number(attr('estimate-gemm', 'data-value')),
      attention_s: Number(attr('estimate-attention', 'data-value')),
      memory_bound_s: Number(attr('estimate-memory-bound', 'data-value')),
      optimizer_s: Number(attr('estimate-optimizer', 'data-value')),
      borrowed: attr('estimate-kernels', 'data-borrowed') === 'true',
      text: text('estimate-kernels'),
    },
  };
  return {
    // "—" while the controls hold a combination the core refuses: no DP then, not the last one.
    dp: text('derived-dp') === '—' ? null : Number(text('derived-dp')),
    estimate,
    memory,
    rollout,
    traffic,
    bubble: { ratio: Number(attr('bubble', 'data-ratio')), share: Number(attr('bubble-share', 'data-share')) },
    groups,
    cards,
  };
}

/**
 * The whole page's text as a reader sees it scrolling from top to bottom: each part of the
 * page is scrolled into view, then read once its text holds still for two frames (a section far
 * from the viewport is not rendered, so its `innerText` would be empty). Ends back at the top.
 * With the page's language and title.
 */
export async function readingText() {
  const frame = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  const parts = [];
  for (const element of document.querySelectorAll('body > :not(main, script, noscript), main > *')) {
    element.scrollIntoView({ behavior: 'instant', block: 'start' });
    let text = null;
    for (let i = 0, still = 0; i < 60 && still < 2; i++) {
      await frame();
      const now = element.innerText;
      still = now === text && now.trim() !== '' ? still + 1 : 0;
      text = now;
    }
    parts.push(text);
  }
  window.scrollTo({ top: 0, behavior: 'instant' });
  return { text: parts.join('\n'), lang: document.documentElement.lang, title: document.title };
}
