// The list endpoint keeps its filtered, sorted answer while a client reads the
// pages, and drops it the moment a check's status moves.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CheckStatusesQuerySchema, CheckStatusListSchema } from '../../../src/api/schemas/index.js';
import { createListCache, refreshWhileRead, type ListAnswer } from '../../../src/server/http/list-cache.js';
import { createFakeClock } from '../../helpers/fake-clock.js';
import { startTestService, TEST_ACCOUNT, TEST_KEY, type TestService } from '../../helpers/service.js';
import { sampleStatus, sampleSummary } from '../../helpers/samples.js';

describe('createListCache', () => {
  const q = (query: Record<string, string>) => CheckStatusesQuerySchema.parse(query);
  function setup() {
    let version = 0;
    let now = 1_000;
    let builds = 0;
    const cache = createListCache(
      () => version,
      () => now,
    );
    const build = (): Promise<ListAnswer> => {
      builds++;
      return Promise.resolve({ chosen: [sampleStatus(`b${builds}`)], summary: sampleSummary() });
    };
    return {
      read: (query: Record<string, string>, account = 'a') => cache.read(account, q(query), build),
      refresh: () => cache.refresh(),
      builds: () => builds,
      bump: () => version++,
      advance: (ms: number) => (now += ms),
    };
  }

  it.each<[string, (t: ReturnType<typeof setup>) => void, number]>([
    ['another page of the same query', (t) => void t.read({ page: '2' }), 1],
    ['the same query after 1.9 s', (t) => (t.advance(1_900), void t.read({})), 1],
    ['the same query after 2 s', (t) => (t.advance(2_000), void t.read({})), 2],
    ['the same query after a result arrived', (t) => (t.bump(), void t.read({})), 2],
    ['another filter', (t) => void t.read({ status: 'failing' }), 2],
    ['another sort', (t) => void t.read({ sortBy: 'name' }), 2],
    ['another account', (t) => void t.read({}, 'b'), 2],
    ['the clock going back', (t) => (t.advance(-5), void t.read({})), 2],
  ])('after page 1, %s builds %i time(s) in all', (_name, then, builds) => {
    const t = setup();
    void t.read({ page: '1' });
    then(t);
    expect(t.builds()).toBe(builds);
  });

  it('holds a bounded number of queries', () => {
    const t = setup();
    for (let i = 0; i < 40; i++) void t.read({ group: `g${i}` });
    void t.read({ group: 'g0' });
    expect(t.builds()).toBe(41);
    void t.read({ group: 'g39' });
    expect(t.builds()).toBe(41);
  });

  it('builds again ahead of the requests an answer read lately that is 1.5 s old', async () => {
    const t = setup();
    const first = await t.read({});
    t.advance(1_400);
    await t.refresh();
    expect(t.builds()).toBe(1); // still young
    t.advance(100);
    await t.refresh();
    expect(t.builds()).toBe(2);
    t.advance(1_900); // 3.4 s after the first build, 1.9 s after the second
    const later = await t.read({ page: '3' });
    expect(t.builds()).toBe(2);
    expect(later.chosen[0]!.checkId).toBe('b2');
    expect(first.chosen[0]!.checkId).toBe('b1');
  });

  it('builds again at once an answer read lately whose statuses moved', async () => {
    const t = setup();
    await t.read({});
    t.bump();
    await t.refresh();
    expect(t.builds()).toBe(2);
    expect((await t.read({})).chosen[0]!.checkId).toBe('b2');
    expect(t.builds()).toBe(2);
  });

  it('leaves alone an answer nobody read for 30 s', async () => {
    const t = setup();
    await t.read({});
    t.advance(30_001);
    await t.refresh();
    expect(t.builds()).toBe(1);
    await t.read({});
    expect(t.builds()).toBe(2);
  });
});

describe('refreshWhileRead', () => {
  it('refreshes from a read until nothing read is left to keep warm, then sets no timer', async () => {
    const clock = createFakeClock();
    const cache = createListCache(() => 0, clock.now);
    let builds = 0;
    const build = () => Promise.resolve({ chosen: [sampleStatus(`b${++builds}`)], summary: sampleSummary() });
    const refresher = refreshWhileRead(cache, clock, 250);
    expect(clock.pending()).toBe(0);
    refresher.touch();
    await cache.read('a', CheckStatusesQuerySchema.parse({}), build);
    await clock.advance(1_500);
    expect(builds).toBe(2); // built again ahead of the next request
    await clock.advance(31_000);
    expect(clock.pending()).toBe(0);
    const idle = builds;
    await clock.advance(10_000);
    expect(builds).toBe(idle);
    refresher.touch();
    expect(clock.pending()).toBe(1);
    refresher.stop();
    expect(clock.pending()).toBe(0);
  });
});

describe('GET /v1/check-statuses between results', () => {
  let svc: TestService;
  const auth = { authorization: `Bearer ${TEST_KEY}`, 'x-service-account': TEST_ACCOUNT };
  const first = async () => {
    const res = await fetch(`${svc.url}/v1/check-statuses?sortBy=status&limit=2`, { headers: auth });
    return CheckStatusListSchema.parse(await res.json());
  };
  beforeAll(async () => {
    svc = await startTestService({ checks: 6 });
  });
  afterAll(() => svc.close());

  it('shows a check that turned failing on the very next request', async () => {
    const before = await first();
    expect(before.meta.summary?.failing).toBe(0);
    await svc.seed('c5', ['failed', 'failed'], { location: 'eu-west' });
    await svc.seed('c5', ['failed', 'failed'], { location: 'us-east' });
    const after = await first();
    expect(after.data[0]!.checkId).toBe('c5');
    expect(after.data[0]!.status).toBe('failing');
    expect(after.meta.summary?.failing).toBe(1);
  });

  it('keeps its answer through results that move no status, and drops it for one that does', async () => {
    // Each batch a second after the last: two seeds in one millisecond would tie on startedAt.
    const at = Date.now() - 60_000;
    const seed = (statuses: Array<'success' | 'failed'>, location: string, endAt: number) =>
      svc.seed('c1', statuses, { location, endAt, spacingMs: 1_000 });
    await seed(['success', 'success', 'success'], 'eu-west', at);
    await seed(['success', 'success', 'success'], 'us-east', at);
    const settled = svc.engine.version();
    await seed(['success'], 'eu-west', at + 1_000);
    expect(svc.engine.version()).toBe(settled);
    await seed(['failed', 'failed'], 'eu-west', at + 3_000);
    await seed(['failed', 'failed'], 'us-east', at + 3_000);
    expect(svc.engine.version()).toBeGreaterThan(settled);
  });
});
