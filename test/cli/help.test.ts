// The built program, as a user runs it: bin/checkwall.js over dist/ (npm test builds first).
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

function checkwall(...args: string[]) {
  const run = spawnSync(process.execPath, ['bin/checkwall.js', ...args], {
    encoding: 'utf8',
    timeout: 15_000,
    env: { ...process.env, NO_COLOR: '1' },
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe('checkwall --help', () => {
  it('lists every command of the design', () => {
    const { code, stdout } = checkwall('--help');
    expect(code).toBe(0);
    for (const command of ['demo', 'console', 'wall', 'status', 'run', 'maintenance', 'serve', 'runner']) {
      expect(stdout).toMatch(new RegExp(`checkwall \\[?${command}`));
    }
  });

  it('rejects an unknown command with one line and the usage, exit 2', () => {
    const { code, stderr } = checkwall('frobnicate');
    expect(code).toBe(2);
    expect(stderr.split('\n')[0]).toBe('checkwall: unknown command "frobnicate"');
    expect(stderr).toContain('Usage:');
  });
});

describe('checkwall runner', () => {
  it('prints its usage with --help, and refuses missing options with exit 2', () => {
    expect(checkwall('runner', '--help').stdout).toContain(
      'Usage: checkwall runner --service URL --location ID',
    );
    const { code, stderr } = checkwall('runner', '--location', 'far');
    expect(code).toBe(2);
    expect(stderr.split('\n')[0]).toBe(
      'checkwall runner: --service needs the service address, e.g. --service http://127.0.0.1:8787',
    );
    const noToken = spawnSync(
      process.execPath,
      ['bin/checkwall.js', 'runner', '--service', 'http://127.0.0.1:9', '--location', 'far'],
      {
        encoding: 'utf8',
        env: { ...process.env, CHECKWALL_RUNNER_TOKEN: undefined, CHECKWALL_RUNNER_TOKEN_FAR: undefined },
      },
    );
    expect(noToken.status).toBe(2);
    expect(noToken.stderr).toContain(
      'no runner token: set CHECKWALL_RUNNER_TOKEN (or CHECKWALL_RUNNER_TOKEN_FAR)',
    );
  });
});

describe('checkwall serve', () => {
  it('prints its usage with --help', () => {
    const { code, stdout } = checkwall('serve', '--help');
    expect(code).toBe(0);
    expect(stdout).toContain('--max-alert-channels');
  });

  it('rejects an unknown flag with one line and the usage, exit 2', () => {
    const { code, stderr } = checkwall('serve', '--bogus');
    expect(code).toBe(2);
    expect(stderr.split('\n')[0]).toMatch(/^checkwall serve: .*--bogus/);
    expect(stderr).toContain('Usage: checkwall serve');
  });

  it('names the file, the field and the problem of a bad config', async () => {
    const { writeFileSync, mkdtempSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const file = join(mkdtempSync(join(tmpdir(), 'checkwall-')), 'bad.yaml');
    writeFileSync(file, 'accounts:\n  - id: not-a-uuid\n    apiKeys: [short]\n');
    const { code, stderr } = checkwall('serve', '--config', file, '--port', '0', '--db', ':memory:');
    expect(code).toBe(2);
    expect(stderr).toContain(file);
    expect(stderr).toContain('accounts.0.id');
    expect(stderr).toContain('accounts.0.apiKeys.0');
  });
});

describe('every command', () => {
  it.each([
    ['demo', '--db PATH'],
    ['console', '--public URL'],
    ['wall', '--cycle SECONDS'],
    ['status', '--json'],
    ['run', '--timeout DURATION'],
    ['maintenance', '--for DURATION'],
  ])('%s --help prints its usage', (command, flag) => {
    const { code, stdout } = checkwall(command, '--help');
    expect(code).toBe(0);
    expect(stdout).toContain(flag);
  });

  it.each(['demo', 'console', 'wall', 'status', 'run', 'maintenance'])(
    '%s rejects an unknown flag with exit 2',
    (command) => {
      const { code, stderr } = checkwall(command, '--frobnicate');
      expect(code).toBe(2);
      expect(stderr.split('\n')[0]).toContain('--frobnicate');
    },
  );

  it('says what is missing when the console has no settings, without a key', () => {
    const run = spawnSync(process.execPath, ['bin/checkwall.js', 'console', '--api-key', 'k-secret-123'], {
      encoding: 'utf8',
      env: { PATH: process.env['PATH'], XDG_CONFIG_HOME: '/nonexistent' },
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('CHECKWALL_BASE_URL');
    expect(run.stderr).not.toContain('k-secret-123');
  });
});
