// `checkwall --public URL` as a user runs it: the URL's shape, a private slug,
// and credentials that have no place there, each a clear message and exit 2.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startTestService, type TestService } from '../helpers/service.js';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.close());

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
});
