// bench:scale's section of BENCHMARKS.md: what ran, then one table of figures.
import { cpus } from 'node:os';
import { fmt, quantiles } from './report.js';
import type { DbActivity, RunCount } from './scale-count.js';

export interface ScaleRow {
  checks: number;
  everyLocation: boolean;
  minutes: number;
  count: RunCount;
  /** After the window, how long until every run due in it was completed (capped). */
  drainedMs: number;
  /** Per instance: its first statuses page after it started (every status read from storage). */
  coldListMs: number[];
  /** PostgreSQL's counters over the window. */
  db: DbActivity;
  /** Statuses page latencies, one list per instance. */
  statuses: number[][];
  /** The statuses answers that were no 200, per instance. */
  statusErrors: string[][];
  /** CPU in % of one core over the window. */
  cpu: { serves: number[]; runners: number; target: number; pg: number; machine: number };
  /** 1-minute load average at the window's start and end. */
  load: [number, number];
  /** The nice value this bench's own process (the statuses requests) ran at; undefined: not raised. */
  clientNice: number | undefined;
  /** How late an idle bystander's 50 ms timer fired over the window (bystander.ts), ms. */
  idleLate: number[];
  processes: Array<{ name: string; stderrLines: number; exited: number | string | null }>;
  /** Check × location pairs: the runs due a minute (every check at 60 s). */
  slots: number;
  /** --failing-location: the pages the channel received, by kind. */
  pages?: string | undefined;
  /** --failing-location: the outages and notifications the database holds after the window. */
  ledger?: string | undefined;
}

const n = (x: number) => x.toLocaleString('en');
const pct = (x: number) => `${x.toFixed(0)} %`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

export function scaleReport(r: ScaleRow): string {
  const c = r.count;
  const lag = quantiles(c.lagsMs);
  const idle = quantiles(r.idleLate);
  const perMinute = r.slots; // every check at 60 s
  const statusRows = r.statuses.map((samples, i) => {
    const q = quantiles(samples);
    const errors = r.statusErrors[i]?.length ?? 0;
    return `| statuses page p50 / p99 / max, instance ${i + 1} (${n(samples.length)} requests${errors ? `, ${n(errors)} errors: ${r.statusErrors[i]![0]}` : ''}) | ${fmt(q.p50)} / ${fmt(q.p99)} / ${fmt(q.max)} | under 50 ms |`;
  });
  const ours = r.cpu.serves.reduce((a, b) => a + b, 0) + r.cpu.runners + r.cpu.target + r.cpu.pg;
  // Over the window's own completions: the runs stored in it, whatever their due time.
  const perRun = (x: number) => (c.stored > 0 ? (x / c.stored).toFixed(1) : '–');
  const troubled = r.processes.filter((p) => p.stderrLines > 0 || p.exited !== null);
  return `${n(r.checks)} api checks at 60 s, ${
    r.everyLocation
      ? 'each from all 5 remote locations'
      : r.pages !== undefined
        ? 'one in 5 from loc1 and another of the 5 remote locations, one in 100 from loc1 alone, the rest from one location, over ten loopback target hosts, all in one group a WEBHOOK channel pages for; loc1 broken (the target answers 503 to its runs) as the window starts'
        : 'spread over 5 remote locations (each check from one: 2 in 10 per location)'
  }: ${n(perMinute)} runs a minute, ${(perMinute / 60).toFixed(0)} a second. PostgreSQL (a throw-away
cluster, fsync off) with two \`checkwall serve\` instances, 15 \`checkwall runner\` processes (3 per location,
concurrency 8, alternately pointed at each instance), a loopback target answering at once: all on this
machine. One run per slot was seeded before the start (the schedule steady, not catching up); the window
of ${r.minutes} min starts after each instance answered its first statuses page (every status read from
storage: the cold start) and a 20 s warm-up.

Runs due come from the schedule (every check × location × grid instant in the window, schedule-plan.ts);
stored = a result in PostgreSQL whose id is its run's (runs.id = results.id) for that check × location ×
due time. Stored twice = a check × location × due time with more than one result; off the grid = a stored
run that is no due time of the schedule; orphans = results in the window that belong to no run. Schedule
lag = the result's startedAt minus its run's dueAt. The statuses page (\`GET /v1/check-statuses?limit=100\`,
pages in turn) is requested one at a time against each instance, 100 ms apart, all through the window,
by this bench's own process, ${
    r.clientNice === undefined
      ? 'at the priority of the processes it measures (raising it needs root): its own waits for a core count in the latency'
      : `raised to nice ${r.clientNice} once everything measured had started, as a console elsewhere would not wait for a core here`
  }.
The idle process (\`bench/bystander.ts\`, at the instances' priority) serves nothing and only sets a 50 ms
timer again and again: how late it fires is how long a thread woken on this machine waited for a core in
the window, a floor under each page's latency (an instance is woken for every request).
CPU is each process's own (all threads, /proc) as a share of one core; "machine" is every process on it,
other engineers' included.

| figure | measured | aim |
|---|---|---|
| runs due / stored | ${n(c.due)} / ${n(c.stored)} | equal |
| missed / stored twice / off the grid / orphans | ${n(c.missed)} / ${n(c.twice)} / ${n(c.offGrid)} / ${n(c.orphans)} | 0 |
| runs claimed more than once (a lease ran out) / still open at the count | ${n(c.reclaimed)} / ${n(c.open)} | 0 |
| first statuses page after the start (cold), instance 1 / 2 | ${r.coldListMs.map(seconds).join(' / ')} | |
| schedule lag p50 / p99 / max (${n(c.lagsMs.length)} runs) | ${seconds(lag.p50)} / ${seconds(lag.p99)} / ${seconds(lag.max)} | p99 under 2 s |
| schedule lag p99 in each minute of the window | ${Array.from(c.lagsByMinute, (lags) => seconds(quantiles(lags ?? []).p99)).join(' / ')} | |
${statusRows.length ? statusRows.join('\n') : '| statuses page | not requested (--skip-statuses) | |'}
| an idle process's 50 ms timer, how late it fired p50 / p99 / max (${n(r.idleLate.length)} timers) | ${fmt(idle.p50)} / ${fmt(idle.p99)} / ${fmt(idle.max)} | |
| after the window, until every run due in it was stored | ${seconds(r.drainedMs)} | |
| PostgreSQL over the window: transactions / rows read / rows written, per run stored | ${perRun(r.db.commits)} / ${perRun(r.db.rowsRead)} / ${perRun(r.db.rowsWritten)} | |
| PostgreSQL connections opened in the window | ${r.db.sessions} | |
| CPU: serve 1 / serve 2 | ${r.cpu.serves.map(pct).join(' / ')} | |
| CPU: 15 runners together / PostgreSQL (all its processes) / target | ${pct(r.cpu.runners)} / ${pct(r.cpu.pg)} / ${pct(r.cpu.target)} | |
| CPU: this bench's processes / the whole machine (of ${cpus().length * 100} % on ${cpus().length} cores) | ${pct(ours)} / ${pct(r.cpu.machine)} | |
| load average (1 min) at the window's start / end | ${r.load[0].toFixed(1)} / ${r.load[1].toFixed(1)} | |${r.pages === undefined ? '' : `\n| pages the channel received, by kind (loc1 broken as the window started) | ${r.pages} | location 1, failure 0, degraded 0 |\n| what the database holds after the window | ${r.ledger ?? ''} | one outage, open |`}

${
  troubled.length === 0
    ? 'No process wrote to stderr or exited during the run.'
    : `Processes that wrote to stderr or exited: ${troubled
        .map((p) => `${p.name} (${p.stderrLines} lines${p.exited !== null ? `, exited ${p.exited}` : ''})`)
        .join(', ')}.`
}`;
}
