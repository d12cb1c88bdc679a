// `checkwall wall`: the console for a screen nobody touches.
import { parseArgs } from 'node:util';
import type { MonitoringClient } from '../api/client.js';
import { parseFilter } from '../domain/filter.js';
import type { Scope } from '../store/types.js';
import { DISPLAY_OPTIONS, parseRefresh } from './console.js';
import { dashboardScope } from './dashboard-scope.js';
import { startEmbeddedDemo } from './demo.js';
import { runConsoleApp } from './run-console.js';
import { clientFromSettings, CONNECTION_OPTIONS } from './settings.js';
import { usageError, WALL_USAGE } from './usage.js';

const OPTIONS = {
  ...CONNECTION_OPTIONS,
  ...DISPLAY_OPTIONS,
  dashboard: { type: 'string' },
  filter: { type: 'string', default: '' },
  cycle: { type: 'string', default: '8' },
  bell: { type: 'boolean', default: false },
  demo: { type: 'boolean', default: false },
} as const;

export async function runWall(argv: string[]): Promise<number> {
  let values;
  let refresh: number;
  let cycle: number;
  try {
    values = parseArgs({ args: argv, strict: true, options: OPTIONS }).values;
    refresh = parseRefresh(values.refresh);
    cycle = Number(values.cycle);
    if (!Number.isFinite(cycle) || cycle < 1)
      throw new Error(`--cycle takes seconds (at least 1), got "${values.cycle}"`);
    const { errors } = parseFilter(values.filter);
    if (errors.length) throw new Error(`--filter: ${errors.join('; ')}`);
  } catch (error) {
    return usageError('wall', error, WALL_USAGE);
  }
  let client: MonitoringClient;
  let label = 'demo';
  let close = async () => undefined as void;
  if (values.demo) {
    const embedded = await startEmbeddedDemo();
    client = embedded.client;
    close = embedded.close;
  } else {
    const account = clientFromSettings(values, 'checkwall wall');
    if (!account) return 2;
    ({ client, label } = account);
  }
  try {
    let scope: Scope | null = null;
    if (values.dashboard) {
      const found = await dashboardScope(client, values.dashboard);
      if (typeof found === 'string') {
        process.stderr.write(`checkwall wall: ${found}\n`);
        return 2;
      }
      // The header names the dashboard from the scope ("dashboard Operations"), once.
      scope = found;
    }
    return await runConsoleApp({
      client,
      label,
      refreshSeconds: refresh,
      color: values['no-color'] ? false : undefined,
      ascii: values.ascii,
      links: !values['no-links'],
      initialView: { name: 'wall', scope },
      wallCycleMs: cycle * 1000,
      bell: values.bell,
      setup: (store) => {
        store.getState().setFilter(values.filter);
      },
    });
  } finally {
    await close();
  }
}
