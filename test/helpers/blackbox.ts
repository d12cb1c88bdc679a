// Debian's prometheus-blackbox-exporter (installed by .ci/run): a throw-away
// exporter on a loopback port with the modules a test gives it, asked to probe a
// target as Prometheus would (`/probe?target=…&module=…`).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './prometheus.js';
import { untilReady } from './ready.js';

export const BLACKBOX = '/usr/bin/prometheus-blackbox-exporter';

/** What one probe said, from the exporter's metrics. */
export interface BlackboxProbe {
  success: boolean;
  statusCode: number;
  redirects: number;
  /** Epoch seconds of the earliest expiry in the presented chain; undefined without TLS. */
  earliestCertExpiry: number | undefined;
  /** Seconds per phase (resolve, connect, tls, processing, transfer), summed over the hops. */
  phases: Record<string, number>;
  /** The exporter's debug log of the probe, for a failure's message. */
  log: string;
}

export interface Blackbox {
  /** Its base address, for asking it directly (a bench drives it at a rate). */
  url: string;
  /** Its process id, for its CPU time. */
  pid: number | undefined;
  probe(target: string, module: string): Promise<BlackboxProbe>;
  stop(): Promise<void>;
}

/** A module of the exporter's config, as YAML lines under `modules:` (indented by 2). */
export type ModuleYaml = string;

/** Starts the exporter with these modules; fails, naming the package, when it is not installed. */
export async function startBlackbox(modules: Record<string, ModuleYaml>): Promise<Blackbox> {
  if (!existsSync(BLACKBOX))
    throw new Error(`${BLACKBOX} is missing: install the Debian package prometheus-blackbox-exporter`);
  const dir = mkdtempSync(join(tmpdir(), 'checkwall-blackbox-'));
  const config = join(dir, 'blackbox.yml');
  const body = Object.entries(modules)
    .map(([name, yaml]) => `  ${name}:\n${yaml.replace(/^/gm, '    ')}`)
    .join('\n');
  writeFileSync(config, `modules:\n${body}\n`);
  const port = await freePort();
  let log = '';
  const child: ChildProcess = spawn(
    BLACKBOX,
    [`--config.file=${config}`, `--web.listen-address=127.0.0.1:${port}`],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  await untilReady(`${url}/-/healthy`, 'blackbox_exporter', () => log, 10_000);
  return {
    url,
    pid: child.pid,
    async probe(target, module) {
      const query = new URLSearchParams({ target, module, debug: 'true' });
      const text = await (await fetch(`${url}/probe?${query}`)).text();
      return parseProbe(text);
    },
    async stop() {
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The debug page of one probe: its log, then its metrics in the text format. */
export function parseProbe(text: string): BlackboxProbe {
  const value = (line: string) => Number(line.slice(line.lastIndexOf(' ') + 1));
  const metric = (name: string) => {
    const line = text.split('\n').find((l) => l.startsWith(`${name} `));
    return line === undefined ? undefined : value(line);
  };
  const phases: Record<string, number> = {};
  for (const line of text.split('\n')) {
    const m = /^probe_http_duration_seconds\{phase="(\w+)"\} /.exec(line);
    if (m) phases[m[1]!] = value(line);
  }
  return {
    success: metric('probe_success') === 1,
    statusCode: metric('probe_http_status_code') ?? 0,
    redirects: metric('probe_http_redirects') ?? 0,
    earliestCertExpiry: metric('probe_ssl_earliest_cert_expiry'),
    phases,
    log: text.split('Metrics that would have been returned:')[0] ?? text,
  };
}
