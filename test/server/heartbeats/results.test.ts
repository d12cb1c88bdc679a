// A heartbeat's silence in words (docs/service.md, "Heartbeats"): its time in the check's
// zone, the zone named unless it is UTC, as every other clock of the console and the pages is.
import { describe, expect, it } from 'vitest';
import { heartbeatResult } from '../../../src/server/heartbeats/results.js';
import { accountConfig } from '../../helpers/configs.js';

const config = accountConfig({
  checks: [
    { id: 'hourly', type: 'heartbeat', token: 'hb-hourly-0123456789', frequency: '1h', grace: '5m' },
    {
      id: 'berlin',
      type: 'heartbeat',
      token: 'hb-berlin-0123456789',
      frequency: undefined,
      schedule: '30 2 * * *',
      timezone: 'Europe/Berlin',
      grace: '10m',
      maxRunTime: '2h',
    },
  ],
});
const [hourly, berlin] = config.accounts[0]!.checks;
const location = config.accounts[0]!.locations[0]!;
const due = Date.parse('2026-03-29T01:00:00Z'); // 02:30 skipped by spring-forward: 03:00 CEST

describe('a heartbeat silence’s message', () => {
  it('names the zone of a schedule read in one', () => {
    const missed = heartbeatResult({
      check: berlin!,
      location,
      end: 'missed',
      at: due + 600_000,
      startedAt: null,
      dueAt: due,
    });
    expect(missed.error?.message).toBe('no ping for the run due at 03:00:00 Europe/Berlin (grace 10m)');
    const overrun = heartbeatResult({
      check: berlin!,
      location,
      end: 'overrun',
      at: due + 7_200_000,
      startedAt: due + 2_000,
    });
    expect(overrun.error?.message).toBe('started 03:00:02 Europe/Berlin, no end after 2h');
  });

  it('says UTC times bare, as the console does', () => {
    const missed = heartbeatResult({
      check: hourly!,
      location,
      end: 'missed',
      at: due + 300_000,
      startedAt: null,
      dueAt: due,
    });
    expect(missed.error?.message).toBe('no ping for the run due at 01:00:00 (grace 5m)');
  });
});
