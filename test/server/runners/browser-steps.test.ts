// Every step type and Playwright's selector syntax against real loopback
// pages in real Chromium; the screenshot a failed run keeps; a browser that
// dies in the middle of a run.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CheckResultSchema } from '../../../src/api/schemas/index.js';
import { AccountConfigSchema, CheckConfigSchema } from '../../../src/server/config/schema.js';
import type { RunContext, RunResult } from '../../../src/server/runners/types.js';
import { browserMissing, chromiumPath } from '../../../src/server/runners/browser-launch.js';
import { createBrowserPool } from '../../../src/server/runners/browser-pool.js';
import { fitPng, MAX_SCREENSHOT_BYTES } from '../../../src/server/runners/browser-screenshot.js';
import { describeStep } from '../../../src/server/runners/browser-steps.js';
import { createBrowserRunner } from '../../../src/server/runners/browser.js';

const missing = browserMissing();
if (missing) console.warn(`skipping the browser step tests: ${missing}`);

const account = AccountConfigSchema.parse({
  id: '0b6f3c52-7c1e-4d8a-9f2b-3c4d5e6f7a8b',
  apiKeys: ['k'.repeat(16)],
});
const location = { id: 'eu-west', name: 'Frankfurt', region: 'eu-central-1' };
const ctx: RunContext = {
  maxStoredBodyBytes: 1024,
  signal: new AbortController().signal,
  now: Date.now,
};

// A form with a field that counts keys, a select, a button that changes the address
// after a moment, a hidden element and a key handler on the page.
const FORM = `<!doctype html><html><body>
<label for="email">Email</label> <input id="email">
<input id="keys" aria-label="Keys"> <span id="count">0</span>
<select id="plan"><option value="free">Free</option><option value="pro">Pro plan</option></select>
<button id="buy">Buy now</button>
<p id="secret" style="display:none">hidden</p>
<p id="out"></p>
<script>
const $ = (id) => document.getElementById(id);
$('keys').addEventListener('keydown', () => ($('count').textContent = String(Number($('count').textContent) + 1)));
document.addEventListener('keydown', (e) => {
  if (e.key === 'Enter') $('out').textContent = 'Entered ' + $('email').value + ' on ' + $('plan').value;
});
$('buy').onclick = () => setTimeout(() => {
  history.pushState({}, '', '/form?bought=1');
  $('out').textContent = 'Thank you';
}, 150);
</script></body></html>`;
const RED = `<!doctype html><html><body style="margin:0;background:#e00000">
<h1 style="color:#fff">Checkout is down</h1></body></html>`;

function handler(req: IncomingMessage, res: ServerResponse): void {
  const html = (body: string) => void res.writeHead(200, { 'content-type': 'text/html' }).end(body);
  if (req.url?.startsWith('/form')) return html(FORM);
  if (req.url === '/red') return html(RED);
  if (req.url === '/done') return html('<h1>Done</h1>');
  res.writeHead(404).end();
}

let server: Server;
let http = '';
const pool = createBrowserPool({ executable: chromiumPath(), maxConcurrent: 2 });
const runBrowser = createBrowserRunner(pool);

beforeAll(async () => {
  server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  http = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await pool.close();
  server.closeAllConnections();
  server.close();
});

async function journey(path: string, steps: unknown[], over: Record<string, unknown> = {}) {
  const check = CheckConfigSchema.parse({
    id: 'j',
    name: 'J',
    type: 'multistep',
    target: `${http}${path}`,
    locations: ['eu-west'],
    timeoutMs: 10_000,
    steps,
    ...over,
  });
  const run: RunResult = await runBrowser(account, check, location, ctx, 'manual');
  return { run, result: CheckResultSchema.parse(run) };
}

/** The share of pixels close to pure red. */
function redShare(png: Uint8Array): number {
  const { data, width, height } = PNG.sync.read(Buffer.from(png));
  let red = 0;
  for (let i = 0; i < data.length; i += 4)
    if (data[i]! > 200 && data[i + 1]! < 40 && data[i + 2]! < 40) red++;
  return red / (width * height);
}

describe.skipIf(missing !== null)('multistep steps (real Chromium)', () => {
  it('runs every step type, with CSS, text= and role= selectors', async () => {
    const { result, run } = await journey('/form', [
      { action: 'fill', selector: 'role=textbox[name="Email"]', text: 'ada@example.com' },
      { action: 'type', selector: '#keys', text: 'abc' },
      { action: 'assertText', selector: '#count', contains: '3' },
      { action: 'select', selector: '#plan', option: 'Pro plan' },
      { action: 'press', key: 'Enter' },
      { action: 'assertText', selector: '#out', contains: 'Entered ada@example.com on pro' },
      { action: 'press', selector: '#email', key: 'Backspace' },
      { action: 'click', selector: 'text=Buy now' },
      { action: 'waitFor', text: 'Thank you' },
      { action: 'assertUrl', contains: 'bought=1' },
      { action: 'assertVisible', selector: 'role=button[name="Buy now"]' },
      { action: 'goto', url: '/done' },
      { action: 'waitFor', selector: 'h1' },
      { action: 'assertText', contains: 'Done' },
    ]);
    expect(result.error).toBeUndefined();
    expect(result.status).toBe('success');
    // A passing run keeps no picture unless its check asks for one.
    expect(result.hasScreenshot).toBe(false);
    expect(run.screenshot).toBeUndefined();
  });

  it.each([
    [
      { action: 'assertVisible', selector: '#secret' },
      /^step 1 of 1 \(assertVisible "#secret"\): "#secret" matches 1, none of them visible$/,
    ],
    [
      { action: 'assertUrl', contains: '/checkout' },
      /^step 1 of 1 \(assertUrl "\/checkout"\): expected the address to contain "\/checkout", it is "http:.*\/form"/,
    ],
    [
      { action: 'select', selector: '#plan', option: 'Enterprise' },
      /^step 1 of 1 \(select "Enterprise" in "#plan"\): no option "Enterprise" in "#plan" within 4000 ms$/,
    ],
    [
      { action: 'click', selector: 'role=button[name="Buy' },
      /^step 1 of 1 \(click "role=button\[name=\\"Buy"\): not a valid selector: /,
    ],
  ])('fails %j naming the step', async (step, message) => {
    const { result } = await journey('/form', [step], { timeoutMs: 4000 });
    expect(result.status).toBe('failed');
    expect(result.error?.message).toMatch(message);
  });

  it('keeps a screenshot of the page a step failed on', async () => {
    const { result, run } = await journey('/red', [{ action: 'click', selector: '#pay' }], {
      timeoutMs: 1500,
    });
    expect(result.error?.message).toMatch(/^step 1 of 1 \(click "#pay"\): no visible element matches/);
    expect(result.hasScreenshot).toBe(true);
    expect(run.screenshot!.length).toBeLessThanOrEqual(MAX_SCREENSHOT_BYTES);
    expect(redShare(run.screenshot!)).toBeGreaterThan(0.8);
  });

  it('keeps a screenshot of a passing run when the check says always', async () => {
    const { result, run } = await journey('/red', [{ action: 'assertText', contains: 'down' }], {
      screenshot: 'always',
    });
    expect(result.status).toBe('success');
    expect(result.hasScreenshot).toBe(true);
    expect(redShare(run.screenshot!)).toBeGreaterThan(0.8);
  });

  it('fails a run whose browser dies in the middle, and the next run starts another', async () => {
    const waiting = journey('/form', [{ action: 'waitFor', text: 'never shown' }], { timeoutMs: 20_000 });
    await expect.poll(() => pool.process()).not.toBeNull();
    const first = pool.process()!;
    process.kill(first.pid, 'SIGKILL');
    const { result } = await waiting;
    expect(result.status).toBe('failed');
    expect(result.timing.total).toBeLessThan(20_000);
    const next = await journey('/done', [{ action: 'assertText', contains: 'Done' }]);
    expect(next.result.status).toBe('success');
    expect(pool.process()?.pid).not.toBe(first.pid);
  });
});

describe('screenshot size cap', () => {
  it('scales a picture larger than the cap down until it fits, and leaves a small one as it is', () => {
    // Noise compresses badly: 400x300 of it is far over 100 KB.
    const noisy = new PNG({ width: 400, height: 300 });
    for (let i = 0; i < noisy.data.length; i++) noisy.data[i] = ((i * 7919) % 251) ^ ((i >> 3) % 256);
    const big = PNG.sync.write(noisy);
    expect(big.length).toBeGreaterThan(100 * 1024);
    const fitted = fitPng(big, 100 * 1024);
    expect(fitted.length).toBeLessThanOrEqual(100 * 1024);
    const { width, height } = PNG.sync.read(fitted);
    expect(width / height).toBeCloseTo(400 / 300, 1);
    expect(width).toBeLessThan(400);
    expect(fitPng(fitted, MAX_SCREENSHOT_BYTES)).toBe(fitted);
  });
});

describe('step descriptions in errors', () => {
  it.each([
    [{ action: 'goto', url: '/a' }, 'goto /a'],
    [{ action: 'click', selector: '#buy' }, 'click "#buy"'],
    [{ action: 'type', selector: '#q', text: 'x' }, 'type into "#q"'],
    [{ action: 'waitFor', selector: '#q' }, 'waitFor "#q"'],
    [{ action: 'waitFor', text: 'Done' }, 'waitFor text "Done"'],
    [{ action: 'assertText', contains: 'Hi', selector: 'h1' }, 'assertText "Hi" in "h1"'],
    [{ action: 'fill', selector: '#q', text: 'x' }, 'fill "#q"'],
    [{ action: 'press', key: 'Enter' }, 'press Enter'],
    [{ action: 'press', key: 'Tab', selector: '#q' }, 'press Tab in "#q"'],
    [{ action: 'select', selector: '#plan', option: 'Pro' }, 'select "Pro" in "#plan"'],
    [
      { action: 'assertVisible', selector: 'role=button[name="Buy"]' },
      'assertVisible "role=button[name=\\"Buy\\"]"',
    ],
    [{ action: 'assertUrl', contains: '/done' }, 'assertUrl "/done"'],
  ] as const)('%j reads %s', (step, text) => {
    expect(describeStep(step)).toBe(text);
  });
});
