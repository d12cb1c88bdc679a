// The service's own health with a real full disk (docs/health.md): its SQLite file on a
// small tmpfs, filled while the scheduler runs and freed again. The statuses page and
// GET /v1/health say "degraded" with why, the log says it once and not once per run,
// and the service comes back by itself. Mounting needs root: elsewhere these are skipped.
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiErrorBodySchema, CheckStatusListSchema } from '../../../src/api/schemas/index.js';
import { ServiceConfigSchema } from '../../../src/server/config/schema.js';
import { startTestService, TEST_ACCOUNT, TEST_KEY, type TestService } from '../../helpers/service.js';
import { sampleResult } from '../../helpers/samples.js';
import { WRITES_QUIET_MS } from '../../../src/server/status/health.js';

const auth = { authorization: `Bearer ${TEST_KEY}`, 'x-service-account': TEST_ACCOUNT };
let dir = '';
let mounted = false;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'checkwall-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=6m', 'tmpfs', dir], { stdio: 'ignore' });
    mounted = true;
  } catch {
    mounted = false;
  }
});
afterAll(() => {
  if (mounted) execFileSync('umount', ['-l', dir]);
  rmSync(dir, { recursive: true, force: true });
});

/** Fills the file system with one file until it is full; removing it frees the disk. */
function fill(path: string) {
  const fd = openSync(path, 'w');
  const block = Buffer.alloc(64 * 1024, 1);
  try {
    for (;;) writeSync(fd, block);
  } catch (error) {
    if ((error as { code?: string }).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
  // The last blocks' worth too: a small write must find no room either.
  const small = openSync(`${path}.tail`, 'w');
  try {
    for (;;) writeSync(small, Buffer.alloc(512, 1));
  } catch {
    // full
  } finally {
    closeSync(small);
  }
}

const free = (path: string) => {
  rmSync(path, { force: true });
  rmSync(`${path}.tail`, { force: true });
};

function config(frequency: string) {
  return ServiceConfigSchema.parse({
    accounts: [
      {
        id: TEST_ACCOUNT,
        apiKeys: [TEST_KEY],
        locations: [{ id: 'eu-west', name: 'Frankfurt', region: 'eu-central-1' }],
        checks: Array.from({ length: 4 }, (_, i) => ({
          id: `c${i + 1}`,
          name: `Check ${i + 1}`,
          type: 'tcp',
          // Refused at once: every run is a quick failed result, stored as any other.
          target: '127.0.0.1:9',
          frequency,
          locations: ['eu-west'],
        })),
      },
    ],
  });
}

async function service(svc: TestService) {
  const res = await fetch(`${svc.url}/v1/check-statuses`, { headers: auth });
  expect(res.status).toBe(200);
  return CheckStatusListSchema.parse(await res.json()).meta.service;
}

async function health(svc: TestService) {
  const res = await fetch(`${svc.url}/v1/health`);
  return { status: res.status, body: (await res.json()) as { status: string } };
}

describe('a full disk under a running service (SQLite on a small tmpfs)', () => {
  it('says degraded with storage.write, logs it once, not per run, and recovers by itself', async (ctx) => {
    if (!mounted) return ctx.skip();
    const lines: string[] = [];
    const errors = vi.spyOn(console, 'error');
    const svc = await startTestService({
      config: config('1s'),
      dbPath: join(dir, 'running.db'),
      startScheduler: true,
      log: (line) => lines.push(line),
    });
    const filler = join(dir, 'filler');
    try {
      await expect.poll(() => svc.runStats().stored, { timeout: 15_000 }).toBeGreaterThan(4);
      // (Runs may be skipped while the run workers start: only the storage is looked at here.)
      expect((await service(svc))?.reasons.map((r) => r.code)).not.toContain('storage.write');

      fill(filler);
      const dueAtFull = svc.runStats().due;
      await expect
        .poll(async () => (await service(svc))?.reasons.map((r) => r.code), { timeout: 15_000 })
        .toContain('storage.write');
      const meta = await service(svc);
      expect(meta?.status).toBe('degraded');
      expect(meta?.reasons.find((r) => r.code === 'storage.write')?.message).toMatch(
        /^storage writes are failing: .*SQLITE_FULL/,
      );
      expect(await health(svc)).toEqual({ status: 200, body: { status: 'degraded' } });
      // Twelve runs came due on a full disk: each failed to store.
      await expect.poll(() => svc.runStats().due - dueAtFull, { timeout: 20_000 }).toBeGreaterThan(12);
      // One line for the spell, not one a run. The minute's summary ("… failing still: N more")
      // may come too: it falls on the clock's whole minutes, seconds after the disk filled.
      expect(
        lines.filter((l) => l.startsWith('storage writes are failing: ')),
        lines.join('\n'),
      ).toHaveLength(1);
      expect(lines.filter((l) => l.startsWith('storage writes are failing still:')).length).toBeLessThan(2);
      const perRun = errors.mock.calls.filter((c) => /run of|cannot offer/.test(String(c[0])));
      expect(perRun).toEqual([]);

      free(filler);
      await expect
        .poll(async () => (await service(svc))?.reasons.map((r) => r.code), { timeout: 15_000 })
        .not.toContain('storage.write');
      expect(
        lines.filter((l) => /^storage writes work again after \d+ s \(\d+ failures\)$/.test(l)),
      ).toHaveLength(1);
      const storedThen = svc.runStats().stored;
      await expect.poll(() => svc.runStats().stored, { timeout: 15_000 }).toBeGreaterThan(storedThen + 4);
    } finally {
      free(filler);
      errors.mockRestore();
      await svc.close();
    }
  }, 90_000);

  it('is ok again, on the page and at /v1/health, once a write succeeds', async (ctx) => {
    if (!mounted) return ctx.skip();
    const lines: string[] = [];
    // No scheduler: the only writes are the results recorded here, so no run is skipped,
    // and the service's time may be moved on (past the quiet that ends a write fault).
    let ahead = 0;
    const svc = await startTestService({
      config: config('1h'),
      dbPath: join(dir, 'quiet.db'),
      log: (l) => lines.push(l),
      now: () => Date.now() + ahead,
    });
    const filler = join(dir, 'filler');
    const result = (i: number) =>
      sampleResult(`r-${i}`, { checkId: 'c1', startedAt: new Date(Date.now() - 1_000).toISOString() });
    try {
      fill(filler);
      // A large body, so the write cannot fit in what a page of the file has left, nor in the
      // WAL's own space, which a checkpoint made free for reuse (storage/sqlite/checkpoint.ts).
      const big = { ...result(1), response: { ...result(1).response!, body: 'x'.repeat(1024 * 1024) } };
      await expect(svc.storage.insertResult(TEST_ACCOUNT, big)).rejects.toMatchObject({
        code: expect.stringMatching(/^SQLITE_FULL/) as unknown,
      });
      expect((await service(svc))?.status).toBe('degraded');
      expect(await health(svc)).toEqual({ status: 200, body: { status: 'degraded' } });
      // A read still answers while the disk is full.
      const read = await fetch(`${svc.url}/v1/check-results/c1?period=1h`, { headers: auth });
      expect(read.status).toBe(200);

      free(filler);
      // A write that fits right after one that failed is no recovery yet (a disk nearly full).
      await svc.storage.insertResult(TEST_ACCOUNT, result(2));
      expect((await service(svc))?.status).toBe('degraded');
      ahead = WRITES_QUIET_MS;
      await svc.storage.insertResult(TEST_ACCOUNT, result(3));
      expect(await service(svc)).toEqual({ status: 'ok', reasons: [] });
      expect(await health(svc)).toEqual({ status: 200, body: { status: 'ok' } });
      expect(lines).toEqual([
        expect.stringMatching(/^storage writes are failing: .*SQLITE_FULL/) as unknown,
        expect.stringMatching(/^storage writes work again after \d+ s \(1 failure\)$/) as unknown,
      ]);
    } finally {
      free(filler);
      await svc.close();
    }
  }, 60_000);
});

describe('the probes', () => {
  it('/v1/health and /v1/ready answer without credentials; other routes still need them', async () => {
    const svc = await startTestService();
    try {
      expect(await health(svc)).toEqual({ status: 200, body: { status: 'ok' } });
      const ready = await fetch(`${svc.url}/v1/ready`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ status: 'ready' });
      const closed = await fetch(`${svc.url}/v1/check-statuses`);
      expect(closed.status).toBe(401);
      ApiErrorBodySchema.parse(await closed.json());
    } finally {
      await svc.close();
    }
  });
});
