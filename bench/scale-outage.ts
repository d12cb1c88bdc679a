// bench:scale --failing-location (issue 45, docs/alerts.md "A broken location"): one check in
// five runs from loc1 and another location (outageLocations), every check is in one group a
// WEBHOOK channel is subscribed to, and once the window starts the target answers 503 to every
// run from loc1. The pages the channel receives are counted by kind: one `location` page, and no
// page per check from loc1, is the aim; the schedule must keep its lag all the same.
import { appendFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import pg from 'pg';
import type { AddressInfo } from 'node:net';

export const FAILING = 'loc1';

/**
 * Where each check runs in this mode: one in 5 from loc1 and one other location (what tells a
 * broken location from broken targets), one in 100 from loc1 alone (held with it), the rest from
 * one location as in the plain bench. At 10,000 checks: 12,000 runs a minute.
 */
export function outageLocations(i: number, locations: number): string[] {
  if (i % 100 === 0) return [FAILING];
  if (i % 5 === 0) return [FAILING, `loc${(Math.floor(i / 5) % (locations - 1)) + 2}`];
  return [`loc${(i % locations) + 1}`];
}

/** The config's additions: the group, the channel (to `receiver`), delivery to loopback. */
export function outageConfig(receiver: string) {
  return {
    groups: [{ id: 'all', name: 'All' }],
    alertChannels: [
      {
        type: 'WEBHOOK',
        name: 'pager',
        config: { url: `${receiver}/hook`, method: 'POST' },
        subscriptions: { groups: ['all'], locations: [FAILING] },
      },
    ],
  };
}

/** A loopback receiver counting what it is sent, by event kind. */
export async function startPageCounter(): Promise<{
  url: string;
  counts: Map<string, number>;
  close(): void;
}> {
  const counts = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      const logs = process.env.CHECKWALL_BENCH_LOGS;
      if (logs)
        appendFileSync(
          join(logs, 'pages.log'),
          `${new Date().toISOString()} ${JSON.stringify(req.headers)} ${body.slice(0, 2000)}\n`,
        );
      try {
        const event = (JSON.parse(body) as { event?: string }).event ?? '(none)';
        counts.set(event, (counts.get(event) ?? 0) + 1);
      } catch {
        counts.set('(unreadable)', (counts.get('(unreadable)') ?? 0) + 1);
      }
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, counts, close: () => void server.close() };
}

/** "location 1, failure 0": the kinds received, the expected ones always named. */
export function pagesLine(counts: ReadonlyMap<string, number>): string {
  const kinds = new Set(['location', 'failure', 'degraded', ...counts.keys()]);
  return [...kinds].map((k) => `${k} ${counts.get(k) ?? 0}`).join(', ');
}

/**
 * What the database says after the window: each outage (when declared and ended, relative to the
 * break) and the notifications by event and status ("failure held 2100"), the evidence behind
 * the pages line.
 */
export async function outageLedger(db: string, brokeAt: number): Promise<string> {
  const client = new pg.Client({ connectionString: db });
  await client.connect();
  try {
    const outages = await client.query<{ location_id: string; since: string; ended_at: string | null }>(
      'SELECT location_id, since, ended_at FROM location_outages ORDER BY since',
    );
    const notes = await client.query<{ event: string; status: string; n: string }>(
      `SELECT event, status, count(*) AS n FROM alert_notifications GROUP BY event, status ORDER BY event, status`,
    );
    const at = (ms: string | null) =>
      ms === null ? 'open' : `${((Number(ms) - brokeAt) / 1000).toFixed(0)} s`;
    const o = outages.rows.map((r) => `${r.location_id} since ${at(r.since)}, ended ${at(r.ended_at)}`);
    const n = notes.rows.map((r) => `${r.event} ${r.status} ${r.n}`);
    return `outages: ${o.join('; ') || 'none'} (after the break); notifications: ${n.join(', ') || 'none'}`;
  } finally {
    await client.end();
  }
}
