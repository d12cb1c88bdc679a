// `checkwall [console]`: the board on the configured service.
import { parseArgs } from 'node:util';
import { createClient } from '../api/client.js';
import { runConsoleApp } from './run-console.js';
import { CONNECTION_OPTIONS, resolveSettings, SettingsError } from './settings.js';
import { CONSOLE_USAGE, usageError } from './usage.js';

export const DISPLAY_OPTIONS = {
  refresh: { type: 'string', default: '10' },
  'no-color': { type: 'boolean', default: false },
  ascii: { type: 'boolean', default: false },
} as const;

/** --refresh in seconds, at least 2. */
export function parseRefresh(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--refresh takes seconds, got "${value}"`);
  return Math.max(2, n);
}

export async function runConsole(argv: string[]): Promise<number> {
  let values;
  let refresh: number;
  try {
    values = parseArgs({
      args: argv,
      strict: true,
      options: { ...CONNECTION_OPTIONS, ...DISPLAY_OPTIONS, public: { type: 'string' } },
    }).values;
    refresh = parseRefresh(values.refresh);
  } catch (error) {
    return usageError('console', error, CONSOLE_USAGE);
  }
  if (values.public !== undefined) {
    const { runPublic } = await import('./public.js');
    return runPublic({
      url: values.public,
      refreshSeconds: refresh,
      color: values['no-color'] ? false : undefined,
      ascii: values.ascii,
      connectionFlags: Object.keys(CONNECTION_OPTIONS)
        .filter((k) => values[k as keyof typeof CONNECTION_OPTIONS] !== undefined)
        .map((k) => `--${k}`),
    });
  }
  let settings;
  try {
    settings = resolveSettings(values);
  } catch (error) {
    if (!(error instanceof SettingsError)) throw error;
    process.stderr.write(`checkwall: ${error.message}\n`);
    return 2;
  }
  const client = createClient({
    baseUrl: settings.baseUrl,
    apiKey: settings.apiKey,
    accountId: settings.accountId,
  });
  return runConsoleApp({
    client,
    label: settings.label,
    refreshSeconds: refresh,
    color: values['no-color'] ? false : undefined,
    ascii: values.ascii,
  });
}
