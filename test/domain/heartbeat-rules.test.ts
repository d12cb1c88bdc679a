import { describe, expect, it } from 'vitest';
import { judgeHeartbeat, type HeartbeatPlan } from '../../src/domain/heartbeat-rules.js';

const M = 60_000;
const START = Date.parse('2026-11-23T10:00:00.000Z');
const hourly: HeartbeatPlan = { periodMs: 60 * M, graceMs: 5 * M, maxRunMs: 5 * M };
const facts = (over: Partial<Parameters<typeof judgeHeartbeat>[1]>) => ({
  now: START,
  serviceStartedAt: START,
  changedAt: null,
  lastEndAt: null,
  openStartAt: null,
  ...over,
});

describe('a heartbeat judged', () => {
  it('never pinged: waiting until its first due time plus grace, late at that boundary', () => {
    const waiting = judgeHeartbeat(hourly, facts({ now: START + 65 * M - 1 }));
    expect(waiting.awaitingFirstPing).toEqual({ dueBy: START + 65 * M });
    expect(waiting.missed).toBeUndefined();
    expect(waiting.nextPingDue).toBe(START + 60 * M);
    expect(waiting.wakeAt).toBe(START + 65 * M);
    const late = judgeHeartbeat(hourly, facts({ now: START + 65 * M }));
    expect(late.awaitingFirstPing).toBeUndefined();
    expect(late.missed).toEqual({ dueAt: START + 60 * M });
    expect(late.nextPingDue).toBe(START + 120 * M);
  });

  it('after a restart, a first ping is awaited from the start again', () => {
    // Never pinged, and the service came back at START: not late at START + 64 min.
    const j = judgeHeartbeat(hourly, facts({ now: START + 64 * M, serviceStartedAt: START }));
    expect(j.awaitingFirstPing).toEqual({ dueBy: START + 65 * M });
  });

  it('a due time that fell while the service was down is not late before grace since the start', () => {
    const lastEndAt = START - 90 * M; // due at START - 30 min, while down
    expect(judgeHeartbeat(hourly, facts({ lastEndAt, now: START + 5 * M - 1 })).missed).toBeUndefined();
    expect(judgeHeartbeat(hourly, facts({ lastEndAt, now: START + 5 * M })).missed).toEqual({
      dueAt: START - 30 * M,
    });
  });

  it('after a change of schedule, frequency, grace or token, the old pings do not count', () => {
    const j = judgeHeartbeat(
      hourly,
      facts({ lastEndAt: START + 10 * M, changedAt: START + 20 * M, now: START + 30 * M }),
    );
    expect(j.awaitingFirstPing).toEqual({ dueBy: START + 85 * M });
  });

  it('a ping within grace is on time; a run under way is judged by its own deadline', () => {
    const lastEndAt = START + 1 * M;
    const onTime = judgeHeartbeat(hourly, facts({ lastEndAt, now: START + 66 * M - 1 }));
    expect(onTime.missed).toBeUndefined();
    expect(onTime.nextPingDue).toBe(START + 61 * M);
    const running = judgeHeartbeat(
      hourly,
      facts({ lastEndAt, openStartAt: START + 61 * M, now: START + 66 * M }),
    );
    expect(running.missed).toBeUndefined();
    expect(running.overrun).toEqual({ startedAt: START + 61 * M });
  });

  it('a cron job that pings before its due time has not answered it (Healthchecks.io: too early)', () => {
    // Decision (docs/decisions.md, "Heartbeats"): the ping at 02:59:58 is the day before's run.
    const plan: HeartbeatPlan = {
      schedule: { expression: '0 3 * * *', timezone: 'UTC' },
      graceMs: 15 * M,
      maxRunMs: 15 * M,
    };
    const due = Date.parse('2026-11-24T03:00:00Z');
    const base = { serviceStartedAt: START, lastEndAt: due - 2_000 };
    expect(judgeHeartbeat(plan, facts({ ...base, now: due + 15 * M - 1 })).missed).toBeUndefined();
    expect(judgeHeartbeat(plan, facts({ ...base, now: due + 15 * M })).missed).toEqual({ dueAt: due });
  });

  it('a cron schedule: late after its due time plus grace, across spring-forward in Berlin', () => {
    const plan: HeartbeatPlan = {
      schedule: { expression: '30 2 * * *', timezone: 'Europe/Berlin' },
      graceMs: 10 * M,
      maxRunMs: 10 * M,
    };
    const start = Date.parse('2026-03-28T12:00:00Z');
    const due = Date.parse('2026-03-29T01:00:00Z'); // 02:30 skipped: 03:00 CEST
    const base = { serviceStartedAt: start, lastEndAt: start };
    expect(judgeHeartbeat(plan, facts({ ...base, now: start + M })).nextPingDue).toBe(due);
    expect(judgeHeartbeat(plan, facts({ ...base, now: due + 10 * M - 1 })).missed).toBeUndefined();
    expect(judgeHeartbeat(plan, facts({ ...base, now: due + 10 * M })).missed).toEqual({ dueAt: due });
  });
});
