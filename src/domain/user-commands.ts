// The engineer's own commands (docs/console.md, "Your own commands"): argv from
// the config file, run without a shell. A placeholder is replaced whole inside
// the one argument that holds it, never split into more; the values lose their
// control characters first, and a value that would begin an argument with `-`
// stops the command (it would be read as an option). With `shell: true` the text goes to `sh -c` as it
// is and the values only as environment variables: never spliced into the text.

export const USER_SCOPES = ['board', 'check', 'result'] as const;
export type UserScope = (typeof USER_SCOPES)[number];

export interface UserCommand {
  key: string;
  name: string;
  scope: UserScope;
  run: string[];
  confirm?: boolean | undefined;
  needs?: 'operate' | undefined;
  shell?: boolean | undefined;
}

/** What the placeholders stand for; '' where there is nothing (no result yet, no check). */
export interface CommandValues {
  checkId: string;
  checkName: string;
  target: string;
  location: string;
  resultId: string;
  baseUrl: string;
}

const PLACEHOLDERS: Record<string, keyof CommandValues> = {
  'check.id': 'checkId',
  'check.name': 'checkName',
  target: 'target',
  location: 'location',
  'result.id': 'resultId',
  baseUrl: 'baseUrl',
};

/* eslint-disable-next-line no-control-regex -- stripping control characters is the point */
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;
const clean = (text: string) => text.replace(CONTROLS, '');

/** Each argument with its placeholders replaced; one argument in, one out. */
export function expandArgs(run: readonly string[], values: CommandValues): string[] {
  return run.map((arg) =>
    arg.replace(/\{(check\.id|check\.name|target|location|result\.id|baseUrl)\}/g, (_, name: string) =>
      clean(values[PLACEHOLDERS[name]!]),
    ),
  );
}

/**
 * The first argument (after the program, before a `--`) that a value makes begin with `-`, which
 * the program would read as an option (`ssh '-oProxyCommand=…'` runs it): such a command is not
 * run. Null when there is none; an argument the config itself begins with `-` is its own.
 */
export function optionFromValue(run: readonly string[], values: CommandValues): string | null {
  const expanded = expandArgs(run, values);
  for (let i = 1; i < run.length; i++) {
    if (run[i] === '--') return null;
    if (expanded[i]!.startsWith('-') && !run[i]!.startsWith('-')) return expanded[i]!;
  }
  return null;
}

/** The values as CHECKWALL_* variables, for `shell: true` (and beside every run). */
export function commandEnv(values: CommandValues): Record<string, string> {
  return {
    CHECKWALL_CHECK_ID: clean(values.checkId),
    CHECKWALL_CHECK_NAME: clean(values.checkName),
    CHECKWALL_TARGET: clean(values.target),
    CHECKWALL_LOCATION: clean(values.location),
    CHECKWALL_RESULT_ID: clean(values.resultId),
    CHECKWALL_BASE_URL: clean(values.baseUrl),
  };
}

/** What is spawned: the argv as given, or `sh -c TEXT` with the words after it as $0, $1… */
export function commandArgv(command: UserCommand, values: CommandValues): string[] {
  if (command.shell) return ['sh', '-c', ...command.run];
  return expandArgs(command.run, values);
}
