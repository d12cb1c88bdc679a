// Debian's prometheus-alertmanager (installed by .ci/run): a throw-away Alertmanager on a
// loopback port, without a cluster port, its data in a temp directory, asked as a person
// or a script would (`/api/v2/alerts`, `/api/v2/silences`).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './prometheus.js';
import { untilReady } from './ready.js';

export const ALERTMANAGER = '/usr/bin/prometheus-alertmanager';

export interface AmAlert {
  labels: Record<string, string>;
  annotations: Record<string, string>;
  startsAt: string;
  endsAt: string;
  status: { state: string; silencedBy: string[] };
}

export interface Alertmanager {
  url: string;
  /** The alerts it holds now that are not resolved (active or silenced). */
  alerts(): Promise<AmAlert[]>;
  /** A silence over these labels for an hour; its id. */
  silence(labels: Record<string, string>): Promise<string>;
  stop(): Promise<void>;
}

// One receiver that sends nowhere: the test reads Alertmanager's own view of its alerts.
const CONFIG = `route:
  receiver: nobody
  group_wait: 1h
receivers:
  - name: nobody
`;

/** Starts Alertmanager; fails, naming the package, when it is not installed. */
export async function startAlertmanager(): Promise<Alertmanager> {
  if (!existsSync(ALERTMANAGER))
    throw new Error(`${ALERTMANAGER} is missing: install the Debian package prometheus-alertmanager`);
  const dir = mkdtempSync(join(tmpdir(), 'checkwall-alertmanager-'));
  writeFileSync(join(dir, 'alertmanager.yml'), CONFIG);
  const port = await freePort();
  let log = '';
  const child: ChildProcess = spawn(
    ALERTMANAGER,
    [
      `--config.file=${join(dir, 'alertmanager.yml')}`,
      `--storage.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--cluster.listen-address=',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  await untilReady(`${url}/-/ready`, 'Alertmanager', () => log, 15_000);
  return {
    url,
    async alerts() {
      const res = await fetch(`${url}/api/v2/alerts`);
      if (!res.ok) throw new Error(`Alertmanager answered ${res.status}: ${await res.text()}`);
      return (await res.json()) as AmAlert[];
    },
    async silence(labels) {
      const now = Date.now();
      const res = await fetch(`${url}/api/v2/silences`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          matchers: Object.entries(labels).map(([name, value]) => ({
            name,
            value,
            isRegex: false,
            isEqual: true,
          })),
          startsAt: new Date(now).toISOString(),
          endsAt: new Date(now + 3_600_000).toISOString(),
          createdBy: 'checkwall tests',
          comment: 'a silence made in Alertmanager',
        }),
      });
      if (!res.ok) throw new Error(`Alertmanager refused the silence: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { silenceID: string }).silenceID;
    },
    async stop() {
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
