// The page's stylesheet and its one small script, as strings: served from the
// service itself, so they travel in tsc's dist/ and in the bundle as code.
// Class names are documented in docs/status-page.md: custom CSS may rely on them.
// Colours keep WCAG AA contrast (4.5:1 for text) in both themes.

// The dark palette: chosen by the dashboard's theme, or by the reader's preference when it sets none.
const DARK = `  --sp-bg: #111418;
  --sp-surface: #1c2026;
  --sp-text: #e8eaed;
  --sp-muted: #aab2bd;
  --sp-border: #3a414b;
  --sp-ok: #5fd38a;
  --sp-warn: #f2c14e;
  --sp-bad: #ff8a80;
  --sp-none: #5b626c;
  --sp-accent: #8ab4f8;
  color-scheme: dark;
`;

export const STATUS_CSS = `:root {
  --sp-bg: #ffffff;
  --sp-surface: #f3f4f6;
  --sp-text: #16181d;
  --sp-muted: #4b5261;
  --sp-border: #c9ced6;
  --sp-ok: #146c2e;
  --sp-warn: #7a4d00;
  --sp-bad: #b3261e;
  --sp-none: #8a8f99;
  --sp-accent: #1f5fbf;
  color-scheme: light;
}
:root[data-theme='dark'] {
${DARK}}
@media (prefers-color-scheme: dark) {
  :root:not([data-theme]) {
${DARK}  }
}
* { box-sizing: border-box; }
.sp-body {
  margin: 0;
  background: var(--sp-bg);
  color: var(--sp-text);
  font: 16px/1.5 system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif;
}
.sp-page { max-width: 72rem; margin: 0 auto; padding: 1rem; }
.sp-header { display: flex; align-items: center; gap: 1rem; flex-wrap: wrap; }
.sp-logo { max-height: 3rem; max-width: 12rem; }
.sp-name { margin: 0; font-size: 1.75rem; }
.sp-description, .sp-updated, .sp-footer { color: var(--sp-muted); }
.sp-description { margin: 0.25rem 0 0; }
.sp-footer a, .sp-body a { color: var(--sp-accent); }
.sp-overall {
  margin: 1rem 0 0.25rem;
  padding: 0.75rem 1rem;
  border-radius: 0.5rem;
  border: 2px solid currentColor;
  background: var(--sp-surface);
  font-size: 1.25rem;
  font-weight: 600;
}
.sp-overall--operational { color: var(--sp-ok); }
.sp-overall--partial { color: var(--sp-warn); }
.sp-overall--major { color: var(--sp-bad); }
.sp-banner {
  border: 2px solid var(--sp-bad);
  border-radius: 0.5rem;
  padding: 0.5rem 1rem;
  margin: 1rem 0;
  background: var(--sp-surface);
}
.sp-banner h2 { margin: 0; font-size: 1.1rem; color: var(--sp-bad); }
.sp-maintenance {
  border: 2px solid var(--sp-accent);
  border-radius: 0.5rem;
  padding: 0.5rem 1rem;
  margin: 1rem 0;
  background: var(--sp-surface);
}
.sp-maintenance h2 { margin: 0 0 0.25rem; font-size: 1.1rem; color: var(--sp-accent); }
.sp-windows { list-style: none; margin: 0; padding: 0; }
.sp-window { padding: 0.25rem 0; }
.sp-window-name { font-weight: 600; }
.sp-window-state { font-weight: 600; color: var(--sp-accent); }
.sp-window-times, .sp-window-checks { color: var(--sp-muted); font-size: 0.9rem; }
.sp-under-maintenance {
  font-size: 0.85rem;
  font-weight: 600;
  color: var(--sp-accent);
  border: 1px solid var(--sp-accent);
  border-radius: 0.25rem;
  padding: 0 0.3rem;
  white-space: nowrap;
}
.sp-widget { margin: 1.5rem 0; }
.sp-widget h2 { font-size: 1.25rem; margin: 0 0 0.5rem; }
.sp-group { font-size: 1rem; margin: 1rem 0 0.25rem; color: var(--sp-muted); }
.sp-counts { display: flex; flex-wrap: wrap; gap: 0.75rem; margin: 0; }
.sp-count {
  background: var(--sp-surface);
  border: 1px solid var(--sp-border);
  border-radius: 0.5rem;
  padding: 0.5rem 1rem;
  min-width: 9rem;
}
.sp-count dt { font-size: 0.9rem; }
.sp-count dd { margin: 0; font-size: 1.5rem; font-weight: 600; }
.sp-count-share { font-size: 1rem; color: var(--sp-muted); font-weight: 400; }
.sp-status { font-weight: 600; white-space: nowrap; }
.sp-status--passing { color: var(--sp-ok); }
.sp-status--degraded { color: var(--sp-warn); }
.sp-status--failing { color: var(--sp-bad); }
.sp-status--unknown { color: var(--sp-muted); }
.sp-check-list, .sp-incidents { list-style: none; margin: 0; padding: 0; }
.sp-check {
  border: 1px solid var(--sp-border);
  border-radius: 0.5rem;
  padding: 0.75rem 1rem;
  margin: 0 0 0.5rem;
  background: var(--sp-surface);
}
.sp-check-head { display: flex; flex-wrap: wrap; gap: 0.25rem 1rem; align-items: baseline; }
.sp-check-name { font-weight: 600; overflow-wrap: anywhere; }
.sp-availability, .sp-last { color: var(--sp-muted); font-size: 0.9rem; }
.sp-last { margin: 0.25rem 0 0; }
.sp-days {
  display: flex;
  gap: 1px;
  list-style: none;
  margin: 0.5rem 0 0;
  padding: 0;
  height: 1.75rem;
}
.sp-day { flex: 1 1 0; min-width: 1px; border-radius: 1px; background: var(--sp-none); }
.sp-day--ok { background: var(--sp-ok); }
.sp-day--warn { background: var(--sp-warn); }
.sp-day--bad { background: var(--sp-bad); }
.sp-runs { display: flex; gap: 0.25rem; list-style: none; margin: 0.5rem 0 0; padding: 0; }
.sp-run { font-weight: 700; width: 1.25rem; text-align: center; }
.sp-run--success { color: var(--sp-ok); }
.sp-run--failed { color: var(--sp-bad); }
.sp-incident { padding: 0.25rem 0; border-bottom: 1px solid var(--sp-border); }
.sp-incident-title { font-weight: 600; }
.sp-incident-times { color: var(--sp-muted); }
.sp-chart-figure { margin: 0; }
.sp-chart-svg { width: 100%; height: 10rem; background: var(--sp-surface); border-radius: 0.5rem; }
.sp-chart-line { fill: none; stroke: var(--sp-accent); stroke-width: 2; vector-effect: non-scaling-stroke; }
.sp-chart-dot { fill: var(--sp-accent); }
.sp-chart-axis { stroke: var(--sp-border); stroke-width: 1; vector-effect: non-scaling-stroke; }
.sp-chart-caption, .sp-unavailable, .sp-chart-empty { color: var(--sp-muted); }
.sp-sr {
  position: absolute;
  width: 1px;
  height: 1px;
  padding: 0;
  margin: -1px;
  overflow: hidden;
  clip: rect(0, 0, 0, 0);
  white-space: nowrap;
  border: 0;
}
@media (min-width: 110rem) {
  .sp-page { max-width: 100rem; }
  .sp-body { font-size: 20px; }
}
`;

/**
 * Reloads the page's data on the dashboard's refreshInterval: fetches the page
 * again (with its ETag, so an unchanged page costs a 304) and swaps its content
 * in place. The page is complete without it.
 */
export const STATUS_JS = `(function () {
  'use strict';
  var seconds = Number(document.body.getAttribute('data-refresh'));
  if (!(seconds > 0)) return;
  var etag = null;
  function swap(html) {
    var next = new DOMParser().parseFromString(html, 'text/html').querySelector('.sp-page');
    var page = document.querySelector('.sp-page');
    if (next && page) page.replaceWith(document.importNode(next, true));
  }
  function tick() {
    var headers = etag ? { 'if-none-match': etag } : {};
    fetch(location.href, { headers: headers, cache: 'no-store', credentials: 'omit' })
      .then(function (res) {
        if (res.status !== 200) return null;
        etag = res.headers.get('etag');
        return res.text();
      })
      .then(function (html) {
        if (html) swap(html);
      })
      .catch(function () {})
      .then(function () {
        setTimeout(tick, seconds * 1000);
      });
  }
  setTimeout(tick, seconds * 1000);
})();
`;
