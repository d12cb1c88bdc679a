// The console's words for a heartbeat's next ping: a run under way first, then a first
// ping awaited, then the next one due; nothing for other checks or a service without them.
import { describe, expect, it } from 'vitest';
import { heartbeatWhen } from '../../src/domain/heartbeat-words.js';

describe('a heartbeat’s next ping, in words', () => {
  it.each([
    [{ runningSince: '2026-11-28T03:00:02Z', nextPingDue: '2026-11-28T03:10:00Z' }, 'running since 03:00:02'],
    [{ awaitingFirstPing: { dueBy: '2026-11-28T03:10:00Z' } }, 'waiting for the first ping, due by 03:10:00'],
    [{ nextPingDue: '2026-11-29T03:00:00Z' }, 'next ping due 03:00:00'],
    [{}, null],
  ])('%j → %s', (times, words) => {
    expect(heartbeatWhen({ checkType: 'heartbeat', ...times })).toBe(words);
  });

  it('says nothing of another check type', () => {
    expect(heartbeatWhen({ checkType: 'api', nextPingDue: '2026-11-29T03:00:00Z' })).toBeNull();
  });
});
