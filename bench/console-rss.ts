// A quick reading of the console's resident set at 10,000 checks, for trying a
// memory change without the whole bench:console: `fleet` starts the bench's
// fleet and keeps it up (its address in a file), `measure` runs a
// bin/checkwall.js console (of this tree, or of another given its path) against
// it in a pty, refreshing every 5 s, and samples VmRSS every second.
import { readFileSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { startFleet } from './fleet.js';
import { startInPty } from './pty.js';

const FLEET_FILE = '/tmp/checkwall-rss-fleet.json';

async function serveFleet(): Promise<void> {
  const fleet = await startFleet(10_000);
  writeFileSync(FLEET_FILE, JSON.stringify(fleet.env));
  process.stdout.write(`fleet at ${fleet.url} (${FLEET_FILE})\n`);
  await new Promise(() => undefined);
}

const rssMb = (pid: number) => {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
};

async function measure(bin: string, seconds: number): Promise<void> {
  const env = JSON.parse(readFileSync(FLEET_FILE, 'utf8')) as Record<string, string>;
  const program = startInPty([bin, 'console', '--refresh', '5'], { cols: 120, rows: 40, env });
  await program.waitFor((t) => t.includes('Check 0'), 0, 60_000);
  const firstBoard = rssMb(program.pid());
  const samples: number[] = [];
  for (let s = 0; s < seconds; s++) {
    await sleep(1_000);
    samples.push(rssMb(program.pid()));
  }
  const status = readFileSync(`/proc/${program.pid()}/status`, 'utf8');
  const parts = ['RssAnon', 'RssFile', 'Threads'].map((k) => new RegExp(`${k}:\\s+(\\d+)`).exec(status)?.[1]);
  await program.stop();
  const max = Math.max(...samples);
  const out = {
    bin,
    anonFileThreads: parts,
    firstBoard,
    max,
    end: samples.at(-1),
    samples: samples.map((s) => Math.round(s)),
  };
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

const [mode, bin = 'bin/checkwall.js', seconds = '60'] = process.argv.slice(2);
if (mode === 'fleet') await serveFleet();
else await measure(bin, Number(seconds));
