// bench:kill-soak (issue 43, docs/alerts.md "A kill at any moment"): `checkwall serve` (the built
// program, on one SQLite file) watches a check whose target fails and recovers every few seconds,
// pages a loopback receiver, and is SIGKILLed at 100 random moments (0.3-3 s after it listens),
// started again on the same file each time. Then it runs unkilled until every page is delivered,
// and the file and the receiver are held to the promise:
// - lost: an alert opened with no failure notification written, or a notification sent that the
//   receiver never saw, or one still undelivered at the end: must be 0;
// - false: a delivery the receiver saw that the database never wrote: must be 0;
// - a recovery the receiver saw before its alert's failure: must be 0;
// - duplicates: deliveries seen more than once, same delivery id (at-least-once, documented).
// `--kills N` (default 100). Writes its section into BENCHMARKS.md.
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { json, startFixture } from '../test/helpers/fixture.js';
import { killStrays, startServe, tempDir } from '../test/helpers/serve.js';
import { progress, writeSection } from './report.js';

const ACCOUNT = '0b6f3c52-7c1e-4d8a-9f2b-3c4d5e6f7a8b';
const KEY = 'cw_kill_soak_0123456789abcdef';
/**
 * Each check's target fails for FAIL_MS of every CYCLE_MS, the checks a CYCLE_MS / CHECKS apart:
 * availability stays above 85 %, so each alert can recover, and some check is failing most of the time.
 */
const CYCLE_MS = 20_000;
const FAIL_MS = 2_500;
const CHECKS = 8;
const SETTLE_MS = 20_000;

function configFile(target: string, receiver: string): string {
  const path = join(tempDir(), 'checkwall.json');
  const checks = Array.from({ length: CHECKS }, (_, i) => ({
    ...{ id: `api${i}`, name: `API ${i}`, type: 'api', target: `${target}/h${i}`, frequency: '1s' },
    ...{ locations: ['here'], alerts: { afterFailures: 1, minIntervalSeconds: 0 } },
  }));
  const channel = {
    ...{ type: 'WEBHOOK', name: 'hook', subscriptions: { checks: checks.map((c) => c.id) } },
    config: { url: `${receiver}/hook`, method: 'POST' },
  };
  const account = {
    ...{ id: ACCOUNT, apiKeys: [KEY], checks, alertChannels: [channel] },
    locations: [{ id: 'here', name: 'Here', region: 'local' }],
  };
  const delivery = {
    retryBaseSeconds: 0.2,
    retryMaxSeconds: 0.5,
    maxAttempts: 20,
    allowPrivateNetworks: true,
  };
  writeFileSync(path, JSON.stringify({ alertDelivery: delivery, accounts: [account] }), { mode: 0o600 });
  return path;
}

interface Seen {
  event: string;
  alertId: string | null;
  order: number;
  times: number;
}

async function main() {
  const { values } = parseArgs({ options: { kills: { type: 'string', default: '100' } } });
  const kills = Number(values.kills);
  if (!Number.isInteger(kills) || kills < 1 || kills > 10_000) throw new Error('--kills must be 1-10000');
  let soaking = false;
  const t0 = Date.now();
  /** Whether check i's target fails now: its own FAIL_MS of every CYCLE_MS, while the soak lasts. */
  const failing = (i: number) =>
    soaking && (Date.now() - t0 + (i * CYCLE_MS) / CHECKS) % CYCLE_MS >= CYCLE_MS - FAIL_MS;
  const seen = new Map<string, Seen>();
  const target = await startFixture((req, res) =>
    json(res, failing(Number(/\/h(\d+)/.exec(req.url)?.[1])) ? 500 : 200, {}),
  );
  const receiver = await startFixture((req, res) => {
    const page = JSON.parse(req.body) as { deliveryId: string; event: string; alertId: string | null };
    const was = seen.get(page.deliveryId);
    if (was) was.times++;
    else seen.set(page.deliveryId, { event: page.event, alertId: page.alertId, order: seen.size, times: 1 });
    json(res, 200, {});
  });
  soaking = true;
  const db = join(tempDir(), 'soak.db');
  const args = ['--config', configFile(target.url, receiver.url), '--db', db, '--port', '0'];
  const loadBefore = loadavg()[0]!;
  const started = Date.now();
  try {
    for (let i = 1; i <= kills; i++) {
      const svc = await startServe(args, {}, 60_000);
      await new Promise((r) => setTimeout(r, 300 + Math.random() * 2_700));
      await svc.stop('SIGKILL');
      if (i % 10 === 0) progress(`${i} kills, ${seen.size} deliveries seen`);
    }
    soaking = false;
    progress('unkilled until every page is delivered');
    const last = await startServe(args, {}, 60_000);
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    await last.stop();
  } finally {
    killStrays();
    await Promise.all([target.close(), receiver.close()]);
  }
  const outcome = judge(db, seen);
  const minutes = (Date.now() - started) / 60_000;
  writeSection(`bench:kill-soak, ${kills} kills`, report(kills, minutes, loadBefore, loadavg()[0]!, outcome));
  progress(JSON.stringify(outcome));
  if (outcome.lost + outcome.falsePages + outcome.recoveryFirst + outcome.undelivered > 0)
    process.exitCode = 1;
}

function judge(path: string, seen: ReadonlyMap<string, Seen>) {
  const db = new Database(path, { readonly: true });
  const alerts = db.prepare('SELECT id FROM check_alerts').all() as Array<{ id: string }>;
  const rows = db
    .prepare('SELECT id, alert_id AS alertId, event, status FROM alert_notifications')
    .all() as Array<{
    id: string;
    alertId: string | null;
    event: string;
    status: string;
  }>;
  db.close();
  const written = new Map(rows.map((r) => [r.id, r]));
  const failureWritten = new Set(rows.filter((r) => r.event === 'failure').map((r) => r.alertId));
  const unpaged = alerts.filter((a) => !failureWritten.has(a.id)).length;
  const sentUnseen = rows.filter((r) => r.status === 'sent' && !seen.has(r.id)).length;
  const undelivered = rows.filter((r) => r.status === 'pending' || r.status === 'failed').length;
  const falsePages = [...seen.keys()].filter((id) => !written.has(id)).length;
  const firstFailure = new Map<string, number>();
  for (const s of seen.values())
    if (s.event === 'failure' && s.alertId)
      firstFailure.set(s.alertId, Math.min(firstFailure.get(s.alertId) ?? Infinity, s.order));
  const recoveryFirst = [...seen.values()].filter(
    (s) =>
      s.event === 'recovery' &&
      (s.alertId === null || !(s.order > (firstFailure.get(s.alertId) ?? Infinity))),
  ).length;
  const duplicates = [...seen.values()].reduce((n, s) => n + s.times - 1, 0);
  return {
    alerts: alerts.length,
    notifications: rows.length,
    seen: seen.size,
    failures: [...seen.values()].filter((s) => s.event === 'failure').length,
    recoveries: [...seen.values()].filter((s) => s.event === 'recovery').length,
    lost: unpaged + sentUnseen,
    undelivered,
    falsePages,
    recoveryFirst,
    duplicates,
  };
}

function report(
  kills: number,
  minutes: number,
  loadBefore: number,
  loadAfter: number,
  o: ReturnType<typeof judge>,
): string {
  return `\`checkwall serve\` (the built program, one SQLite file) watches ${CHECKS} api checks run every second, each
of whose loopback targets fails for ${FAIL_MS / 1000} s of every ${CYCLE_MS / 1000} s, the checks spread over the
cycle (afterFailures 1, minIntervalSeconds 0), paging a
loopback WEBHOOK receiver that keeps each delivery id. It was SIGKILLed ${kills} times, each 0.3-3 s (at random)
after it listened, and started again on the same file; then it ran ${SETTLE_MS / 1000} s unkilled with the target
healthy. ${minutes.toFixed(1)} minutes in all, load average ${loadBefore.toFixed(1)} at the start and ${loadAfter.toFixed(1)} at the end.

| figure | measured | aim |
|---|---|---|
| alerts opened / notifications written / delivery ids the receiver saw | ${o.alerts} / ${o.notifications} / ${o.seen} | |
| failure pages / recovery pages seen | ${o.failures} / ${o.recoveries} | |
| lost: an alert with no failure notification, or a sent one the receiver never saw | ${o.lost} | 0 |
| still undelivered at the end (pending or failed) | ${o.undelivered} | 0 |
| false: a delivery the receiver saw that the database never wrote | ${o.falsePages} | 0 |
| a recovery seen before its alert's failure | ${o.recoveryFirst} | 0 |
| deliveries seen more than once (same delivery id: at-least-once) | ${o.duplicates} | |
`;
}

main().catch((error: unknown) => {
  killStrays();
  process.stderr.write(`bench:kill-soak: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
