// The form's fields, one line each, a window of them around the focused one when
// they do not all fit (form-budget.ts); under them, the keys of a WEBHOOK's rows.
import { Box, Text } from 'ink';
import { sanitize, wrappedLineCount } from '../../../domain/sanitize.js';
import {
  fieldPaths,
  formFields,
  pickOptions,
  subsKindOf,
  valueAt,
  visibleErrors,
  type ChannelForm,
} from '../../../store/channel-form.js';
import { choiceLabel, type FieldSpec } from '../../../store/channel-dialects.js';
import type { CheckStatus } from '../../../store/types.js';
import { windowStart } from '../../widgets/table/layout.js';
import { tint, useTheme } from '../../theme.js';

/** What a subscription row reads: the names chosen (ids the statuses do not know, as they are). */
function chosenText(form: ChannelForm, path: string, checks: Readonly<Record<string, CheckStatus>>): string {
  const kind = subsKindOf(path)!;
  const labels = new Map(pickOptions(kind, checks, '').map((o) => [o.id, o.label]));
  const chosen = form.subscriptions[kind].map((id) => labels.get(id) ?? id);
  return chosen.length ? chosen.join(', ') : '';
}

/** The line naming ctrl+n, ctrl+p and ctrl+x: a WEBHOOK that takes rows. */
function takesRowsHint(form: ChannelForm, paths: readonly string[]): boolean {
  return (
    paths.some((p) => p.startsWith('config.headers') || p.startsWith('config.queryParameters')) ||
    (form.type === 'WEBHOOK' && formFields(form).some((f) => f.path === 'config.method'))
  );
}

/** A header or query parameter row's error, said under the fields. */
function rowsError(form: ChannelForm): string | undefined {
  const errors = visibleErrors(form);
  return errors['config.headers'] ?? errors['config.queryParameters'];
}

/** Lines under the fields: the rows' keys, and their error wrapped at the width. */
export function fieldNotes(form: ChannelForm, cols: number): number {
  const error = rowsError(form);
  const errorLines = error ? wrappedLineCount(sanitize(error), cols) : 0;
  return (takesRowsHint(form, fieldPaths(form)) ? 1 : 0) + errorLines;
}

export function Fields({
  form,
  checks,
  rows,
}: {
  form: ChannelForm;
  checks: Readonly<Record<string, CheckStatus>>;
  /** Fields that fit: a window of them around the focused one. */
  rows: number;
}) {
  const theme = useTheme();
  const errors = visibleErrors(form);
  const paths = fieldPaths(form);
  const labels = new Map(formFields(form).map((f) => [f.path, f]));
  // "never pages" only when neither row has a choice: a group alone still pages.
  const servesNothing = form.subscriptions.checks.length + form.subscriptions.groups.length === 0;
  const start = windowStart(form.focus, paths.length, rows);
  const error = rowsError(form);
  return (
    <Box flexDirection="column">
      {paths.slice(start, start + rows).map((path, at) => {
        const i = start + at;
        const spec = labels.get(path);
        const subs = subsKindOf(path);
        const label = subs
          ? `Subscribed ${subs}`
          : spec
            ? `${spec.label}${spec.optional && !spec.choices ? ' (optional)' : ''}`
            : listLabel(path);
        const value = subs ? chosenText(form, path, checks) : shownValue(spec, valueAt(form, path));
        const focused = i === form.focus;
        const error = errors[path];
        return (
          <Text key={path} wrap="truncate">
            {`${focused ? theme.selected : ' '} ${label.padEnd(22)} `}
            <Text inverse={focused && theme.color} underline={focused && !theme.color}>
              {sanitize(value) || (focused ? ' ' : '')}
            </Text>
            {spec?.choices && focused ? (
              <Text color={tint(theme, theme.dim)}>{'  ←/→ or space chooses'}</Text>
            ) : null}
            {!value && spec?.hint ? <Text color={tint(theme, theme.dim)}>{`  ${spec.hint}`}</Text> : null}
            {!value && subs ? (
              <Text color={tint(theme, theme.dim)}>
                {`  none${servesNothing ? ': never pages' : ''} (/ or space chooses)`}
              </Text>
            ) : null}
            {error ? (
              <Text color={tint(theme, 'red')}>{`  ${theme.status.failing.glyph} ${sanitize(error)}`}</Text>
            ) : null}
          </Text>
        );
      })}
      {takesRowsHint(form, paths) ? (
        <Text color={tint(theme, theme.dim)} wrap="truncate">
          ctrl+n adds a header, ctrl+p a query parameter, ctrl+x removes the focused row
        </Text>
      ) : null}
      {error ? <Text color={tint(theme, 'red')}>{sanitize(error)}</Text> : null}
    </Box>
  );
}

/** A chooser's value as ‹ choice ›, a text field's as typed. */
function shownValue(spec: FieldSpec | undefined, value: string): string {
  return spec?.choices ? `‹ ${choiceLabel(spec, value)} ›` : value;
}

function listLabel(path: string): string {
  const m = /config\.(headers|queryParameters)\[(\d+)\]\.(key|value)/.exec(path);
  if (!m) return path;
  return `${m[1] === 'headers' ? 'Header' : 'Query param'} ${Number(m[2]) + 1} ${m[3]}`;
}
