// The service's health on its own, on a clock the test moves (test/helpers/fake-clock.ts):
// a storage fault's log (first failure, one summary a minute, the end), which errors are
// the database's faults, and the reasons read from skipped runs and remote runners.
import { describe, expect, it } from 'vitest';
import { ServiceConfigSchema } from '../../../src/server/config/schema.js';
import {
  createHealth,
  createStorageWatch,
  SUMMARY_EVERY_MS,
  WRITES_QUIET_MS,
} from '../../../src/server/status/health.js';
import { storageFault } from '../../../src/server/storage/observed.js';
import { createFakeClock } from '../../helpers/fake-clock.js';

const full = { kind: 'write', cause: 'database or disk is full (SQLITE_FULL)' } as const;

describe('the storage watch', () => {
  it('logs the first failure, then one count a minute, then one line when writes work again', async () => {
    const clock = createFakeClock();
    const lines: string[] = [];
    const watch = createStorageWatch(clock, (l) => lines.push(l));
    for (let i = 0; i < 300; i++) watch.listener.failed(full);
    expect(lines).toEqual(['storage writes are failing: database or disk is full (SQLITE_FULL)']);
    await clock.advance(SUMMARY_EVERY_MS);
    for (let i = 0; i < 10; i++) watch.listener.failed(full);
    await clock.advance(SUMMARY_EVERY_MS);
    // A minute with no failure says nothing.
    await clock.advance(SUMMARY_EVERY_MS);
    expect(lines.slice(1)).toEqual([
      'storage writes are failing still: 299 more failures in the last minute (database or disk is full (SQLITE_FULL))',
      'storage writes are failing still: 10 more failures in the last minute (database or disk is full (SQLITE_FULL))',
    ]);
    expect(watch.reasons()).toEqual([
      {
        code: 'storage.write',
        message: 'storage writes are failing: database or disk is full (SQLITE_FULL)',
        since: '2026-11-23T10:00:00.000Z',
      },
    ]);
    watch.listener.succeeded('write');
    expect(lines.at(-1)).toBe('storage writes work again after 180 s (310 failures)');
    expect(watch.reasons()).toEqual([]);
    watch.stop();
  });

  it('keeps a write fault through writes that succeed within the quiet after a failure', async () => {
    const clock = createFakeClock();
    const watch = createStorageWatch(clock, () => undefined);
    watch.listener.failed(full);
    await clock.advance(WRITES_QUIET_MS - 1);
    watch.listener.succeeded('write');
    expect(watch.reasons().map((r) => r.code)).toEqual(['storage.write']);
    await clock.advance(1);
    watch.listener.succeeded('write');
    expect(watch.reasons()).toEqual([]);
    watch.stop();
  });

  it('ends an unreachable database at the first call that succeeds', () => {
    const clock = createFakeClock();
    const watch = createStorageWatch(clock, () => undefined);
    watch.listener.failed({ kind: 'unreachable', cause: 'connect ECONNREFUSED 127.0.0.1:5432' });
    expect(watch.reasons().map((r) => r.code)).toEqual(['storage.unreachable']);
    watch.listener.succeeded('unreachable');
    expect(watch.reasons()).toEqual([]);
    watch.stop();
  });
});

describe('storageFault', () => {
  const err = (message: string, code?: string) => Object.assign(new Error(message), code ? { code } : {});
  it.each([
    [err('database or disk is full', 'SQLITE_FULL'), 'write', 'database or disk is full (SQLITE_FULL)'],
    [err('disk I/O error', 'SQLITE_IOERR_WRITE'), 'write', 'disk I/O error (SQLITE_IOERR_WRITE)'],
    [
      err('could not extend file: No space left on device', '53100'),
      'write',
      'could not extend file: No space left on device (53100)',
    ],
    [
      err('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'),
      'unreachable',
      'connect ECONNREFUSED 127.0.0.1:5432',
    ],
    [
      err('terminating connection due to administrator command', '57P01'),
      'unreachable',
      'terminating connection due to administrator command (57P01)',
    ],
    [err('Connection terminated unexpectedly'), 'unreachable', 'Connection terminated unexpectedly'],
    [err('no\u001b[2J way\nstack', 'SQLITE_FULL'), 'write', 'no way (SQLITE_FULL)'],
  ])('%s is a %s fault', (error, kind, cause) => {
    expect(storageFault(error)).toEqual({ kind, cause });
  });

  it.each([
    err('UNIQUE constraint failed: results.id', 'SQLITE_CONSTRAINT_PRIMARYKEY'),
    err('duplicate key value violates unique constraint', '23505'),
    err('a bug'),
    'not an error',
  ])('%s is no fault of the database', (error) => {
    expect(storageFault(error)).toBeNull();
  });
});

describe('the health', () => {
  const config = ServiceConfigSchema.parse({
    accounts: [
      {
        id: '0b6f3c52-7c1e-4d8a-9f2b-3c4d5e6f7a8b',
        name: 'Acme',
        apiKeys: ['cw_a_0123456789abcdef'],
        locations: [
          { id: 'here', name: 'Here', region: 'r1' },
          { id: 'far', name: 'Far away', region: 'r2', remote: true, runnerToken: 'runner-token-0123456789' },
        ],
        checks: [
          {
            id: 'c1',
            name: 'C1',
            type: 'api',
            target: 'http://x/',
            frequency: '1m',
            locations: ['here', 'far'],
          },
        ],
      },
    ],
  });

  it('is ok, then degraded by skipped runs and a remote location with no runner in touch, and ok again', async () => {
    const clock = createFakeClock();
    const watch = createStorageWatch(clock, () => undefined);
    let skipped = 0;
    let seenAt: number | null = clock.now();
    const health = createHealth({
      clock,
      storage: watch,
      skippedLastMinute: () => skipped,
      lastSeen: () => seenAt,
      config: () => config,
    });
    const ok = health.report();
    expect(ok).toEqual({ status: 'ok', reasons: [] });
    expect(health.report()).toBe(ok);

    skipped = 3;
    await clock.advance(2 * 60_000);
    expect(health.report()).toEqual({
      status: 'degraded',
      reasons: [
        {
          code: 'runs.skipped',
          message: '3 scheduled runs skipped in the last minute: the service is behind schedule',
          since: '2026-11-23T10:02:00.000Z',
        },
      ],
    });
    // More than three periods of the check (1 min) with no runner: its location cannot run it.
    await clock.advance(60_001);
    expect(health.report().reasons.map((r) => [r.code, r.message, r.since])).toEqual([
      [
        'runs.skipped',
        '3 scheduled runs skipped in the last minute: the service is behind schedule',
        '2026-11-23T10:02:00.000Z',
      ],
      ['runner.missing', 'no runner connected for Far away (account Acme)', '2026-11-23T10:00:00.000Z'],
    ]);
    watch.listener.failed(full);
    expect(health.report().reasons[0]?.code).toBe('storage.write');

    skipped = 0;
    seenAt = clock.now();
    await clock.advance(WRITES_QUIET_MS);
    watch.listener.succeeded('write');
    expect(health.report()).toEqual({ status: 'ok', reasons: [] });
    watch.stop();
  });
});
