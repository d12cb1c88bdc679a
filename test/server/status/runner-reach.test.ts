// Runner reach, the status engine's input: which remote locations have gone unheard of, and
// when the others would turn.
import { describe, expect, it } from 'vitest';
import { runnerReach } from '../../../src/server/status/runner-reach.js';

describe("runner reach (the engine's input)", () => {
  const locations = [
    { id: 'near', name: 'Near', region: 'x', remote: false },
    { id: 'far', name: 'Far', region: 'x', remote: true },
    { id: 'dark', name: 'Dark', region: 'x', remote: true },
  ];
  const seen = (id: string) => (id === 'far' ? 90_000 : null);

  it('names the remote locations unheard of for 3 x the frequency, and when the others would turn', () => {
    expect(runnerReach(seen, locations, { type: 'api' }, 2_000, 95_000)).toEqual({
      missing: [undefined, undefined, 'no runner connected for Dark'],
      until: 96_001,
    });
    expect(runnerReach(seen, locations, { type: 'api' }, 2_000, 96_001).missing[1]).toBe(
      'no runner connected for Far',
    );
    // Heartbeats are judged by the service, remote location or not.
    expect(runnerReach(seen, locations, { type: 'heartbeat' }, 2_000, 200_000)).toEqual({
      missing: [undefined, undefined, undefined],
      until: Infinity,
    });
  });
});
