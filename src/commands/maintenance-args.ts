// `checkwall maintenance`'s arguments: `start` builds the window's body and checks
// it with the wire's own schema (so a bad duration or no scope is refused before
// any request), `end` takes one id, `list` none.
import { parseArgs } from 'node:util';
import { MaintenanceCreateSchema, type MaintenanceCreate } from '../api/schemas/maintenance.js';
import { describeIssues } from '../api/schemas/index.js';
import { CONNECTION_OPTIONS, type SettingsFlags } from './settings.js';

export type MaintenanceArgs =
  | { action: 'start'; body: MaintenanceCreate; json: boolean; flags: SettingsFlags }
  | { action: 'end'; id: string; json: boolean; flags: SettingsFlags }
  | { action: 'list'; json: boolean; flags: SettingsFlags };

const ACTIONS = ['start', 'end', 'list'] as const;
/** A name longer than the wire allows is cut: the reason stays whole in `reason`. */
const NAME_MAX = 200;

export function parseMaintenanceArgs(argv: string[]): MaintenanceArgs | { error: string } {
  const [action, ...rest] = argv;
  if (!ACTIONS.includes(action as (typeof ACTIONS)[number])) {
    return { error: action ? `unknown action "${action}": start, end or list` : 'say start, end or list' };
  }
  let parsed;
  try {
    parsed = parseArgs({
      args: rest,
      strict: true,
      allowPositionals: true,
      options: {
        ...CONNECTION_OPTIONS,
        check: { type: 'string', multiple: true },
        group: { type: 'string', multiple: true },
        tag: { type: 'string', multiple: true },
        for: { type: 'string' },
        reason: { type: 'string' },
        name: { type: 'string' },
        mode: { type: 'string' },
        json: { type: 'boolean', default: false },
        'allow-empty': { type: 'boolean' },
      },
    });
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
  const { values, positionals } = parsed;
  const { json } = values;
  const flags: SettingsFlags = values;
  const startOnly = (
    ['check', 'group', 'tag', 'for', 'reason', 'name', 'mode', 'allow-empty'] as const
  ).filter((k) => values[k] !== undefined);
  if (action !== 'start' && startOnly.length > 0) {
    return { error: `--${startOnly[0]} is an option of "start", not of "${action}"` };
  }
  if (action === 'list') {
    return positionals.length
      ? { error: `list takes no arguments (got "${positionals[0]}")` }
      : { action, json, flags };
  }
  if (action === 'end') {
    if (positionals.length !== 1) return { error: 'end takes one window id: checkwall maintenance end ID' };
    return { action, id: positionals[0]!, json, flags };
  }
  if (positionals.length) {
    return {
      error: `start takes no bare arguments (got "${positionals[0]}"): use --check, --group or --tag`,
    };
  }
  return startArgs(values, json, flags);
}

interface StartValues {
  check?: string[] | undefined;
  group?: string[] | undefined;
  tag?: string[] | undefined;
  for?: string | undefined;
  reason?: string | undefined;
  name?: string | undefined;
  mode?: string | undefined;
  'allow-empty'?: boolean | undefined;
}

function startArgs(
  values: StartValues,
  json: boolean,
  flags: SettingsFlags,
): MaintenanceArgs | { error: string } {
  if (!values.check && !values.group && !values.tag) {
    return { error: 'name what the window covers: --check ID, --group ID or --tag TAG (each may repeat)' };
  }
  if (values.for === undefined) return { error: 'say how long with --for, e.g. --for 30m or --for 2h' };
  const reason = values.reason?.trim();
  if (!reason)
    return { error: 'give a --reason: it is shown wherever the window is (e.g. --reason "deploy 4.2")' };
  if (values.mode !== undefined && values.mode !== 'silence' && values.mode !== 'pause') {
    return { error: `--mode is silence or pause, not "${values.mode}"` };
  }
  const body: MaintenanceCreate = {
    name: values.name?.trim() || [...reason].slice(0, NAME_MAX).join(''),
    reason,
    scope: {
      ...(values.check ? { checks: values.check } : {}),
      ...(values.group ? { groups: values.group } : {}),
      ...(values.tag ? { tags: values.tag } : {}),
    },
    duration: values.for,
    mode: values.mode ?? 'silence',
    ...(values['allow-empty'] ? { allowEmpty: true } : {}),
  };
  const checked = MaintenanceCreateSchema.safeParse(body);
  if (!checked.success) {
    return {
      error: describeIssues(checked.error, { limit: 1, dotted: true }).replace(/^duration\b/, '--for'),
    };
  }
  return { action: 'start', body, json, flags };
}
