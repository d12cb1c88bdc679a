// The status page as HTML, drawn on the server: complete without its script.
// Everything that comes from the config or a check (names, descriptions,
// titles, URLs) passes through `esc`, the one escaping function, in text and
// in attributes alike; there is no inline script or style (the CSP forbids them).
import type { CheckStatusValue, Dashboard, PublicCheckStatus } from '../../../api/schemas/index.js';
import {
  CHART_METRICS,
  chartRange,
  type ChartPoint,
  type DayCell,
  type PageData,
  type PublicWindow,
} from './data.js';

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text made safe for HTML and XML text and quoted attributes. */
export function esc(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** Where the page's own files are: `/status/{slug}`, or `` on its custom domain. */
export interface PageLinks {
  base: string;
}

const STATUS_WORDS: Record<CheckStatusValue, string> = {
  passing: 'Operational',
  degraded: 'Degraded',
  failing: 'Down',
  unknown: 'No data',
};
// An icon beside each word and colour: the state is never told by colour alone.
const STATUS_ICONS: Record<CheckStatusValue, string> = {
  passing: '✓',
  degraded: '▲',
  failing: '✕',
  unknown: '?',
};

export type Overall = 'operational' | 'partial' | 'major';
export const OVERALL_WORDS: Record<Overall, string> = {
  operational: 'All systems operational',
  partial: 'Partial outage',
  major: 'Major outage',
};

/** Major when at least half the checks are down; partial when any is down or degraded. */
export function overallOf(checks: readonly PublicCheckStatus[]): Overall {
  const failing = checks.filter((c) => c.status === 'failing').length;
  if (failing > 0 && failing * 2 >= checks.length) return 'major';
  if (failing > 0 || checks.some((c) => c.status === 'degraded')) return 'partial';
  return 'operational';
}

const iso = (ms: number) => new Date(ms).toISOString();
const shortTime = (ms: number) => `${iso(ms).slice(0, 16).replace('T', ' ')} UTC`;

function time(ms: number): string {
  return `<time datetime="${esc(iso(ms))}">${esc(shortTime(ms))}</time>`;
}

function duration(ms: number): string {
  const minutes = Math.max(1, Math.round(ms / 60_000));
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ${minutes % 60} min`;
  return `${Math.floor(hours / 24)} d ${hours % 24} h`;
}

function statusMark(status: CheckStatusValue): string {
  return `<span class="sp-status sp-status--${status}"><span class="sp-status-icon" aria-hidden="true">${STATUS_ICONS[status]}</span> ${STATUS_WORDS[status]}</span>`;
}

const themeOf = (theme: string) => (theme === 'light' || theme === 'dark' ? theme : null);

/** A logo is shown only from an http(s) address. */
function logoOf(dashboard: Dashboard): string {
  const logo = dashboard.configuration.logo;
  if (!logo || !/^https?:\/\//i.test(logo)) return '';
  try {
    new URL(logo);
  } catch {
    return '';
  }
  return `<img class="sp-logo" src="${esc(logo)}" alt="${esc(`${dashboard.name} logo`)}">`;
}

/** The newest run of any check on the page: when its data last changed. */
function lastUpdate(checks: readonly PublicCheckStatus[]): number | null {
  const times = checks.flatMap((c) => (c.lastExecution ? [Date.parse(c.lastExecution.timestamp)] : []));
  return times.length === 0 ? null : Math.max(...times);
}

export function renderPage(data: PageData, links: PageLinks): string {
  const { dashboard } = data;
  const theme = themeOf(dashboard.configuration.theme);
  const overall = overallOf(data.checks);
  const updated = lastUpdate(data.checks);
  const customCss = dashboard.configuration.customCSS
    ? `\n<link rel="stylesheet" href="${esc(`${links.base}/custom.css`)}">`
    : '';
  const widgets = [...dashboard.widgets]
    .map((w, index) => ({ w, index }))
    .sort((a, b) => a.w.position - b.w.position)
    .map(({ w, index }) => widget(w, index, data))
    .join('\n');
  const description = dashboard.description
    ? `<p class="sp-description">${esc(dashboard.description)}</p>`
    : '';
  return `<!doctype html>
<html lang="en"${theme ? ` data-theme="${theme}"` : ''}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(dashboard.name)}: status</title>
<link rel="stylesheet" href="${esc(`${links.base}/status.css`)}">${customCss}
<link rel="alternate" type="application/atom+xml" title="Incidents" href="${esc(`${links.base}/feed.atom`)}">
<script src="${esc(`${links.base}/status.js`)}" defer></script>
</head>
<body class="sp-body" data-refresh="${esc(dashboard.configuration.refreshInterval)}">
<div class="sp-page">
<header class="sp-header">
${logoOf(dashboard)}
<div class="sp-heading">
<h1 class="sp-name">${esc(dashboard.name)}</h1>
${description}
</div>
</header>
<main class="sp-main">
<p class="sp-overall sp-overall--${overall}" role="status"><span class="sp-status-icon" aria-hidden="true">${overall === 'operational' ? '✓' : overall === 'partial' ? '▲' : '✕'}</span> ${OVERALL_WORDS[overall]}</p>
<p class="sp-updated">Last updated: ${updated === null ? 'no runs yet' : time(updated)}</p>
${dashboard.configuration.showIncidents ? currentIncidents(data) : ''}
${maintenance(data)}
${widgets}
${dashboard.configuration.showIncidents ? pastIncidents(data) : ''}
</main>
<footer class="sp-footer"><p>Times in UTC. <a href="${esc(`${links.base}/feed.atom`)}">Incident feed</a></p></footer>
</div>
</body>
</html>
`;
}

function currentIncidents(data: PageData): string {
  const open = data.checks.flatMap((c) => (c.currentIncident ? [c.currentIncident] : []));
  if (open.length === 0) return '';
  const items = open.map((i) => `<li>${esc(i.title)}, since ${time(Date.parse(i.startedAt))}</li>`).join('');
  return `<section class="sp-banner" aria-labelledby="sp-banner-title"><h2 id="sp-banner-title">Current incidents</h2><ul>${items}</ul></section>`;
}

/**
 * Windows over the page's checks, active or starting within 7 days: name, times,
 * the checks (by their names on the page) and whether it is in progress. The
 * reason is internal and never drawn.
 */
function maintenance(data: PageData): string {
  if (data.maintenance.length === 0) return '';
  const names = new Map(data.checks.map((c) => [c.checkId, c.checkName]));
  const items = data.maintenance
    .map((w) => {
      const checks = w.checkIds.map((id) => names.get(id) ?? id).join(', ');
      return `<li class="sp-window sp-window--${w.state}"><span class="sp-window-name">${esc(w.name)}</span> <span class="sp-window-state">${w.state === 'active' ? 'In progress' : 'Scheduled'}</span> <span class="sp-window-times">${time(w.startsAt)} to ${time(w.endsAt)}</span> <span class="sp-window-checks">Affects: ${esc(checks)}</span></li>`;
    })
    .join('');
  return `<section class="sp-maintenance" aria-labelledby="sp-maintenance-title"><h2 id="sp-maintenance-title">Scheduled maintenance</h2><ul class="sp-windows">${items}</ul></section>`;
}

/** Whether a window in progress covers the check. */
const underMaintenance = (windows: readonly PublicWindow[], checkId: string) =>
  windows.some((w) => w.state === 'active' && w.checkIds.includes(checkId));

function pastIncidents(data: PageData): string {
  const rows = data.incidents
    .map((i) => {
      const end = i.endedAt === null ? 'ongoing' : time(i.endedAt);
      const lasted = duration((i.endedAt ?? data.now) - i.startedAt);
      return `<li class="sp-incident"><span class="sp-incident-title">${esc(i.title)}</span> <span class="sp-incident-times">${time(i.startedAt)} to ${end} (${esc(lasted)})</span></li>`;
    })
    .join('');
  const body = rows ? `<ul class="sp-incidents">${rows}</ul>` : '<p>No incidents in the last 14 days.</p>';
  return `<section class="sp-widget sp-history" aria-labelledby="sp-history-title"><h2 id="sp-history-title">Incidents, last 14 days</h2>${body}</section>`;
}

function widget(w: Dashboard['widgets'][number], index: number, data: PageData): string {
  const id = `sp-w${index}`;
  const open = (kind: string) =>
    `<section class="sp-widget sp-${kind}" aria-labelledby="${id}"><h2 id="${id}">${esc(w.title)}</h2>`;
  switch (w.type) {
    case 'status_overview':
      return `${open('overview')}${overview(w, data.checks)}</section>`;
    case 'check_list':
      return `${open('checks')}${checkList(w, data)}</section>`;
    case 'metrics_chart':
      return `${open('chart')}${chart(w, data.charts.get(index), id)}</section>`;
    default:
      // A comment can hold no `--`: the type is reduced to plain characters.
      return `<!-- widget of unknown type "${String(w.type).replace(/[^a-zA-Z0-9_.]/g, '_')}" left out -->`;
  }
}

function overview(w: Dashboard['widgets'][number], checks: readonly PublicCheckStatus[]): string {
  const percent = w.settings['showPercentage'] === true;
  const items = (['passing', 'degraded', 'failing', 'unknown'] as const)
    .map((s) => {
      const n = checks.filter((c) => c.status === s).length;
      const share = checks.length === 0 ? 0 : Math.round((n / checks.length) * 1000) / 10;
      return `<div class="sp-count sp-count--${s}"><dt>${statusMark(s)}</dt><dd><span class="sp-count-value">${n}</span>${percent ? ` <span class="sp-count-share">(${share}%)</span>` : ''}</dd></div>`;
    })
    .join('');
  return `<dl class="sp-counts">${items}</dl>`;
}

const TYPE_WORDS: Record<string, string> = {
  api: 'API checks',
  url: 'URL checks',
  browser: 'Browser checks',
  tcp: 'TCP checks',
  heartbeat: 'Heartbeats',
};

function checkList(w: Dashboard['widgets'][number], data: PageData): string {
  const showLast = w.settings['showLastResult'] === true;
  const rows = (list: readonly PublicCheckStatus[]) =>
    `<ul class="sp-check-list">${list.map((c) => checkRow(c, data, showLast)).join('')}</ul>`;
  if (w.settings['groupByType'] !== true) return rows(data.checks);
  const types = [...new Set(data.checks.map((c) => c.checkType))].sort();
  return types
    .map(
      (t) =>
        `<h3 class="sp-group">${esc(TYPE_WORDS[t] ?? t)}</h3>${rows(data.checks.filter((c) => c.checkType === t))}`,
    )
    .join('');
}

function checkRow(c: PublicCheckStatus, data: PageData, showLast: boolean): string {
  const last =
    showLast && c.lastExecution
      ? `<p class="sp-last">Last run ${c.lastExecution.status === 'success' ? 'succeeded' : 'failed'} at ${time(Date.parse(c.lastExecution.timestamp))} in ${esc(Math.round(c.lastExecution.responseTime))} ms</p>`
      : '';
  const availability =
    c.availability.percentage === null
      ? ''
      : `<span class="sp-availability">${esc(c.availability.percentage)}% over ${esc(c.availability.period)}</span>`;
  return `<li class="sp-check" data-check-id="${esc(c.checkId)}">
<div class="sp-check-head"><span class="sp-check-name">${esc(c.checkName)}</span> ${statusMark(c.status)}${underMaintenance(data.maintenance, c.checkId) ? ' <span class="sp-under-maintenance">Under maintenance</span>' : ''} ${availability}</div>
${last}${dayBar(data.days.get(c.checkId) ?? [])}${runs(c)}
</li>`;
}

function dayClass(d: DayCell): string {
  if (d.availability === null) return 'none';
  if (d.availability >= 99.5) return 'ok';
  if (d.availability >= 95) return 'warn';
  return 'bad';
}

/** The UTC date of a day's start: every check's bar names the same 90 days, each written once. */
const dayNames = new Map<number, string>();
function dayName(start: number): string {
  let name = dayNames.get(start);
  if (name === undefined) {
    if (dayNames.size >= 1_000) dayNames.clear();
    name = iso(start).slice(0, 10);
    dayNames.set(start, name);
  }
  return name;
}

function dayBar(days: readonly DayCell[]): string {
  if (days.length === 0) return '';
  const cells = days
    .map((d) => {
      const day = dayName(d.start);
      const words =
        d.availability === null
          ? `${day}: no runs`
          : `${day}: ${Math.round(d.availability * 100) / 100}% available, ${d.failures} of ${d.runs} runs failed`;
      return `<li class="sp-day sp-day--${dayClass(d)}" title="${esc(words)}"><span class="sp-sr">${esc(words)}</span></li>`;
    })
    .join('');
  return `<ol class="sp-days" aria-label="Availability for each of the last ${days.length} days, oldest first">${cells}</ol>`;
}

function runs(c: PublicCheckStatus): string {
  if (!c.recentResults || c.recentResults.length === 0) return '';
  const marks = [...c.recentResults]
    .reverse()
    .map((r) => {
      const words = `${r.status === 'success' ? 'Succeeded' : 'Failed'} at ${shortTime(Date.parse(r.startedAt))}`;
      return `<li class="sp-run sp-run--${r.status}" title="${esc(words)}"><span aria-hidden="true">${r.status === 'success' ? '✓' : '✕'}</span><span class="sp-sr">${esc(words)}</span></li>`;
    })
    .join('');
  return `<ol class="sp-runs" aria-label="Latest runs, oldest first">${marks}</ol>`;
}

const CHART_W = 600;
const CHART_H = 160;
const PAD = 8;

function chart(
  w: Dashboard['widgets'][number],
  points: readonly ChartPoint[] | undefined,
  id: string,
): string {
  const metric = String(w.settings['metric'] ?? '');
  const about = CHART_METRICS[metric];
  if (!about || !points) return '<p class="sp-unavailable">Not available on the public page.</p>';
  const range = chartRange(w);
  const values = points.flatMap((p) => (p.value === null ? [] : [p.value]));
  const unit = about.unit ? ` ${about.unit}` : '';
  const fmt = (v: number) => `${Math.round(v * 10) / 10}${unit}`;
  if (values.length === 0)
    return `<p class="sp-chart-empty">${esc(about.label)}, last ${esc(range.key)}: no runs yet.</p>`;
  const max = Math.max(...values, about.unit === '%' ? 100 : 0) || 1;
  const min = about.unit === '%' ? 0 : 0;
  const step = points.length > 1 ? (CHART_W - 2 * PAD) / (points.length - 1) : 0;
  const y = (v: number) => CHART_H - PAD - ((v - min) / (max - min || 1)) * (CHART_H - 2 * PAD);
  // Gaps (buckets with no runs) break the line rather than drawing it through zero.
  const segments: string[][] = [[]];
  points.forEach((p, i) => {
    if (p.value === null) segments.push([]);
    else segments[segments.length - 1]!.push(`${(PAD + i * step).toFixed(1)},${y(p.value).toFixed(1)}`);
  });
  const lines = segments
    .filter((s) => s.length > 0)
    .map((s) =>
      s.length === 1
        ? `<circle class="sp-chart-dot" cx="${s[0]!.split(',')[0]}" cy="${s[0]!.split(',')[1]}" r="3"/>`
        : `<polyline class="sp-chart-line" points="${s.join(' ')}"/>`,
    )
    .join('');
  const latest = values[values.length - 1]!;
  const summary = `${about.label}, last ${range.key}: latest ${fmt(latest)}, lowest ${fmt(Math.min(...values))}, highest ${fmt(Math.max(...values))}.`;
  return `<figure class="sp-chart-figure"><svg class="sp-chart-svg" viewBox="0 0 ${CHART_W} ${CHART_H}" role="img" aria-labelledby="${id}-desc" preserveAspectRatio="none"><line class="sp-chart-axis" x1="${PAD}" y1="${CHART_H - PAD}" x2="${CHART_W - PAD}" y2="${CHART_H - PAD}"/>${lines}</svg><figcaption id="${id}-desc" class="sp-chart-caption">${esc(summary)}</figcaption></figure>`;
}

/** The one page every unknown, private or refused request gets: the same bytes whatever the reason. */
export const NOT_FOUND_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Not found</title>
</head>
<body>
<main>
<h1>Not found</h1>
<p>There is no public status page here.</p>
</main>
</body>
</html>
`;
