// Keeps what a student does on a page's first screen before its wasm has taken over (issue 53).
// Inlined into every entry point after landing.js (Trunk's rel="inline"; scripts/csp.mjs allows
// it by its hash).
//
// The first screen (scripts/first-screen.mjs) is the page as the wasm's first frame draws it, so
// an element of it and the element the app draws in its place sit at the same path of element
// children from the top. Before the wasm is ready this records, by that path:
// - a value typed, chosen or slid into a field (the last one per field);
// - a click, or Enter, Space, Escape or an arrow key, on anything else (labels act through
//   their field; a link to another page goes there at once, a link within the page waits too,
//   since its `#…` would replace the page's link);
// - where the focus is.
// It marks <html class="first-screen-pending"> meanwhile, which shows the page's waiting note.
// When the app is mounted (web/src/pages/mod.rs dispatches `parallel-lab:mounted` on the
// document after replacing the first screen), each is done again, in order, on the app's
// element: the value set and `input` and `change` sent, the click or key sent, the focus put back.
(function () {
  var root = document.documentElement;
  var done = [];
  var focused = null;
  var KEYS = ['Enter', ' ', 'Escape', 'ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End'];

  // The first screen `node` is in, and its path of element-child indices from there.
  function place(node) {
    var screen = node instanceof Element ? node.closest('.first-screen') : null;
    if (screen === null) return null;
    var path = [];
    for (var at = node; at !== screen; at = at.parentElement) {
      path.unshift(Array.prototype.indexOf.call(at.parentElement.children, at));
    }
    return { tops: screen.children.length, path: path };
  }

  function isField(node) {
    return node.matches('input, select, textarea');
  }

  function keep(entry) {
    done.push(entry);
    root.classList.add('first-screen-pending');
  }

  function onValue(event) {
    var at = place(event.target);
    if (at === null || !isField(event.target)) return;
    var key = at.path.join('.');
    done = done.filter(function (d) { return !(d.kind === 'value' && d.at.path.join('.') === key); });
    var field = event.target;
    keep({ kind: 'value', at: at, value: field.value, checked: field.checked });
  }

  document.addEventListener('input', onValue, true);
  document.addEventListener('change', onValue, true);
  document.addEventListener('click', function (event) {
    var at = place(event.target);
    if (at === null || isField(event.target) || event.target.closest('label')) return;
    var anchor = event.target.closest('a[href]');
    if (anchor && anchor.getAttribute('href').charAt(0) !== '#') return;
    if (anchor) event.preventDefault();
    keep({ kind: 'click', at: at });
  }, true);
  document.addEventListener('keydown', function (event) {
    var at = place(event.target);
    if (at === null || isField(event.target) || KEYS.indexOf(event.key) < 0) return;
    keep({ kind: 'key', at: at, key: event.key });
  }, true);
  document.addEventListener('focusin', function (event) {
    focused = place(event.target);
  }, true);

  // The app's element at `at`: its tops are the last children of <body>, appended by the mount.
  function find(at) {
    var tops = document.body.children;
    var node = tops[tops.length - at.tops + at.path[0]];
    for (var i = 1; node && i < at.path.length; i++) node = node.children[at.path[i]];
    return node || null;
  }

  document.addEventListener('parallel-lab:mounted', function () {
    for (var i = 0; i < done.length; i++) {
      var entry = done[i];
      var node = find(entry.at);
      if (node === null) continue;
      if (entry.kind === 'value') {
        if (node.type === 'checkbox' || node.type === 'radio') node.checked = entry.checked;
        else node.value = entry.value;
        node.dispatchEvent(new Event('input', { bubbles: true }));
        node.dispatchEvent(new Event('change', { bubbles: true }));
      } else if (entry.kind === 'click') {
        node.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));
      } else {
        node.dispatchEvent(new KeyboardEvent('keydown', { key: entry.key, bubbles: true, cancelable: true }));
      }
    }
    var target = focused && find(focused);
    if (target && typeof target.focus === 'function') target.focus({ preventScroll: true });
    done = [];
    root.classList.remove('first-screen-pending');
  }, { once: true });
})();
