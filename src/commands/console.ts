// `checkwall [console]`: the board on the configured service.
import { parseArgs } from 'node:util';
import { runConsoleApp } from './run-console.js';
import { clientFromSettings, CONNECTION_OPTIONS, readUserCommands, SettingsError } from './settings.js';
import type { UserCommand } from '../domain/user-commands.js';
import { CONSOLE_USAGE, usageError } from './usage.js';

export const DISPLAY_OPTIONS = {
  refresh: { type: 'string', default: '10' },
  'no-color': { type: 'boolean', default: false },
  ascii: { type: 'boolean', default: false },
  'no-links': { type: 'boolean', default: false },
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
  const account = clientFromSettings(values, 'checkwall');
  if (!account) return 2;
  const userCommands = await checkedUserCommands();
  if (!userCommands) return 2;
  return runConsoleApp({
    client: account.client,
    label: account.label,
    refreshSeconds: refresh,
    color: values['no-color'] ? false : undefined,
    ascii: values.ascii,
    links: !values['no-links'],
    userCommands,
  });
}

/** The config file's commands once their keys are checked; null after saying on stderr what is wrong. */
export async function checkedUserCommands(
  env: NodeJS.ProcessEnv = process.env,
): Promise<UserCommand[] | null> {
  let commands: UserCommand[];
  try {
    commands = readUserCommands(env);
  } catch (error) {
    if (!(error instanceof SettingsError)) throw error;
    process.stderr.write(`checkwall: ${error.message}\n`);
    return null;
  }
  if (commands.length === 0) return commands;
  const { userKeyProblems } = await import('../ui/user-keys.js');
  const problems = userKeyProblems(commands);
  for (const p of problems) process.stderr.write(`checkwall: ${p}\n`);
  return problems.length ? null : commands;
}
