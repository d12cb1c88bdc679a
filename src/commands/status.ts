// `checkwall status`: one request cycle, a plain table or JSON, and an exit
// code for scripts: 0 all passing, 1 anything else, 2 could not tell.
import { parseArgs } from 'node:util';
import { readAllStatuses } from '../api/client.js';
import { describeError } from '../api/errors.js';
import { filterToQuery, matchesFilter, parseFilter } from '../domain/filter.js';
import { clientFromSettings, CONNECTION_OPTIONS } from './settings.js';
import { statusTable } from './status-table.js';
import { colorWanted } from './terminal.js';
import { STATUS_USAGE, usageError } from './usage.js';

export async function runStatus(argv: string[]): Promise<number> {
  let values;
  try {
    values = parseArgs({
      args: argv,
      strict: true,
      options: {
        ...CONNECTION_OPTIONS,
        json: { type: 'boolean', default: false },
        filter: { type: 'string', default: '' },
        'no-color': { type: 'boolean', default: false },
      },
    }).values;
  } catch (error) {
    return usageError('status', error, STATUS_USAGE);
  }
  const { filter, errors } = parseFilter(values.filter);
  if (errors.length > 0)
    return usageError('status', new Error(`--filter: ${errors.join('; ')}`), STATUS_USAGE);
  const account = clientFromSettings(values, 'checkwall status');
  if (!account) return 2;
  const { client } = account;
  try {
    const { checks, summary } = await readAllStatuses(client, filterToQuery(filter));
    const selected = checks.filter((c) => matchesFilter(c, filter));
    if (values.json) {
      process.stdout.write(`${JSON.stringify({ summary: summary ?? null, checks: selected })}\n`);
    } else {
      const tty = Boolean(process.stdout.isTTY);
      const width = tty ? process.stdout.columns || 80 : 80;
      const color = colorWanted(values['no-color'] ? false : undefined, process.env, tty);
      process.stdout.write(
        selected.length === 0 ? 'no check matches\n' : `${statusTable(selected, width, color)}\n`,
      );
    }
    return selected.every((c) => c.status === 'passing') ? 0 : 1;
  } catch (error) {
    process.stderr.write(`checkwall status: ${describeError(error)}\n`);
    return 2;
  } finally {
    await client.close();
  }
}
