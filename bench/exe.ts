// The single executable (npm run build:exe): how long it takes to build, how big
// it is (raw, .tar.gz, .tar.xz), and how fast `status` starts through it against
// `node bin/checkwall.js status`, with its cache of extracted files warm and empty.
// Runs alternate between the three so the machine's load falls on each alike.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { startFleet } from './fleet.js';
import { quantiles, writeSection } from './report.js';

const RUNS = 21;
const CHECKS = 100;
const EXE = join('dist/exe', `checkwall-${process.platform}-${process.arch}`);

const load = os.loadavg()[0]!.toFixed(1);
const work = mkdtempSync(join(tmpdir(), 'checkwall-bench-exe-'));
const buildStarted = performance.now();
execFileSync(process.execPath, ['scripts/build-exe.js'], { stdio: ['ignore', 'inherit', 'ignore'] });
const buildMs = performance.now() - buildStarted;
const sizes = { raw: statSync(EXE).size, gz: archive('z', 'tar.gz'), xz: archive('J', 'tar.xz') };

const fleet = await startFleet(CHECKS);
const env = (cache: string) => ({ ...fleet.env, XDG_CACHE_HOME: cache, XDG_CONFIG_HOME: '/nonexistent' });
const warmCache = join(work, 'warm');
await timed(EXE, ['--version'], env(warmCache));
const series: Record<string, number[]> = { node: [], warm: [], cold: [], nodeVersion: [], warmVersion: [] };
for (let i = 0; i < RUNS; i++) {
  series.node!.push(await timed(process.execPath, ['bin/checkwall.js', 'status'], env(warmCache)));
  series.warm!.push(await timed(EXE, ['status'], env(warmCache)));
  const cold = join(work, `cold-${i}`);
  series.cold!.push(await timed(EXE, ['status'], env(cold)));
  rmSync(cold, { recursive: true, force: true });
  series.nodeVersion!.push(await timed(process.execPath, ['bin/checkwall.js', '--version'], env(warmCache)));
  series.warmVersion!.push(await timed(EXE, ['--version'], env(warmCache)));
}
await fleet.close();
rmSync(work, { recursive: true, force: true });

const q = Object.fromEntries(Object.entries(series).map(([k, v]) => [k, quantiles(v)]));
const med = (k: string) => q[k]!.p50;
const ms = (k: string) => `${med(k).toFixed(0)} ms (p95 ${q[k]!.p95.toFixed(0)} ms)`;
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
const ratio = med('warm') / med('node');
const coldExtra = med('cold') - med('warm');
writeSection(
  'bench:exe',
  `
\`${EXE}\` built by \`node scripts/build-exe.js\` from dist/bundle/ (Node ${process.version} inside). Start-up is
from spawn to exit of \`status\` against the project's own service on 127.0.0.1 (${CHECKS} checks, one page,
in the bench's process), median of ${RUNS} runs of each, interleaved. Load average ${load} when the bench started:
the machine is shared with other work, so absolute times read high; the ratios are what to compare.

| measure | figure | aim | |
|---|---|---|---|
| build (\`build-exe.js\`, after \`npm run build\`) | ${(buildMs / 1000).toFixed(1)} s | fits CI | |
| size | ${mb(sizes.raw)}; .tar.gz ${mb(sizes.gz)}; .tar.xz ${mb(sizes.xz)} | compressed < 45 MB | ${sizes.gz < 45e6 ? 'met' : '**missed**'} |
| \`node bin/checkwall.js status\` | ${ms('node')} | | |
| executable \`status\`, warm cache | ${ms('warm')}: ${ratio.toFixed(2)}x node | < 1.3x | ${ratio < 1.3 ? 'met' : '**missed**'} |
| executable \`status\`, empty cache | ${ms('cold')}: ${coldExtra >= 0 ? '+' : ''}${coldExtra.toFixed(0)} ms over warm | < +1 s | ${coldExtra < 1000 ? 'met' : '**missed**'} |
| \`--version\` (start-up alone): node / executable warm | ${ms('nodeVersion')} / ${ms('warmVersion')} | | |
`,
);

/** Wall time from spawn to exit, in ms. */
function timed(file: string, args: string[], childEnv: Record<string, string>): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { env: childEnv, stdio: 'ignore' });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0 || code === 1) resolve(performance.now() - started);
      else reject(new Error(`${file} ${args.join(' ')} exited ${code}`));
    });
  });
}

/** The executable as a one-file tar archive compressed with tar's -z or -J; its size. */
function archive(flag: string, ext: string): number {
  const file = join(work, `${basename(EXE)}.${ext}`);
  execFileSync('tar', [`-c${flag}f`, file, '-C', dirname(EXE), basename(EXE)], {
    env: { ...process.env, XZ_OPT: '-T0' },
  });
  return statSync(file).size;
}
