// A heartbeat's failed run on its page: exit code, duration and the last 1 KB of its output.
import { describe, expect, it } from 'vitest';
import { buildPayload } from '../../../src/server/alerting/payload.js';
import { heartbeatResult } from '../../../src/server/heartbeats/results.js';
import { accountConfig } from '../../helpers/configs.js';

const config = accountConfig({
  checks: [{ id: 'backup', type: 'heartbeat', token: 'hb-backup-0123456789', frequency: '1h' }],
});
const check = config.accounts[0]!.checks[0]!;
const location = config.accounts[0]!.locations[0]!;
/** What each page here has besides its event and result. */
const base = {
  alertId: 'a1',
  check,
  status: null,
  incidentId: null,
  occurredAt: 1_000_000,
  publicUrl: undefined,
  channel: { id: 1, name: 'pager' },
};

describe('a heartbeat failure’s payload', () => {
  it('carries the exit code, the duration and the output’s last 1 KB', () => {
    const output = `${'a'.repeat(3000)}${'z'.repeat(1000)}end\n`;
    const result = heartbeatResult({
      check,
      location,
      end: 'exit',
      exitCode: 3,
      at: 1_000_000,
      startedAt: 990_000,
      output: { text: output, size: output.length, method: 'POST' },
    });
    const payload = buildPayload({ ...base, event: 'failure', result });
    expect(payload.heartbeat).toEqual({ exitCode: 3, durationMs: 10_000, outputTail: output.slice(-1024) });
    const ok = heartbeatResult({ check, location, end: 'success', at: 1_000_000, startedAt: null });
    const recovered = buildPayload({ ...base, event: 'recovery', result: ok });
    expect(recovered.heartbeat).toBeUndefined();
  });

  it('cuts the output on a character: a euro sign cut in two is dropped, not shown as marks', () => {
    // The last 1 KB begins one byte into the €.
    const output = `${'a'.repeat(3000)}x€${'z'.repeat(1022)}`;
    const result = heartbeatResult({
      check,
      location,
      end: 'exit',
      exitCode: 1,
      at: 1_000_000,
      startedAt: null,
      output: { text: output, size: Buffer.byteLength(output), method: 'POST' },
    });
    const payload = buildPayload({ ...base, event: 'failure', result });
    expect(payload.heartbeat).toEqual({ exitCode: 1, durationMs: 0, outputTail: 'z'.repeat(1022) });
  });
});
