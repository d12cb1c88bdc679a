// `checkwall run`'s arguments: the selection (checked by the wire's own schema,
// so a list too long is refused before any request), the timeout and the output.
import { parseArgs } from 'node:util';
import { CheckRunsCreateSchema, type CheckRunsCreate } from '../api/schemas/actions.js';
import { describeIssues } from '../api/schemas/index.js';
import { CONNECTION_OPTIONS, type SettingsFlags } from './settings.js';

export interface RunArgs {
  body: CheckRunsCreate;
  timeoutMs: number;
  json: boolean;
  flags: SettingsFlags;
}

const DEFAULT_TIMEOUT_MS = 120_000;

export function parseRunArgs(argv: string[]): RunArgs | { error: string } {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: true,
      options: {
        ...CONNECTION_OPTIONS,
        tag: { type: 'string', multiple: true },
        group: { type: 'string', multiple: true },
        location: { type: 'string', multiple: true },
        timeout: { type: 'string' },
        json: { type: 'boolean', default: false },
      },
    });
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
  const { values, positionals } = parsed;
  const timeoutMs = values.timeout === undefined ? DEFAULT_TIMEOUT_MS : parseTimeout(values.timeout);
  if (timeoutMs === undefined) {
    return { error: `--timeout: "${values.timeout}" is not a duration, e.g. 90s, 2m or 500ms` };
  }
  const body = {
    ...(positionals.length ? { checkIds: positionals } : {}),
    ...(values.tag ? { tags: values.tag } : {}),
    ...(values.group ? { groupIds: values.group } : {}),
    ...(values.location ? { locations: values.location } : {}),
    triggeredBy: 'api' as const,
  };
  if (!body.checkIds && !body.tags && !body.groupIds) {
    return { error: 'name the checks to run: check ids, --tag or --group' };
  }
  const checked = CheckRunsCreateSchema.safeParse(body);
  if (!checked.success) return { error: describeIssues(checked.error, { limit: 1, dotted: true }) };
  return { body, timeoutMs, json: values.json, flags: values };
}

/** "120s", "2m", "500ms", or plain seconds; more than zero. */
export function parseTimeout(text: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(text.trim());
  if (!match) return undefined;
  const scale = match[2] === 'ms' ? 1 : match[2] === 'm' ? 60_000 : 1_000;
  const ms = Math.round(Number(match[1]) * scale);
  return ms > 0 ? ms : undefined;
}

export function formatTimeout(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
