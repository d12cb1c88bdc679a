// Check, result and metrics views with a real store, fed by the poller from the real service.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createClient } from '../../src/api/client.js';
import { createConsoleStore, type ConsoleStore } from '../../src/store/create-store.js';
import { metricsFeed, resultsFeed } from '../../src/store/feeds/results-feed.js';
import { statusesFeed } from '../../src/store/feeds/statuses-feed.js';
import { mountConsole, type MountedConsole } from '../helpers/console.js';
import { startTestService, type TestService } from '../helpers/service.js';

let svc: TestService;
let store: ConsoleStore;
let view: MountedConsole['view'];
let mounted: MountedConsole;
// eslint-disable-next-line no-control-regex -- reading the text without colour codes
const plain = () => (view.lastFrame() ?? '').replace(/\u001b\[[0-9;]*m/g, '');

beforeAll(async () => {
  svc = await startTestService({ checks: 3 });
  await svc.seed('c1', ['success', 'success', 'success'], { location: 'eu-west' });
  const failed = await svc.seed('c1', ['success', 'failed', 'failed'], {
    location: 'us-east',
    responseTime: 800,
  });
  svc.engine.rereadAll();
  const client = createClient({ baseUrl: svc.url, ...svc.credentials });
  store = createConsoleStore({ refreshMs: 60_000 });
  store.getState().setSize(120, 45);
  mounted = mountConsole(store, client, [statusesFeed, resultsFeed, metricsFeed]);
  view = mounted.view;
  await vi.waitFor(() => {
    if (store.getState().checks['c1']?.status !== 'failing') throw new Error('statuses not loaded yet');
  });
  if (failed.length !== 3) throw new Error('seeding failed');
});
afterAll(async () => {
  await mounted.close();
  await svc.close();
});

describe('drill-down views', () => {
  it('shows the check with its failing location standing out and its results', async () => {
    store.getState().openCheck('c1', false);
    await expect.poll(plain).toContain('only this location fails');
    await expect.poll(plain).toMatch(/6 runs\s+2 failed/);
    const frame = plain();
    expect(frame).toMatch(/Virginia \(us-east\)\s+✖ FAILING/);
    expect(frame).toMatch(/Frankfurt \(eu-west\)\s+✔ passing/);
    expect(frame).toMatch(/6 runs\s+2 failed/);
    expect(frame).toContain('STATUS_CODE equals 200, got 500');
    expect(frame).toMatch(/response\s+\S+/);
  });

  it('filters results to failed ones through the API with x', async () => {
    view.stdin.write('x');
    await expect.poll(plain).toContain('status failed');
    await expect.poll(plain).toMatch(/2 runs\s+2 failed/);
    view.stdin.write('x');
    view.stdin.write('x');
    await expect.poll(plain).toContain('all results');
  });

  it('opens a result with its timing bars and failed assertion first, and steps with n / p', async () => {
    store.getState().moveResult('first');
    view.stdin.write('\r');
    await expect.poll(plain).toContain('Timing');
    const frame = plain();
    expect(frame).toContain('First byte');
    expect(frame).toContain('Total');
    const assertions = frame.slice(frame.indexOf('Assertions'));
    expect(assertions).toMatch(/FAIL\s+STATUS_CODE/);
    const shown = () => {
      const top = store.getState().stack.at(-1)!;
      return top.name === 'result' ? top.resultId : undefined;
    };
    const first = shown();
    view.stdin.write('n');
    await expect.poll(shown).not.toBe(first);
    view.stdin.write('p');
    await expect.poll(shown).toBe(first);
    view.stdin.write('\u001b');
    await expect.poll(() => store.getState().stack.at(-1)!.name).toBe('check');
  });

  it('rates the check’s metrics against thresholds and guide bands', async () => {
    view.stdin.write('m');
    await expect.poll(plain).toContain('Metrics: api');
    await expect.poll(plain).toMatch(/Success rate\s+66\.67\s+poor/);
    expect(plain()).toMatch(/Average response time\s+\d+\.\d+\s+(fair|good)/);
    // A count's open ceiling reads as one, not as 9007199254740991.
    expect(plain()).toMatch(/Total requests.*range ≥0/);
    expect(plain()).not.toContain('9007199254740991');
    store.getState().setSize(200, 45);
    view.stdin.write('t');
    await expect.poll(plain).toContain('Metrics: browser');
    await expect.poll(plain).toContain('Cumulative Layout Shift');
    await expect.poll(plain).toContain('good ≤0.1, needs improvement ≤0.25');
    expect(plain()).toMatch(/Cumulative Layout Shift\s+no data/);
  });
});
