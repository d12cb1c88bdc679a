// Debian's prometheus and promtool (installed by .ci/run): promtool run on a text,
// and a throw-away Prometheus server scraping the service on a loopback port.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const PROMTOOL = '/usr/bin/promtool';
export const PROMETHEUS = '/usr/bin/prometheus';
export const hasPromtool = existsSync(PROMTOOL);
export const hasPrometheus = existsSync(PROMETHEUS);

/** promtool's exit code and everything it printed (stdout then stderr). */
export function promtool(args: string[], input?: string): { code: number | null; output: string } {
  const run = spawnSync(PROMTOOL, args, { input, encoding: 'utf8', timeout: 15_000 });
  if (run.error) throw run.error;
  return { code: run.status, output: `${run.stdout}${run.stderr}` };
}

/** Only the families whose name starts with `prefix` (prom-client's nodejs_* defaults trip promtool's suffix lint). */
export function familiesOf(text: string, prefix: string): string {
  const lines = text.split('\n').filter((line) => {
    const name = line.startsWith('# ') ? (line.split(' ')[2] ?? '') : line;
    return name.startsWith(prefix);
  });
  return `${lines.join('\n')}\n`;
}

/** The value of the one sample of `name` with these labels, or undefined. */
export function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) && wanted.every((w) => l.includes(w)));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

/** A port free on 127.0.0.1 now (Prometheus takes its listen address as a flag). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface PrometheusServer {
  url: string;
  /** Prometheus's own words, for a failure's message. */
  log(): string;
  stop(): Promise<void>;
}

/** Starts Prometheus scraping `target` (host:port) every second with `bearer` as its token. */
export async function startPrometheus(target: string, bearer: string): Promise<PrometheusServer> {
  const dir = mkdtempSync(join(tmpdir(), 'checkwall-prometheus-'));
  const config = join(dir, 'prometheus.yml');
  writeFileSync(
    config,
    [
      'global:',
      '  scrape_interval: 1s',
      '  scrape_timeout: 1s',
      'scrape_configs:',
      '  - job_name: checkwall',
      '    authorization:',
      '      type: Bearer',
      `      credentials: ${bearer}`,
      '    static_configs:',
      `      - targets: ['${target}']`,
      '',
    ].join('\n'),
  );
  const port = await freePort();
  let log = '';
  const child: ChildProcess = spawn(
    PROMETHEUS,
    [
      `--config.file=${config}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    url: `http://127.0.0.1:${port}`,
    log: () => log,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
