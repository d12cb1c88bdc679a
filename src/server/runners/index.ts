// Dispatches a check to its runner. Browser and multistep checks need a real
// browser, which this service does not drive yet: the scheduler never runs them
// and the status engine reports them unknown, so no data is ever invented.
import type { RunCheck } from '../contracts.js';
import type { CheckConfig } from '../config-schema.js';
import { runHeartbeatCheck } from './heartbeat.js';
import { runHttpCheck } from './http.js';
import { runTcpCheck } from './tcp.js';

export function isRunnable(check: Pick<CheckConfig, 'type'>): boolean {
  return check.type !== 'browser' && check.type !== 'multistep';
}

export const runCheck: RunCheck = (account, check, location, ctx, triggeredBy) => {
  switch (check.type) {
    case 'api':
    case 'url':
      return runHttpCheck(account, check, location, ctx, triggeredBy);
    case 'tcp':
      return runTcpCheck(account, check, location, ctx, triggeredBy);
    case 'heartbeat':
      return runHeartbeatCheck(account, check, location, ctx, triggeredBy);
    case 'browser':
    case 'multistep':
      return Promise.reject(new Error(`${check.type} checks do not run in this service`));
  }
};
