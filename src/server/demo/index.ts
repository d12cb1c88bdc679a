// `checkwall demo` / `serve --demo`: targets, a config of about twenty checks
// over three locations, a heartbeat job that pings (and sometimes misses), and
// the receivers its alert channels deliver to.
import type { ServiceConfig } from '../config/schema.js';
import { demoConfig, DEMO_ACCOUNT_ID, DEMO_API_KEY, HEARTBEAT_TOKENS } from './config.js';
import { startDemoReceivers } from './receivers.js';
import { startDemoTargets } from './targets.js';

export interface Demo {
  config: ServiceConfig;
  credentials: { accountId: string; apiKey: string };
  startPinger(baseUrl: string): void;
  close(): Promise<void>;
}

const PING_EVERY_MS = 10_000;

export async function startDemo(env: NodeJS.ProcessEnv = process.env): Promise<Demo> {
  const targets = await startDemoTargets();
  const receivers = await startDemoReceivers();
  // Both or neither: half of the environment's account with half of the demo's is no account.
  const fromEnv = Boolean(env['CHECKWALL_ACCOUNT_ID'] && env['CHECKWALL_API_KEY']);
  const accountId = (fromEnv && env['CHECKWALL_ACCOUNT_ID']) || DEMO_ACCOUNT_ID;
  const apiKey = (fromEnv && env['CHECKWALL_API_KEY']) || DEMO_API_KEY;
  const config = demoConfig(targets, { accountId, apiKey }, receivers);
  let timer: NodeJS.Timeout | undefined;
  return {
    config,
    credentials: { accountId, apiKey },
    startPinger(baseUrl: string) {
      const ping = (token: string) =>
        fetch(`${baseUrl}/v1/heartbeats/${token}`, { method: 'POST' }).catch(() => undefined);
      const tick = () => {
        void ping(HEARTBEAT_TOKENS.worker);
        // The backup job goes quiet for a minute out of every three, so its misses show.
        if (Math.floor(Date.now() / 60_000) % 3 !== 2) void ping(HEARTBEAT_TOKENS.backup);
      };
      tick();
      timer = setInterval(tick, PING_EVERY_MS).unref();
    },
    async close() {
      clearInterval(timer);
      await Promise.all([targets.close(), receivers.close()]);
    },
  };
}
