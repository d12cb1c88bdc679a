// `checkwall --public URL` as a user runs it: the URL's shape, a private slug,
// and credentials that have no place there, each a clear message and exit 2.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { hasTmux, startTerminal, type Terminal } from '../helpers/tmux.js';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.close());
let term: Terminal | undefined;
afterEach(() => term?.kill());

describe('checkwall --public', () => {
  it.each([['status'], ['http://127.0.0.1:1/v1/dashboards/status'], ['ftp://h/v1/public/dashboards/x']])(
    'refuses %s with the URL shape and the usage, exit 2',
    async (url) => {
      const { code, stderr } = await runCli(['--public', url]);
      expect(code).toBe(2);
      expect(stderr.split('\n')[0]).toMatch(
        /^checkwall console: --public takes a.*\/v1\/public\/dashboards\/SLUG/,
      );
      expect(stderr).toContain('Usage: checkwall [console]');
    },
  );

  it('says a private slug is private or unknown, exit 2', async () => {
    const { code, stderr } = await runCli(['console', '--public', `${svc.url}/v1/public/dashboards/ops`]);
    expect(code).toBe(2);
    expect(stderr).toContain(
      `checkwall: no public dashboard "ops" at ${svc.url}: it is private or does not exist`,
    );
  });

  it('refuses credentials alongside it', async () => {
    const { code, stderr } = await runCli([
      '--public',
      `${svc.url}/v1/public/dashboards/status`,
      '--api-key',
      'cw_test_0123456789abcdef',
    ]);
    expect(code).toBe(2);
    expect(stderr).toContain('--public reads without credentials: drop --api-key');
    expect(stderr).not.toContain('cw_test_0123456789abcdef');
  });

  // The public read carries the public projection (no tags, group, schedule, alerts):
  // the console reads that shape and its board shows what the projection has.
  it.skipIf(!hasTmux)(
    'shows the public projection on the board: status, incident, availability, last run',
    async () => {
      await svc.seed('c2', ['failed', 'failed']);
      term = startTerminal(
        `${process.execPath} bin/checkwall.js --public ${svc.url}/v1/public/dashboards/status --refresh 2`,
        { cols: 120, rows: 30, env: { CHECKWALL_API_KEY: '', CHECKWALL_ACCOUNT_ID: '' } },
      );
      const board = await term.waitFor('Check 0002', 30_000);
      expect(board).toMatch(/✖ 1 failing/);
      const row = board.split('\n').find((l) => l.includes('Check 0002')) ?? '';
      expect(row).toMatch(/✖ FAILING\s+!\s+Check 0002\s+api\s+0\.00%\s+\d+ ms\s+\d+ ms/);
      term.sendKeys('q');
      await expect.poll(() => term!.exited(), { timeout: 10_000 }).toBe(true);
    },
    60_000,
  );
});
