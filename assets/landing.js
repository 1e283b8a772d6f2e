// Where a link lands, the part decided before anything else loads. Inlined into every entry
// point (index.html, rl.html, plan.html and embed.html; Trunk's rel="inline"; scripts/csp.mjs
// allows it by its hash).
//
// The rule is the core's `link::landing` (crates/parallel-core/src/link/landing.rs). Its first
// step is here: a link whose first `embed` key names a widget belongs to embed.html, so a page
// that gets one sends it there before loading its own wasm. This is `link::names_widget`
// transcribed, reading the fragment exactly as the core's `link::decode` does (the first `#` or
// `?`, 2048 bytes at most, parts split at `&` and `;`, each percent-decoded as UTF-8 with
// replacement, key and value trimmed of Unicode white space, the first `embed` key alone
// counting). The web crate's test `landing::tests` runs this file against the core over random
// links. The rule's other steps need the plans decoded: each entry point's wasm applies them
// before drawing (web/src/pages/mod.rs), embed.html's for a link without a widget. A redirect
// keeps the fragment as it is, so a link is sent on at most once, never back.
//
// Also sets the link's language on <html> early, and which of the page's first screens (drawn at
// build time, scripts/first-screen.mjs) the link asks for, so the right one is painted first.
(function () {
  var WIDGETS = ['grid-8', 'grid-64', 'table-8', 'table-64', 'llama3', 'chart-memory-64', 'chart-bubble-64', 'chart-traffic-64'];
  var MAX_LINK_LEN = 2048;
  // Rust's char::is_whitespace (Unicode White_Space); JavaScript's \s differs (U+0085, U+FEFF).
  var WHITE = '[\\t-\\r \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]+';
  var TRIM = new RegExp('^' + WHITE + '|' + WHITE + '$', 'g');
  var HEX = /^[0-9a-fA-F]$/;

  function trim(text) {
    return text.replace(TRIM, '');
  }

  // Bytes back to text, invalid UTF-8 replaced (as String::from_utf8_lossy), a BOM kept.
  function text(bytes) {
    return new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
  }

  function percentDecode(part) {
    var bytes = new TextEncoder().encode(part);
    var out = [];
    for (var i = 0; i < bytes.length; i++) {
      var b = bytes[i];
      if (b === 0x25 && i + 2 < bytes.length) {
        var hi = String.fromCharCode(bytes[i + 1]);
        var lo = String.fromCharCode(bytes[i + 2]);
        if (HEX.test(hi) && HEX.test(lo)) {
          out.push(parseInt(hi + lo, 16));
          i += 2;
          continue;
        }
      }
      out.push(b);
    }
    return text(new Uint8Array(out));
  }

  // The link's parts, as the core reads them: each [key, value] percent-decoded and trimmed,
  // the empty ones left out.
  function partsOf(link) {
    var at = link.indexOf('#');
    if (at < 0) at = link.indexOf('?');
    var fragment = at < 0 ? link : link.slice(at + 1);
    var bytes = new TextEncoder().encode(fragment);
    if (bytes.length > MAX_LINK_LEN) {
      var cut = MAX_LINK_LEN;
      while ((bytes[cut] & 0xc0) === 0x80) cut--;
      fragment = text(bytes.subarray(0, cut));
    }
    var parts = fragment.split(/[&;]/);
    var out = [];
    for (var p = 0; p < parts.length; p++) {
      if (parts[p] === '') continue;
      var decoded = percentDecode(parts[p]);
      var eq = decoded.indexOf('=');
      out.push([trim(eq < 0 ? decoded : decoded.slice(0, eq)), eq < 0 ? '' : trim(decoded.slice(eq + 1))]);
    }
    return out;
  }

  // The widget a link names, or null: the core's `decode(link).0.embed`.
  function widgetOf(link) {
    var parts = partsOf(link);
    for (var p = 0; p < parts.length; p++) {
      if (parts[p][0] !== 'embed') continue;
      return WIDGETS.indexOf(parts[p][1]) >= 0 ? parts[p][1] : null;
    }
    return null;
  }

  // Which of the page's first screens (scripts/first-screen.mjs) the link asks for: screen
  // 2k + (1 if English) for the k-th link of `<html data-screens>` (space-separated, each as
  // the core writes it without `lang`), or "-" where the link holds anything else.
  function screenOf(link, screens) {
    var parts = partsOf(link);
    var rest = [];
    var english = 0;
    var langs = 0;
    for (var p = 0; p < parts.length; p++) {
      if (parts[p][0] === 'lang') {
        langs++;
        if (parts[p][1] === 'en') english = 1;
        else if (parts[p][1] !== 'zh') return '-';
      } else {
        rest.push(parts[p][0] + '=' + parts[p][1]);
      }
    }
    var k = screens.split(' ').indexOf(rest.join('&'));
    return k < 0 || langs > 1 ? '-' : String(2 * k + english);
  }

  var root = document.documentElement;
  var hash = location.hash;
  // The wasm reads the fragment as location.hash less its `#` (web/src/state/permalink.rs).
  var fragment = hash.charAt(0) === '#' ? hash.slice(1) : hash;
  var onEmbed = root.getAttribute('data-entry') === 'embed';
  if (!onEmbed && widgetOf(fragment) !== null) {
    root.classList.add('embedded-page');
    // No first screen while the link goes on to embed.html.
    root.setAttribute('data-screen', 'away');
    location.replace('embed.html' + hash);
    return;
  }
  if (/(^|[#&;])lang=en(&|;|$)/.test(hash)) root.lang = 'en';
  // A widget is drawn without the page's chrome from its first screen on.
  if (onEmbed && widgetOf(fragment) !== null) root.classList.add('embedded-page');
  var screens = root.getAttribute('data-screens');
  if (screens !== null) root.setAttribute('data-screen', screenOf(fragment, screens));
})();
