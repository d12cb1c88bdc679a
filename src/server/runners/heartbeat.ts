// The heartbeat "runner" checks, on each tick, that the job pinged within its
// period plus grace. Nothing is fetched: the job calls us.
import { frequencyToMs } from '../config/schema.js';
import type { RunCheck } from './types.js';
import { finishResult, namedError, startFrame } from './result.js';

export const runHeartbeatCheck: RunCheck = async (account, check, location, ctx, triggeredBy) => {
  const frame = startFrame(check, location, triggeredBy);
  const allowed = frequencyToMs(check.frequency) + frequencyToMs(check.grace ?? '30s');
  const last = await ctx.lastPingAt(account.id, check.id);
  const now = ctx.now();
  const request = {
    method: 'PING',
    url: `/v1/heartbeats/${check.token ? '…' : ''}`,
    headers: {},
    body: null,
  };
  const late = last === null || now - last > allowed;
  const error = late
    ? namedError(
        'MissedHeartbeat',
        last === null
          ? 'no ping received yet'
          : `last ping ${Math.round((now - last) / 1000)} s ago; expected every ${check.frequency} plus ${check.grace ?? '30s'} grace`,
      )
    : undefined;
  return finishResult(frame, { request, response: null, timing: {}, assertions: [], error });
};
