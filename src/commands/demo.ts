// `checkwall demo` (and `npm start`): the embedded service with its demo
// targets on a free loopback port, in this process, and the console on it.
import { parseArgs } from 'node:util';
import { createClient, type MonitoringClient } from '../api/client.js';
import { startDemo } from '../server/demo/index.js';
import { createService } from '../server/service/index.js';
import { checkedUserCommands, DISPLAY_OPTIONS, parseRefresh } from './console.js';
import { runConsoleApp } from './run-console.js';
import { DEMO_USAGE, usageError } from './usage.js';

export interface EmbeddedDemo {
  client: MonitoringClient;
  /** The demo's public dashboard as its status page (docs/status-page.md). */
  statusPageUrl: string;
  close(): Promise<void>;
}

/** The demo service in this process, and a client with its credentials. */
export async function startEmbeddedDemo(dbPath = ':memory:'): Promise<EmbeddedDemo> {
  const demo = await startDemo();
  const service = await createService({ config: demo.config, dbPath, host: '127.0.0.1', port: 0 });
  demo.startPinger(service.url);
  const board = demo.config.accounts[0]?.dashboards.find((d) => !d.isPrivate);
  return {
    client: createClient({ baseUrl: service.url, ...demo.credentials }),
    statusPageUrl: `${service.url}/status/${board?.customUrl ?? 'status'}`,
    async close() {
      await service.close();
      await demo.close();
    },
  };
}

export async function runDemo(argv: string[]): Promise<number> {
  let values;
  let refresh: number;
  try {
    values = parseArgs({
      args: argv,
      strict: true,
      options: { ...DISPLAY_OPTIONS, db: { type: 'string', default: ':memory:' } },
    }).values;
    refresh = parseRefresh(values.refresh);
  } catch (error) {
    return usageError('demo', error, DEMO_USAGE);
  }
  // The config file's own commands work on the demo as on any service (checked before it starts).
  const userCommands = await checkedUserCommands();
  if (!userCommands) return 2;
  const embedded = await startEmbeddedDemo(values.db);
  // The status page's path is in the console's header, beside the service's address.
  try {
    return await runConsoleApp({
      client: embedded.client,
      label: `demo, status page ${new URL(embedded.statusPageUrl).pathname}`,
      statusPageUrl: embedded.statusPageUrl,
      refreshSeconds: refresh,
      color: values['no-color'] ? false : undefined,
      ascii: values.ascii,
      links: !values['no-links'],
      userCommands,
    });
  } finally {
    await embedded.close();
  }
}
