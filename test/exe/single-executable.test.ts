// The single executable (npm run build:exe) as a jump host runs it: built once
// here from the bundle `npm test` has just built, then run with nothing in its
// environment but what it needs (no PATH, no Node anywhere it could find).
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runProgram } from '../helpers/cli.js';
import { startTestService, TEST_ACCOUNT, TEST_KEY, type TestService } from '../helpers/service.js';
import { hasTmux, startTerminal, type Terminal } from '../helpers/tmux.js';

const EXE = join('dist/exe', `checkwall-${process.platform}-${process.arch}`);
const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
const BUILD_DIR = new RegExp(`^${version.replace(/\./g, '\\.')}-[0-9a-f]{12}$`);

let svc: TestService;
let scratch: string;
let term: Terminal | undefined;

beforeAll(async () => {
  const started = Date.now();
  const { stdout } = await promisify(execFile)(process.execPath, ['scripts/build-exe.js']);
  // The build's own line (size, time) in the test log, so CI shows what the step costs.
  console.log(`${stdout.trim()} (${Date.now() - started} ms as seen by the test)`);
  svc = await startTestService({ checks: 4 });
  await svc.seed('c1', ['failed', 'failed'], { location: 'eu-west' });
  await svc.seed('c1', ['failed', 'failed'], { location: 'us-east' });
  for (const id of ['c2', 'c3']) {
    await svc.seed(id, ['success', 'success'], { location: 'eu-west' });
    await svc.seed(id, ['success', 'success'], { location: 'us-east' });
  }
  scratch = mkdtempSync(join(tmpdir(), 'checkwall-exe-'));
  // Reachable by the unprivileged user the read-only test may run as.
  chmodSync(scratch, 0o755);
}, 180_000);
afterAll(async () => {
  await svc?.close();
  rmSync(scratch, { recursive: true, force: true });
});
afterEach(() => term?.kill());

/** The settings it needs and nothing else, with a cache directory of its own unless given one. */
function envFor(cache = freshDir('cache'), extra: Record<string, string> = {}): Record<string, string> {
  return {
    CHECKWALL_BASE_URL: svc.url,
    CHECKWALL_API_KEY: TEST_KEY,
    CHECKWALL_ACCOUNT_ID: TEST_ACCOUNT,
    XDG_CACHE_HOME: cache,
    XDG_CONFIG_HOME: '/nonexistent-checkwall',
    ...extra,
  };
}

let dirs = 0;
function freshDir(name: string): string {
  const dir = join(scratch, `${name}-${++dirs}`);
  mkdirSync(dir);
  return dir;
}

const exe = (args: string[], env: Record<string, string>) => runProgram(EXE, args, env);

async function expectEveryCheck(run: ReturnType<typeof exe>): Promise<void> {
  const { code, stdout, stderr } = await run;
  expect(stderr).toBe('');
  expect(code).toBe(1);
  const checks = (JSON.parse(stdout) as { checks: Array<{ checkId: string; status: string }> }).checks;
  expect(checks.map((c) => c.checkId).sort()).toEqual(['c1', 'c2', 'c3', 'c4']);
  expect(checks.find((c) => c.checkId === 'c1')?.status).toBe('failing');
}

describe('the single executable, with an empty environment', () => {
  it('status --json returns every check and exits 1 while one fails; 0 when every selected one passes', async () => {
    await expectEveryCheck(exe(['status', '--json'], envFor()));
    const passing = await exe(['status', '--json', '--filter', 'status:passing'], envFor());
    expect(passing.code).toBe(0);
    expect((JSON.parse(passing.stdout) as { checks: unknown[] }).checks).toHaveLength(2);
  });

  it('--help prints the usage, --version the version and the commit', async () => {
    const help = await exe(['--help'], {});
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('checkwall status [--json]');
    const status = await exe(['status', '--help'], {});
    expect(status.stdout).toContain('--json');
    // `run` is a lazily loaded chunk of the bundle like every command: it rides along.
    expect(help.stdout).toContain('checkwall run CHECK_ID...');
    const run = await exe(['run', '--help'], {});
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('--timeout DURATION');
    const unnamed = await exe(['run'], {});
    expect(unnamed.code).toBe(2);
    expect(unnamed.stderr).toContain('checkwall run: name the checks to run');
    const stamped = await exe(['--version'], {});
    expect(stamped.code).toBe(0);
    // The same stamp as the npm package's: both come from the one bundle.
    const npm = execFileSync(process.execPath, ['bin/checkwall.js', '--version'], { encoding: 'utf8' });
    expect(stamped.stdout).toBe(npm);
    expect(stamped.stdout).toMatch(
      new RegExp(`^checkwall ${version} \\(([0-9a-f]{12}(-dirty)?|unknown)\\)\\n$`),
    );
  });

  it.each(['serve', 'demo'])('%s exits 2 with one line naming the npm package', async (command) => {
    const { code, stdout, stderr } = await exe([command, '--port', '0'], {});
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trimEnd().split('\n')).toEqual([
      expect.stringMatching(`^checkwall ${command}: .*npm .*checkwall`),
    ]);
  });

  it('says which settings are missing, without suggesting the demo it does not have', async () => {
    const { code, stderr } = await exe(['status'], { XDG_CONFIG_HOME: '/nonexistent-checkwall' });
    expect(code).toBe(2);
    expect(stderr).toContain('CHECKWALL_BASE_URL');
    expect(stderr).not.toContain('checkwall demo');
  });

  it('two processes starting at once on an empty cache both work, and leave one copy', async () => {
    const cache = freshDir('cache');
    await Promise.all(
      [exe(['status', '--json'], envFor(cache)), exe(['status', '--json'], envFor(cache))].map(
        expectEveryCheck,
      ),
    );
    const entries = readdirSync(join(cache, 'checkwall'));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatch(BUILD_DIR);
  });

  it('never runs a directory under its own name that it did not write', async () => {
    const cache = freshDir('cache');
    await exe(['--version'], envFor(cache));
    const [name] = readdirSync(join(cache, 'checkwall'));
    const planted = join(cache, 'checkwall', name!);
    rmSync(join(planted, '.checkwall-build'));
    writeFileSync(
      join(planted, 'cli.js'),
      'export async function main() { console.log("PLANTED"); return 0; }\n',
    );
    const run = await exe(['--version'], envFor(cache));
    expect(run.stdout).toMatch(/^checkwall /);
    expect(run.stdout).not.toContain('PLANTED');
  });

  // Root writes through a read-only mode: as root, run the executable as nobody.
  const asRoot = process.getuid?.() === 0;
  const setpriv = spawnSync('sh', ['-c', 'command -v setpriv'], { encoding: 'utf8' }).stdout.trim();
  it.skipIf(asRoot && !setpriv)(
    'works with a read-only cache directory, and leaves no files behind',
    async () => {
      const cache = freshDir('readonly-cache');
      chmodSync(cache, 0o555);
      const tmp = freshDir('tmp');
      chmodSync(tmp, 0o777);
      const env = envFor(cache, { TMPDIR: tmp });
      const run = asRoot
        ? runProgram(
            setpriv,
            ['--reuid=65534', '--regid=65534', '--clear-groups', EXE, 'status', '--json'],
            env,
          )
        : exe(['status', '--json'], env);
      await expectEveryCheck(run);
      expect(readdirSync(cache)).toEqual([]);
      // Its temporary copy is gone once it has exited.
      expect(readdirSync(tmp)).toEqual([]);
    },
  );

  it.skipIf(!hasTmux)(
    'runs the console in a terminal: the board, then q restores the terminal',
    async () => {
      const env = Object.entries(envFor(freshDir('cache'), { TERM: 'xterm-256color', LANG: 'C.UTF-8' }))
        .map(([k, v]) => `${k}=${v}`)
        .join(' ');
      term = startTerminal(
        `sh -c 'echo BEFORE-CHECKWALL; env -i ${env} ${EXE}; echo AFTER-CHECKWALL; sleep 30'`,
        {
          cols: 120,
          rows: 30,
        },
      );
      const board = await term.waitFor(/✖ 1 failing/, 30_000);
      expect(board).toMatch(/STATUS.*CHECK/);
      await term.waitFor('Check 0004');
      term.sendKeys('q');
      const after = await term.waitFor('AFTER-CHECKWALL');
      expect(after).toContain('BEFORE-CHECKWALL');
      expect(after).not.toContain('Check 0001');
    },
    60_000,
  );

  it.skipIf(!hasTmux)(
    'opens a public dashboard with --public URL and nothing else',
    async () => {
      const url = `${svc.url}/v1/public/dashboards/status`;
      const env = `TERM=xterm-256color LANG=C.UTF-8 XDG_CACHE_HOME=${freshDir('cache')}`;
      term = startTerminal(`env -i ${env} ${EXE} --public ${url}`, { cols: 120, rows: 30 });
      const board = await term.waitFor('Check 0002', 30_000);
      expect(board).toContain('public');
      expect(board).not.toContain('Check 0001');
      term.sendKeys('q');
      await expect.poll(() => term!.exited(), { timeout: 10_000 }).toBe(true);
    },
    60_000,
  );
});
