// The screenshot slice and its one-shot feed against the project's service:
// fetched only when asked, toggled without a second fetch, saved to a file,
// and a 404 said plainly.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client.js';
import { createConsoleStore, type ConsoleStore } from '../../src/store/create-store.js';
import { createScreenshotFeed, screenshotFileName } from '../../src/store/feeds/screenshot-feed.js';
import { createPoller } from '../../src/store/poller.js';
import { createFakeClock } from '../helpers/fake-clock.js';
import { startTestService, TEST_ACCOUNT, type TestService } from '../helpers/service.js';

const PNG_BYTES = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 7, 7, 7]);
let svc: TestService;
const dir = mkdtempSync(join(tmpdir(), 'checkwall-shots-'));
let withShot = '';
let without = '';
beforeAll(async () => {
  svc = await startTestService({ checks: 2 });
  const [a, b] = await svc.seed('c1', ['failed', 'failed']);
  without = a!.id;
  withShot = randomUUID();
  await svc.record(TEST_ACCOUNT, { ...b!, id: withShot, hasScreenshot: true, screenshot: PNG_BYTES });
});
afterAll(() => svc.close());

function consoleOn(resultId: string): { store: ConsoleStore; stop(): void } {
  const client = createClient({ baseUrl: svc.url, ...svc.credentials, retry: { retries: 0 } });
  const store = createConsoleStore({ refreshMs: 60_000 });
  store.getState().pushView({ name: 'result', checkId: 'c1', resultId, scroll: 0 });
  const feed = createScreenshotFeed(() => [dir]);
  const poller = createPoller({ store, client, feeds: [feed], tickMs: 0, clock: createFakeClock() });
  return { store, stop: () => poller.stop() };
}

describe('screenshot slice and feed', () => {
  it('fetches on i, toggles without fetching again, and saves on o', async () => {
    const { store, stop } = consoleOn(withShot);
    const shot = () => store.getState().screenshot;
    expect(shot().png.state).toBe('idle'); // nothing is fetched before it is asked for
    store.getState().askScreenshot('c1', withShot, 'show');
    expect(shot()).toMatchObject({ shown: true, pending: 'show', png: { state: 'loading' } });
    await expect.poll(() => shot().png.state).toBe('ok');
    expect(Buffer.from((shot().png as { data: Uint8Array }).data)).toEqual(PNG_BYTES);
    expect(shot().pending).toBeNull();
    store.getState().askScreenshot('c1', withShot, 'show');
    expect(shot()).toMatchObject({ shown: false, pending: null, png: { state: 'ok' } });

    store.getState().askScreenshot('c1', withShot, 'save');
    await expect.poll(() => shot().saved).not.toBeNull();
    const saved = shot().saved!;
    expect(saved.ok).toBe(true);
    if (saved.ok) expect(readFileSync(saved.path)).toEqual(PNG_BYTES);
    expect(saved).toEqual({ ok: true, path: join(dir, screenshotFileName('c1', withShot)) });
    stop();
  });

  it('says why when the run kept no screenshot', async () => {
    const { store, stop } = consoleOn(without);
    store.getState().askScreenshot('c1', without, 'save');
    await expect.poll(() => store.getState().screenshot.saved).not.toBeNull();
    expect(store.getState().screenshot).toMatchObject({ pending: null, png: { state: 'error' } });
    expect(store.getState().screenshot.saved).toMatchObject({
      ok: false,
      message: expect.stringContaining('404'),
    });
    stop();
  });

  it('names files by the check and the start of the result id, in safe characters', () => {
    expect(screenshotFileName('shop/../x', 'a1b2c3d4-e5f6')).toBe('checkwall-shop_.._x-a1b2c3d4.png');
  });
});
