// `checkwall demo` (and `npm start`): the embedded service with its demo
// targets on a free loopback port, in this process, and the console on it.
import { parseArgs } from 'node:util';
import { createClient } from '../api/client.js';
import { startDemo } from '../server/demo/index.js';
import { createService } from '../server/service.js';
import { DISPLAY_OPTIONS, parseRefresh } from './console.js';
import { runConsoleApp } from './run-console.js';
import { DEMO_USAGE, usageError } from './usage.js';

export async function runDemo(argv: string[]): Promise<number> {
  let values;
  let refresh: number;
  try {
    values = parseArgs({ args: argv, strict: true, options: { ...DISPLAY_OPTIONS, db: { type: 'string', default: ':memory:' } } }).values;
    refresh = parseRefresh(values.refresh);
  } catch (error) {
    return usageError('demo', error, DEMO_USAGE);
  }
  const demo = await startDemo();
  const service = await createService({ config: demo.config, dbPath: values.db, host: '127.0.0.1', port: 0 });
  demo.startPinger(service.url);
  const client = createClient({ baseUrl: service.url, ...demo.credentials });
  try {
    return await runConsoleApp({ client, label: 'demo', refreshSeconds: refresh, color: values['no-color'] ? false : undefined, ascii: values.ascii });
  } finally {
    await service.close();
    await demo.close();
  }
}
