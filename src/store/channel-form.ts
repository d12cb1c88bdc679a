// The create-channel form as plain data and pure functions: the fields of each
// type, values as typed (never cleared by a failed submit), validation with the
// same zod schema the service uses, and the server's 400 details mapped back
// onto the fields they name.
import {
  AlertChannelCreateBodySchema,
  CHANNEL_TYPES,
  type AlertChannelCreateBody,
  type ChannelType,
  type CheckStatus,
  type Subscriptions,
  zodIssues,
} from '../api/schemas/index.js';
import Mustache from 'mustache';
import { fieldsOf, fixedConfig, GROUP_WINDOW_PATH, takesRows, type FieldSpec } from './channel-dialects.js';
import { GROUP_WINDOW_REASON, parseGroupWindow } from '../domain/group-window.js';

export type { FieldSpec } from './channel-dialects.js';

/** The fields of the form's type and dialect (channel-dialects.ts), none before a type is chosen. */
export function formFields(form: Pick<ChannelForm, 'type' | 'values'>): FieldSpec[] {
  return form.type ? fieldsOf(form.type, form.values) : [];
}

export type ListName = 'headers' | 'queryParameters';

export type SubsKind = 'checks' | 'groups';
export const SUBS_PATHS: Record<SubsKind, string> = {
  checks: 'subscriptions.checks',
  groups: 'subscriptions.groups',
};

/** The list a subscription is chosen from: where its cursor is and what `/` searched. */
export interface Picker {
  kind: SubsKind;
  cursor: number;
  query: string;
  searching: boolean;
}

export interface PickOption {
  id: string;
  label: string;
}

/** `s` on a channel: the form holds its subscriptions alone, sent with a PUT (channels-slice.ts). */
export interface SubsEdit {
  channelId: number;
  name: string;
  /** What it served when opened: the form is dirty once its choices differ. */
  was: Record<SubsKind, string[]>;
  /** The locations it hears outages of: not shown, sent back as they were. */
  locations: string[];
}

export interface ChannelForm {
  /** The checks and groups (by id) the channel serves, sent with the POST (or the PUT of `edit`). */
  subscriptions: Record<SubsKind, string[]>;
  /** Set when the form edits an existing channel's subscriptions instead of making a channel. */
  edit: SubsEdit | null;
  picker: Picker | null;
  type: ChannelType | null;
  /** Which type the chooser points at, before one is chosen. */
  typeCursor: number;
  values: Record<string, string>;
  headers: Array<{ key: string; value: string }>;
  queryParameters: Array<{ key: string; value: string }>;
  focus: number;
  touched: Record<string, boolean>;
  serverErrors: Record<string, string>;
  formError: string | null;
  submitting: boolean;
  confirmDiscard: boolean;
}

export const EMPTY_FORM: ChannelForm = {
  subscriptions: { checks: [], groups: [] },
  edit: null,
  picker: null,
  type: null,
  typeCursor: 0,
  values: {},
  headers: [],
  queryParameters: [],
  focus: 0,
  touched: {},
  serverErrors: {},
  formError: null,
  submitting: false,
  confirmDiscard: false,
};

export { CHANNEL_TYPES };

/** Every focusable field path of the form, in order: fixed fields, then list rows. */
export function fieldPaths(form: ChannelForm): string[] {
  if (form.edit) return [SUBS_PATHS.checks, SUBS_PATHS.groups];
  if (!form.type) return [];
  const fixed = formFields(form).map((f) => f.path);
  const subs = [SUBS_PATHS.checks, SUBS_PATHS.groups];
  if (!takesRows(form.type, form.values)) return [...fixed, ...subs];
  const rows = (list: ListName) =>
    form[list].flatMap((_, i) => [`config.${list}[${i}].key`, `config.${list}[${i}].value`]);
  return [...fixed, ...rows('headers'), ...rows('queryParameters'), ...subs];
}

/** Which subscription row a path is, if it is one (they take no text: `/` or space picks). */
export function subsKindOf(path: string | undefined): SubsKind | undefined {
  if (path === SUBS_PATHS.checks) return 'checks';
  if (path === SUBS_PATHS.groups) return 'groups';
  return undefined;
}

/** The checks or groups the account has (from the statuses held), narrowed by the search. */
export function pickOptions(
  kind: SubsKind,
  checks: Readonly<Record<string, CheckStatus>>,
  query: string,
): PickOption[] {
  const all = Object.values(checks);
  const options =
    kind === 'checks'
      ? all.map((c) => ({ id: c.checkId, label: `${c.checkName} (${c.checkId})` }))
      : [
          ...new Map(all.flatMap((c) => (c.group ? [[c.group.id, c.group.name] as const] : []))).entries(),
        ].map(([id, name]) => ({ id, label: `${name} (${id})` }));
  const q = query.trim().toLowerCase();
  return options
    .filter((o) => !q || o.label.toLowerCase().includes(q))
    .sort((a, b) => a.label.localeCompare(b.label));
}

/** Chooses or unchooses an option (by id). */
export function toggleSub(form: ChannelForm, kind: SubsKind, id: string): ChannelForm {
  const chosen = form.subscriptions[kind];
  const next = chosen.includes(id) ? chosen.filter((x) => x !== id) : [...chosen, id];
  return { ...form, subscriptions: { ...form.subscriptions, [kind]: next }, confirmDiscard: false };
}

const LIST_PATH = /^config\.(headers|queryParameters)\[(\d+)\]\.(key|value)$/;

export function valueAt(form: ChannelForm, path: string): string {
  const m = LIST_PATH.exec(path);
  if (m) return form[m[1] as ListName][Number(m[2])]?.[m[3] as 'key' | 'value'] ?? '';
  return form.values[path] ?? '';
}

export function setValue(form: ChannelForm, path: string, value: string): ChannelForm {
  const serverErrors = { ...form.serverErrors };
  delete serverErrors[path];
  const next = {
    ...form,
    serverErrors,
    touched: { ...form.touched, [path]: true },
    confirmDiscard: false,
    formError: null,
  };
  const m = LIST_PATH.exec(path);
  if (!m) return { ...next, values: { ...form.values, [path]: value } };
  const list = m[1] as ListName;
  const rows = form[list].map((row, i) =>
    i === Number(m[2]) ? { ...row, [m[3] as 'key' | 'value']: value } : row,
  );
  return { ...next, [list]: rows };
}

/** Adds a header or query parameter row, focused; a form that shows no rows (not our WEBHOOK) is left alone. */
export function addRow(form: ChannelForm, list: ListName): ChannelForm {
  if (!takesRows(form.type, form.values)) return form;
  const next = { ...form, [list]: [...form[list], { key: '', value: '' }] };
  return { ...next, focus: fieldPaths(next).indexOf(`config.${list}[${form[list].length}].key`) };
}

/** Removes the list row the focus is on (if it is on one). */
export function removeRow(form: ChannelForm): ChannelForm {
  const m = LIST_PATH.exec(fieldPaths(form)[form.focus] ?? '');
  if (!m) return form;
  const list = m[1] as ListName;
  const next = { ...form, [list]: form[list].filter((_, i) => i !== Number(m[2])), serverErrors: {} };
  return { ...next, focus: Math.min(form.focus, fieldPaths(next).length - 1) };
}

export function toCreateBody(form: ChannelForm): unknown {
  const config: Record<string, unknown> = form.type ? { ...fixedConfig(form.type, form.values) } : {};
  // Only the fields the dialect shows: what was typed for another dialect stays behind.
  for (const spec of formFields(form)) {
    if (!spec.path.startsWith('config.')) continue;
    const value = (form.values[spec.path] ?? '').trim();
    if (spec.optional && value === '') continue; // an empty optional field is left out, not sent empty
    // The default format is today's WEBHOOK: its body stays as it was.
    if (spec.path === 'config.format' && value === 'checkwall') continue;
    config[spec.path.slice('config.'.length)] =
      spec.path === 'config.template' ? form.values[spec.path] : value;
  }
  if (takesRows(form.type, form.values)) {
    if (form.headers.length) config['headers'] = form.headers;
    if (form.queryParameters.length) config['queryParameters'] = form.queryParameters;
  }
  const { checks, groups } = form.subscriptions;
  // Blank: the type's default.
  const window = (form.values[GROUP_WINDOW_PATH] ?? '').trim();
  return {
    type: form.type,
    name: (form.values['name'] ?? '').trim(),
    config,
    // Not a window: sent as typed, for the schema to refuse.
    ...(window === '' ? {} : { groupWindowSeconds: parseGroupWindow(window) ?? window }),
    ...(checks.length || groups.length ? { subscriptions: { checks, groups } } : {}),
  };
}

/** Why a template does not parse as mustache, or null (the service checks its variables). */
export function templateError(template: string): string | null {
  try {
    Mustache.parse(template);
    return null;
  } catch (error) {
    return `not a mustache template: ${(error as Error).message}`;
  }
}

/** Field path -> reason, from the shared schema. */
export function validate(form: ChannelForm): Record<string, string> {
  const parsed = AlertChannelCreateBodySchema.safeParse(toCreateBody(form));
  if (parsed.success) return emptyRequired(form);
  const errors: Record<string, string> = emptyRequired(form);
  for (const { path, message } of zodIssues(parsed.error))
    errors[path] ??= message === 'is required (string)' ? 'required' : message;
  if (errors[GROUP_WINDOW_PATH]) errors[GROUP_WINDOW_PATH] = GROUP_WINDOW_REASON;
  return errors;
}

/** A field of the dialect left empty (the shared schema may not know the dialect's own fields). */
function emptyRequired(form: ChannelForm): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const spec of formFields(form))
    if (!spec.optional && !spec.choices && (form.values[spec.path] ?? '').trim() === '')
      errors[spec.path] = 'required';
  return errors;
}

/** The errors to show: client-side ones of touched fields, then what the server said. */
export function visibleErrors(form: ChannelForm): Record<string, string> {
  const mine = validate(form);
  const shown: Record<string, string> = {};
  for (const [path, reason] of Object.entries(mine)) if (form.touched[path]) shown[path] = reason;
  return { ...shown, ...form.serverErrors };
}

export function isDirty(form: ChannelForm): boolean {
  const { edit } = form;
  if (edit) return (['checks', 'groups'] as const).some((k) => !sameIds(form.subscriptions[k], edit.was[k]));
  return (
    Object.values(form.values).some((v) => v !== '') ||
    form.headers.length > 0 ||
    form.queryParameters.length > 0 ||
    form.subscriptions.checks.length > 0 ||
    form.subscriptions.groups.length > 0
  );
}

const sameIds = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((id) => b.includes(id));

/** Whether what a channel serves now differs from what the edit opened on (someone else saved meanwhile). */
export function changedSince(edit: SubsEdit, now: Subscriptions): boolean {
  return (
    !sameIds(now.checks, edit.was.checks) ||
    !sameIds(now.groups, edit.was.groups) ||
    !sameIds(now.locations, edit.locations)
  );
}

/** The PUT body of an edit: the checks and groups chosen, the locations as they were. */
export function subscriptionsBody(form: ChannelForm): Subscriptions | null {
  if (!form.edit) return null;
  return { ...form.subscriptions, locations: form.edit.locations };
}

/** The POST body, subscriptions and all, or null while a field is wrong. */
export function parsedBody(form: ChannelForm): AlertChannelCreateBody | null {
  const body = toCreateBody(form);
  const parsed = AlertChannelCreateBodySchema.safeParse(body);
  // Sent as typed, not as parsed: a dialect's fields the shared schema does not name are kept.
  const valid = parsed.success && Object.keys(emptyRequired(form)).length === 0;
  return valid ? (body as AlertChannelCreateBody) : null;
}

/** Marks every field touched so all reasons show (after an attempt to submit). */
export function touchAll(form: ChannelForm): ChannelForm {
  return { ...form, touched: Object.fromEntries(fieldPaths(form).map((p) => [p, true])) };
}
