// A hostile server's error message reaches no terminal raw: `checkwall status`,
// `checkwall wall --dashboard` and `checkwall runner` print it through the
// board's sanitiser, so its escape sequences (a title, a screen clear, a
// hyperlink) and bells are gone and only the text is left.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client.js';
import { dashboardScope } from '../../src/commands/dashboard-scope.js';
import { runCli } from '../helpers/cli.js';
import { json, startFixture, type Fixture } from '../helpers/fixture.js';
import { TEST_ACCOUNT, TEST_KEY } from '../helpers/service.js';

const HOSTILE =
  '\u001b]0;pwned\u0007\u001b[2J\u001b]8;;https://evil.example/\u001b\\click\u001b]8;;\u001b\\ bad\u0007 request';
// ESC, BEL and the C1 string introducers (OSC, CSI, DCS): none may reach the terminal.
// eslint-disable-next-line no-control-regex -- looking for control characters is the point
const CONTROL = /[\u001b\u0007\u009b\u009d\u0090]/;

let hostile: Fixture;
beforeAll(async () => {
  hostile = await startFixture((req, res) =>
    json(res, req.url.startsWith('/v1/runner') ? 401 : 400, {
      statusCode: 400,
      error: 'Bad Request',
      message: HOSTILE,
      details: [{ path: HOSTILE, message: HOSTILE }],
    }),
  );
});
afterAll(() => hostile.close());

describe('a hostile server', () => {
  it('cannot put escape sequences on the terminal through checkwall status', async () => {
    const { code, stdout, stderr } = await runCli(['status'], {
      CHECKWALL_BASE_URL: hostile.url,
      CHECKWALL_API_KEY: TEST_KEY,
      CHECKWALL_ACCOUNT_ID: TEST_ACCOUNT,
    });
    expect(code).toBe(2);
    expect(stderr).toContain('click bad request');
    expect(stderr + stdout).not.toMatch(CONTROL);
  });

  it('cannot through the dashboard lookup of checkwall wall --dashboard', async () => {
    const client = createClient({ baseUrl: hostile.url, apiKey: TEST_KEY, accountId: TEST_ACCOUNT });
    try {
      const why = await dashboardScope(client, 'ops');
      expect(why).toMatch(/^could not read the dashboards: http 400: .*click bad request/);
      expect(why).not.toMatch(CONTROL);
    } finally {
      await client.close();
    }
  });

  it('cannot through the runner, which prints the refusal', async () => {
    const { code, stdout, stderr } = await runCli([
      'runner',
      '--service',
      hostile.url,
      '--location',
      'edge',
      '--token',
      'runner-token-0123456789',
    ]);
    expect(code).toBe(2);
    expect(stderr).toContain('the service refused this runner: click bad request');
    expect(stderr + stdout).not.toMatch(CONTROL);
  });
});
