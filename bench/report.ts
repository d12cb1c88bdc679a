// Writes one bench's section of BENCHMARKS.md (replacing its previous run),
// with the machine and the date, so numbers are never read without context.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';

export function machine(): string {
  const cpu = os.cpus()[0]?.model ?? 'unknown cpu';
  return `${cpu}, ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${os.platform()} ${os.release()}`;
}

export function writeSection(name: string, body: string): void {
  const file = 'BENCHMARKS.md';
  const header = '# Benchmarks\n\nFigures from `npm run bench:*`. Each section is rewritten by its bench.\n';
  const text = existsSync(file) ? readFileSync(file, 'utf8') : header;
  const section = `## ${name}\n\n${new Date().toISOString().slice(0, 10)} on ${machine()}\n\n${body.trim()}\n`;
  const pattern = new RegExp(`## ${name.replace(/[:]/g, '\\:')}\\n[\\s\\S]*?(?=\\n## |$)`);
  const next = pattern.test(text) ? text.replace(pattern, section) : `${text.trimEnd()}\n\n${section}`;
  writeFileSync(file, next.endsWith('\n') ? next : `${next}\n`);
  process.stdout.write(`${section}\n`);
}

export function quantiles(samples: number[]): { p50: number; p95: number; p99: number; max: number } {
  const s = [...samples].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)] ?? 0;
  return { p50: at(0.5), p95: at(0.95), p99: at(0.99), max: s.at(-1) ?? 0 };
}

export const fmt = (ms: number) => `${ms.toFixed(2)} ms`;

/** A bench's progress line on stderr, with the time of day: stdout is its report. */
export const progress = (line: string) =>
  process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`);
