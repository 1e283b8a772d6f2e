// Part of tests/bench.mjs (see its header): the functions it runs inside the page to time a
// slider's move (measure) and to replay the same DOM changes from plain JS (replay), and the
// percentiles it reports.

export async function measure({ testId, values, watch, attr, n, warmup }) {
  const section = document.querySelector('[data-testid="section-64"]');
  const input = section.querySelector(`[data-testid="${testId}"]`);
  const figure = section.querySelector(`[data-testid="${watch}"]`);
  const nextTask = () =>
    new Promise((resolve) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => resolve(performance.now());
      channel.port2.postMessage(0);
    });
  const nextFrame = () => new Promise((resolve) => requestAnimationFrame(() => resolve(performance.now())));

  let before = null;
  let changedAt = 0;
  let lastMutation = 0;
  const observer = new MutationObserver(() => {
    const now = performance.now();
    lastMutation = now;
    if (!changedAt && figure.getAttribute(attr) !== before) changedAt = now;
  });

  const samples = { handler: [], updated: [], settled: [], done: [], layout: [], frame: [], rendered: [] };
  // Update → frame rendered (the method of the comparison): the input is dispatched
  // inside a rAF callback, so the frame being made carries it; a task posted from that callback
  // runs once that frame's style, layout and paint are done.
  const renderedOnce = (value) =>
    new Promise((resolve) => {
      requestAnimationFrame(() => {
        const start = performance.now();
        input.value = value;
        input.dispatchEvent(new Event('input', { bubbles: true }));
        const channel = new MessageChannel();
        channel.port1.onmessage = () => resolve(performance.now() - start);
        channel.port2.postMessage(0);
      });
    });
  // Every move sets the other value (one counter across the three loops).
  let moves = 0;
  const next = () => String(values[moves++ % values.length]);
  const move = () => {
    input.value = next();
    input.dispatchEvent(new Event('input', { bubbles: true }));
  };
  const check = () => {
    if (figure.getAttribute(attr) === before) {
      throw new Error(`${testId} = ${input.value}: ${watch} ${attr} stayed ${before}`);
    }
  };

  // 1. When the DOM changes, seen by a MutationObserver. The observer is the measurement's own
  //    work (a record for each of the hundreds of changes a PP move makes), so it watches only
  //    this loop, not the ones that time the page's work.
  observer.observe(section, { subtree: true, attributes: true, childList: true, characterData: true });
  let synchronous = 0;
  for (let i = 0; i < warmup + n; i++) {
    await nextFrame();
    await nextTask();
    before = figure.getAttribute(attr);
    changedAt = 0;
    lastMutation = 0;
    const t0 = performance.now();
    move();
    const t1 = performance.now();
    const changedInHandler = figure.getAttribute(attr) !== before;
    await nextTask(); // every microtask (Leptos' effects, the observer) has run
    check();
    if (changedInHandler) changedAt = t1;
    if (i < warmup) continue;
    if (changedInHandler) synchronous += 1;
    samples.handler.push(t1 - t0);
    samples.updated.push(changedAt - t0);
    samples.settled.push(Math.max(lastMutation, changedAt, t1) - t0);
  }
  observer.disconnect();

  // 2. The page's work alone: JS, then style and layout, then the next frame.
  for (let i = 0; i < warmup + n; i++) {
    await nextFrame();
    await nextTask();
    before = figure.getAttribute(attr);
    const t0 = performance.now();
    move();
    // Next frame painted: its rAF callback, then the task after it.
    const painted = nextFrame().then(nextTask);
    const doneAt = await nextTask(); // every microtask (Leptos' effects) has run
    const l0 = performance.now();
    document.body.getBoundingClientRect(); // forces style and layout of what changed
    const layoutCost = performance.now() - l0;
    const frameAt = await painted;
    check();
    if (i < warmup) continue;
    samples.done.push(doneAt - t0);
    samples.layout.push(doneAt - t0 + layoutCost);
    samples.frame.push(frameAt - t0);
  }

  // 3. Update in rAF → frame rendered.
  for (let i = 0; i < warmup + n; i++) {
    await nextFrame();
    before = figure.getAttribute(attr);
    const took = await renderedOnce(next());
    check();
    if (i >= warmup) samples.rendered.push(took);
  }
  return { samples, synchronous, isolated: self.crossOriginIsolated };
}

/**
 * Runs in the page: the browser's share of a scenario's frame. Records every DOM change one
 * move makes in the section (attributes, texts, and the markup of an element whose children
 * were replaced), reads both states' values, then writes them back and forth from plain JS in
 * a rAF callback, timed to the frame rendered as in loop 3. The page's wasm does nothing in
 * these frames: what remains is style, layout and paint of the same changes, plus the
 * cheapest JS that can make them. It writes behind the app's back: run it in a page of its own.
 */
export async function replay({ testId, values, n, warmup }) {
  const section = document.querySelector('[data-testid="section-64"]');
  const input = section.querySelector(`[data-testid="${testId}"]`);
  const settle = () =>
    new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  const set = async (value) => {
    input.value = String(value);
    input.dispatchEvent(new Event('input', { bubbles: true }));
    await settle();
  };
  await set(values[1]);
  const records = [];
  const observer = new MutationObserver((batch) => records.push(...batch));
  observer.observe(section, { subtree: true, attributes: true, childList: true, characterData: true });
  await set(values[0]);
  await set(values[1]);
  records.push(...observer.takeRecords());
  observer.disconnect();
  // Whole markup where children were replaced; attributes and texts everywhere else.
  const rebuilt = [...new Set(records.filter((r) => r.type === 'childList').map((r) => r.target))];
  const inside = (node) => rebuilt.some((parent) => parent !== node && parent.contains(node));
  const writes = new Map();
  for (const r of records) {
    if (r.type === 'childList' || inside(r.target) || !section.contains(r.target)) continue;
    const key = r.type === 'attributes' ? r.attributeName : '#text';
    if (!writes.has(r.target)) writes.set(r.target, new Set());
    writes.get(r.target).add(key);
  }
  const read = () => ({
    markup: rebuilt.map((el) => el.innerHTML),
    values: [...writes].map(([node, keys]) =>
      [...keys].map((key) => (key === '#text' ? node.data : node.getAttribute(key)))),
  });
  const states = [];
  for (const value of values) {
    await set(value);
    states.push(read());
  }
  const entries = [...writes].map(([node, keys]) => [node, [...keys]]);
  const apply = ({ markup, values: all }) => {
    rebuilt.forEach((el, i) => {
      el.innerHTML = markup[i];
    });
    entries.forEach(([node, keys], i) => {
      keys.forEach((key, k) => {
        const value = all[i][k];
        if (key === '#text') node.data = value;
        // Through the CSSOM, as the page does: the Content-Security-Policy refuses a style
        // attribute written as markup.
        else if (key === 'style') node.style.cssText = value ?? '';
        else if (value === null) node.removeAttribute(key);
        else node.setAttribute(key, value);
      });
    });
  };
  const changes = rebuilt.length + entries.reduce((sum, [, keys]) => sum + keys.length, 0);
  const rendered = [];
  for (let i = 0; i < warmup + n; i++) {
    await new Promise((resolve) => requestAnimationFrame(resolve));
    const took = await new Promise((resolve) => {
      requestAnimationFrame(() => {
        const start = performance.now();
        apply(states[i % 2]);
        const channel = new MessageChannel();
        channel.port1.onmessage = () => resolve(performance.now() - start);
        channel.port2.postMessage(0);
      });
    });
    if (i >= warmup) rendered.push(took);
  }
  return { rendered, changes };
}

/** Nearest-rank percentile of unsorted samples. */
export function percentile(samples, p) {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
}

export function stats(samples) {
  return { p50: percentile(samples, 50), p95: percentile(samples, 95), max: Math.max(...samples) };
}

/** Opens the page with part two's grid as every scenario starts from, the grid in view. */
