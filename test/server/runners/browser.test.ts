// The browser runner in a real Chromium against real loopback pages: the main
// document's status and timing, the page's own metrics, TLS, journeys, and
// failures as results.
import { execFileSync } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttps } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CheckResultSchema } from '../../../src/api/schemas/index.js';
import { AccountConfigSchema, CheckConfigSchema } from '../../../src/server/config/schema.js';
import type { RunContext } from '../../../src/server/runners/types.js';
import { SIGNUP_PAGE } from '../../../src/server/demo/pages.js';
import { makeChain, serveChain } from '../../helpers/certificates.js';
import { DEMO_TLS_CERT, DEMO_TLS_KEY } from '../../../src/server/demo/tls-cert.js';
import { browserMissing, chromiumPath } from '../../../src/server/runners/browser-launch.js';
import { createBrowserPool } from '../../../src/server/runners/browser-pool.js';
import { createBrowserRunner } from '../../../src/server/runners/browser.js';
import { closedPortUrl } from '../../helpers/fixture.js';
import { expectPhasesWithinTotal } from '../../helpers/timing.js';

const missing = browserMissing();
if (missing) console.warn(`skipping the browser runner tests: ${missing}`);

const account = AccountConfigSchema.parse({
  id: '0b6f3c52-7c1e-4d8a-9f2b-3c4d5e6f7a8b',
  apiKeys: ['k'.repeat(16)],
});
const location = { id: 'eu-west', name: 'Frankfurt', region: 'eu-central-1' };
const ctx: RunContext = {
  maxStoredBodyBytes: 64,
  signal: new AbortController().signal,
  now: Date.now,
};

// A late block above the text moves it (a layout shift); the text is the largest element.
const SHIFTING = `<!doctype html><html><body><div id="slot"></div>
<p style="font-size:64px">A large paragraph of text, the largest thing on this page by far.</p>
<script>requestAnimationFrame(() => setTimeout(() => {
  document.getElementById('slot').innerHTML = '<div style="height:240px">advert</div>';
}, 50));</script></body></html>`;
const RENDERED = `<!doctype html><html><body><main></main>
<script>document.querySelector('main').textContent = 'Written by a script';</script></body></html>`;

let inFlight = 0;
let maxInFlight = 0;
const heldCounted: Array<() => void> = [];
function handler(req: IncomingMessage, res: ServerResponse): void {
  const html = (body: string, status = 200) =>
    void res.writeHead(status, { 'content-type': 'text/html', 'x-app': 'demo' }).end(body);
  switch (req.url ?? '/') {
    case '/shift':
      return html(SHIFTING);
    case '/rendered':
      return html(RENDERED);
    case '/signup':
      return html(SIGNUP_PAGE);
    case '/missing':
      return html('<h1>Not here</h1>', 404);
    case '/hang':
      return; // never answers
    case '/wait':
      return void setTimeout(() => html('<p>late</p>'), 200);
    case '/counted': {
      // Held until a second page is in too (or 3 s): on a busy machine two pages the pool
      // allows at once might otherwise never overlap. A third would be counted meanwhile.
      maxInFlight = Math.max(maxInFlight, ++inFlight);
      let answered = false;
      const answer = () => {
        if (answered) return;
        answered = true;
        inFlight--;
        html('<p>counted</p>');
      };
      setTimeout(answer, 3_000);
      if (inFlight < 2) return void heldCounted.push(answer);
      for (const held of [...heldCounted.splice(0), answer]) setTimeout(held, 150);
      return;
    }
    default:
      return void res.writeHead(204).end();
  }
}

const servers: Server[] = [];
let http = '';
let https = '';
const pool = createBrowserPool({ executable: chromiumPath(), maxConcurrent: 2 });
const runBrowser = createBrowserRunner(pool);

beforeAll(async () => {
  const listen = async (server: Server) => {
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    return (server.address() as AddressInfo).port;
  };
  http = `http://127.0.0.1:${await listen(createServer(handler))}`;
  https = `https://127.0.0.1:${await listen(createHttps({ key: DEMO_TLS_KEY, cert: DEMO_TLS_CERT }, handler))}`;
});
afterAll(async () => {
  await pool.close();
  for (const s of servers) {
    s.closeAllConnections();
    s.close();
  }
});

const check = (over: Record<string, unknown>) =>
  CheckConfigSchema.parse({
    id: 'b',
    name: 'B',
    type: 'browser',
    locations: ['eu-west'],
    timeoutMs: 10_000,
    ...over,
  });
const run = async (over: Record<string, unknown>) =>
  CheckResultSchema.parse(await runBrowser(account, check(over), location, ctx, 'manual'));

describe.skipIf(missing !== null)('browser runner (real Chromium)', () => {
  it('measures a layout shift and the paints of a page with a large element', async () => {
    const r = await run({ target: `${http}/shift` });
    expect(r.status).toBe('success');
    expect(r.metrics?.['cumulativeLayoutShift']).toBeGreaterThan(0);
    expect(r.metrics?.['firstContentfulPaint']).toBeGreaterThan(0);
    expect(r.metrics?.['largestContentfulPaint']).toBeGreaterThanOrEqual(r.metrics!['firstContentfulPaint']!);
    expect(r.metrics?.['timeToInteractive']).toBeGreaterThan(0);
    // Nobody touched the page: there is no input delay to report.
    expect(r.metrics).not.toHaveProperty('firstInputDelay');
  });

  it("records the main document's request, response and timing phases", async () => {
    const r = await run({ target: `${http}/wait` });
    expect(r.request).toMatchObject({ method: 'GET', url: `${http}/wait`, body: null });
    expect(r.request.headers['x-checkwall-location']).toBe('eu-west');
    expect(r.response).toMatchObject({ statusCode: 200, statusText: 'OK', body: '<p>late</p>', size: 11 });
    expect(r.response?.headers['x-app']).toBe('demo');
    // The server waits 200 ms before its headers.
    expect(r.timing.firstByte).toBeGreaterThanOrEqual(190);
    expect(r.timing.tls).toBeUndefined();
    expectPhasesWithinTotal(r.timing, ['dns', 'tcp', 'firstByte', 'download']);
    expect(r.duration).toBe(r.timing.total);
  });

  it('caps the stored body and keeps its real size', async () => {
    const r = await run({ target: `${http}/shift` });
    expect(Buffer.byteLength(r.response!.body)).toBe(64);
    expect(r.response?.size).toBe(Buffer.byteLength(SHIFTING));
  });

  it('reports the status code, and fails on an error status without assertions', async () => {
    const plain = await run({ target: `${http}/missing` });
    expect(plain).toMatchObject({
      status: 'failed',
      response: { statusCode: 404 },
      error: { name: 'HttpStatusError' },
    });
    const asserted = await run({
      target: `${http}/missing`,
      assertions: [{ source: 'STATUS_CODE', comparison: 'EQUALS', target: '404' }],
    });
    expect(asserted.status).toBe('success');
  });

  it.each([
    ['TEXT_BODY', '', 'CONTAINS', 'Written by a script', true],
    ['TEXT_BODY', '', 'CONTAINS', 'textContent', false],
    ['HEADERS', 'X-App', 'EQUALS', 'demo', true],
    ['STATUS_CODE', '', 'EQUALS', '500', false],
    ['RESPONSE_TIME', '', 'LESS_THAN', '60000', true],
  ])('asserts %s %s %s %s on the rendered page: %s', async (source, property, comparison, target, passes) => {
    const r = await run({
      target: `${http}/rendered`,
      assertions: [{ source, property, comparison, target }],
    });
    expect(r.assertions[0]!.passed).toBe(passes);
    expect(r.status).toBe(passes ? 'success' : 'failed');
    if (!passes) expect(r.assertions[0]!.actual).toBeDefined();
  });

  it('needs insecureTls for a self-signed certificate, for that check only', async () => {
    const accepted = await run({ target: `${https}/shift`, insecureTls: true });
    expect(accepted.status).toBe('success');
    expect(accepted.timing.tls).toBeGreaterThan(0);
    expectPhasesWithinTotal(accepted.timing, ['dns', 'tcp', 'tls', 'firstByte', 'download']);
    const refused = await run({ target: `${https}/shift` });
    expect(refused).toMatchObject({ status: 'failed', response: null, error: { name: 'TLSError' } });
    expect(refused.error?.message).toContain('ERR_CERT');
  });

  it("carries the page's certificate as Chromium saw it: the leaf, and no chain (issue 35)", async () => {
    const chain = await makeChain({ leafDays: 10, intermediateDays: 5 });
    const target = await serveChain(chain, handler);
    try {
      const before = Date.now();
      const r = await run({
        target: `${target.url}/shift`,
        insecureTls: true,
        assertions: [
          { source: 'CERTIFICATE', property: 'daysRemaining', comparison: 'GREATER_THAN', target: '14' },
        ],
      });
      expect(r.certificate).toEqual({
        subject: 'localhost',
        issuer: 'Checkwall Test Intermediate CA',
        serialNumber: null,
        validFrom: new Date(Math.floor(chain.leaf.cert.notBefore.getTime() / 1000) * 1000).toISOString(),
        validTo: new Date(Math.floor(chain.leaf.notAfter.getTime() / 1000) * 1000).toISOString(),
        daysRemaining: Math.floor((chain.leaf.notAfter.getTime() - before) / 86_400_000),
        chainValidTo: null,
        chainDaysRemaining: null,
      });
      expect(r.assertions[0]).toMatchObject({ passed: false, actual: '9' });
    } finally {
      await target.close();
    }
  });

  it('turns a page that never loads into a failed result within its timeout', async () => {
    const r = await run({ target: `${http}/hang`, timeoutMs: 800 });
    expect(r).toMatchObject({ status: 'failed', response: null, error: { name: 'TimeoutError' } });
    expect(r.error?.message).toContain('within 800 ms');
    expect(r.timing.total).toBeGreaterThanOrEqual(800);
  });

  it('turns a refused connection into a failed result', async () => {
    const r = await run({ target: `${await closedPortUrl()}/` });
    expect(r).toMatchObject({ status: 'failed', response: null, error: { name: 'ConnectionRefusedError' } });
  });

  it('runs no more pages at once than the pool allows', async () => {
    maxInFlight = 0;
    const runs = await Promise.all(Array.from({ length: 5 }, () => run({ target: `${http}/counted` })));
    expect(runs.every((r) => r.status === 'success')).toBe(true);
    expect(maxInFlight).toBe(2);
  });

  it('starts the browser again when it dies', async () => {
    await run({ target: `${http}/rendered` });
    const first = pool.process()!;
    process.kill(first.pid, 'SIGKILL');
    await expect.poll(() => pool.process()).toBeNull();
    const r = await run({ target: `${http}/rendered` });
    expect(r.status).toBe('success');
    expect(pool.process()?.pid).not.toBe(first.pid);
    expect(alive(first.profile)).toEqual([]);
  });
});

describe.skipIf(missing !== null)('multistep runner (real Chromium)', () => {
  const journey = (steps: unknown[], timeoutMs = 10_000) =>
    run({ type: 'multistep', target: `${http}/signup`, steps, timeoutMs });

  it('walks a journey: types, clicks and finds the revealed text', async () => {
    const r = await journey([
      { action: 'waitFor', selector: '#email' },
      { action: 'type', selector: '#email', text: 'ada@example.com' },
      { action: 'click', selector: '#submit' },
      { action: 'waitFor', text: 'Welcome' },
      { action: 'assertText', selector: '#welcome', contains: 'Welcome, ada@example.com!' },
      { action: 'goto', url: '/rendered' },
      { action: 'assertText', contains: 'Written by a script' },
    ]);
    expect(r.error).toBeUndefined();
    expect(r.status).toBe('success');
    // The target's document, though the journey ended on another page.
    expect(r.request.url).toBe(`${http}/signup`);
    expect(r.response).toMatchObject({ statusCode: 200, size: Buffer.byteLength(SIGNUP_PAGE) });
    expect(r.response?.body).toContain('<html lang="en">');
    expectPhasesWithinTotal(r.timing, ['dns', 'tcp', 'firstByte', 'download']);
  });

  it('reports a first input delay once the journey touched the page', async () => {
    const r = await journey([{ action: 'click', selector: '#submit' }]);
    expect(r.metrics?.['firstInputDelay']).toBeGreaterThanOrEqual(0);
  });

  it('fails a journey with a wrong selector, naming the step', async () => {
    const r = await journey(
      [
        { action: 'type', selector: '#email', text: 'ada@example.com' },
        { action: 'click', selector: '#no-such-button' },
        { action: 'assertText', contains: 'Welcome' },
      ],
      // Room for the load and step 1 on a busy machine (at 1.5 s a loaded CI ran out in step 1).
      3000,
    );
    expect(r.status).toBe('failed');
    expect(r.error?.message).toMatch(/^step 2 of 3 \(click "#no-such-button"\): no visible element matches/);
    expect(r.error?.name).toBe('TimeoutError');
    expect(r.response?.statusCode).toBe(200); // the target loaded; a later step ran out of time
    expect(r.timing.total).toBeGreaterThanOrEqual(3000);
  });

  it('fails an assertion step with what the page showed', async () => {
    // The run's clock (within the test's 20 s) must outlast the assertion's grace even on a busy
    // machine (the full suite runs Chromium beside other files): a timeout is another failure.
    const r = await journey(
      [
        { action: 'click', selector: '#submit' },
        { action: 'assertText', selector: '#welcome', contains: 'Welcome' },
      ],
      15_000,
    );
    expect(r).toMatchObject({
      status: 'failed',
      error: { name: 'StepFailed' },
      response: { statusCode: 200 },
    });
    expect(r.error?.message).toContain('step 2 of 2');
    expect(r.error?.message).toContain('found "Please enter an email address."');
  });

  it('fails at once on a selector that is not CSS', async () => {
    const r = await journey([{ action: 'click', selector: '#[' }], 10_000);
    expect(r.error?.message).toMatch(/^step 1 of 1 \(click "#\["\): .*not a valid selector/);
    expect(r.timing.total).toBeLessThan(10_000);
  });
});

/** Live (not zombie) processes of one browser: every one carries its profile path. */
function alive(profile: string): string[] {
  try {
    return execFileSync('pgrep', ['-f', '--', profile], { encoding: 'utf8' }).trim().split('\n');
  } catch {
    return []; // pgrep exits 1 when nothing matches
  }
}
