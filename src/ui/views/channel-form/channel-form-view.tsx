// Creating an alert channel: choose a type, then fill its fields; each field
// says what is wrong beside it as you type; nothing typed is lost. The same form,
// its subscription rows alone, changes what an existing channel serves (`s`).
import { Box, Text } from 'ink';
import { useStore } from 'zustand';
import { sanitize } from '../../../domain/sanitize.js';
import {
  CHANNEL_TYPES,
  fieldPaths,
  formFields,
  pickOptions,
  subsKindOf,
  valueAt,
  visibleErrors,
  type ChannelForm,
  type PickOption,
  type SubsEdit,
} from '../../../store/channel-form.js';
import { choiceLabel, type FieldSpec } from '../../../store/channel-dialects.js';
import type { CheckStatus } from '../../../store/types.js';
import { windowStart } from '../../widgets/table/layout.js';
import { tint, useTheme } from '../../theme.js';
import type { ViewProps } from '../view-props.js';

export function ChannelFormView({ store, height }: ViewProps) {
  const theme = useTheme();
  const form = useStore(store, (s) => s.form);
  const checks = useStore(store, (s) => s.checks);
  return (
    <Box flexDirection="column" height={height}>
      {form.edit ? (
        <EditTitle edit={form.edit} />
      ) : (
        <Text bold>{`New alert channel${form.type ? `: ${form.type}` : ''}`}</Text>
      )}
      {form.type || form.edit ? (
        <Fields form={form} checks={checks} />
      ) : (
        <TypeChooser cursor={form.typeCursor} />
      )}
      {form.picker ? <PickerList form={form} checks={checks} /> : null}
      <Text> </Text>
      {form.submitting ? (
        <Text color={tint(theme, 'yellow')}>{form.edit ? 'saving…' : 'creating…'}</Text>
      ) : null}
      {form.formError ? <Text color={tint(theme, 'red')}>{sanitize(form.formError)}</Text> : null}
      {form.confirmDiscard ? (
        <Text color={tint(theme, 'yellow')} bold>
          Discard what you typed? y (or esc) discards; n keeps editing.
        </Text>
      ) : null}
    </Box>
  );
}

/** `s` on a channel: whose subscriptions these are, and what the form leaves as it was. */
function EditTitle({ edit }: { edit: SubsEdit }) {
  const theme = useTheme();
  const n = edit.locations.length;
  return (
    <Box flexDirection="column">
      <Text bold wrap="truncate">{`What ${sanitize(edit.name)} serves (#${edit.channelId})`}</Text>
      <Text color={tint(theme, theme.dim)} wrap="truncate">
        {`/ or space chooses, enter saves, esc leaves it as it was${n ? `; its ${n} location${n === 1 ? '' : 's'} (outages) stay as they are` : ''}`}
      </Text>
    </Box>
  );
}

function TypeChooser({ cursor }: { cursor: number }) {
  const theme = useTheme();
  const about: Record<string, string> = {
    EMAIL: 'an e-mail address',
    CHAT: 'a chat service: Slack, Teams, Discord, Google Chat, Telegram, ntfy, …',
    WEBHOOK: 'an HTTP request: ours, PagerDuty, Opsgenie, Alertmanager, a template',
    SMS: 'a text message to an E.164 number',
    PHONE: 'a call to an E.164 number, for critical alerts',
  };
  return (
    <Box flexDirection="column">
      <Text color={tint(theme, theme.dim)}>Choose a type (up/down, enter):</Text>
      {CHANNEL_TYPES.map((t, i) => (
        <Text key={t} inverse={i === cursor && theme.color} bold={i === cursor}>
          {`${i === cursor ? theme.selected : ' '} ${t.padEnd(8)} ${about[t]}`}
        </Text>
      ))}
    </Box>
  );
}

/** What a subscription row reads: the names chosen (ids the statuses do not know, as they are). */
function chosenText(form: ChannelForm, path: string, checks: Readonly<Record<string, CheckStatus>>): string {
  const kind = subsKindOf(path)!;
  const labels = new Map(pickOptions(kind, checks, '').map((o) => [o.id, o.label]));
  const chosen = form.subscriptions[kind].map((id) => labels.get(id) ?? id);
  return chosen.length ? chosen.join(', ') : '';
}

function PickerList({ form, checks }: { form: ChannelForm; checks: Readonly<Record<string, CheckStatus>> }) {
  const theme = useTheme();
  const p = form.picker!;
  const options: PickOption[] = pickOptions(p.kind, checks, p.query);
  const rows = 8;
  const start = windowStart(p.cursor, options.length, rows);
  const chosen = form.subscriptions[p.kind];
  return (
    <Box flexDirection="column">
      <Text bold>{`Subscribe to ${p.kind}: space toggles, / searches, enter done`}</Text>
      {p.searching || p.query ? (
        <Text>
          {'search: '}
          <Text inverse={p.searching && theme.color}>{sanitize(p.query) || ' '}</Text>
        </Text>
      ) : null}
      {options.length === 0 ? (
        <Text color={tint(theme, theme.dim)}>{p.query ? 'nothing matches' : `no ${p.kind} known yet`}</Text>
      ) : null}
      {options.slice(start, start + rows).map((o, i) => {
        const at = start + i === p.cursor;
        return (
          <Text key={o.id} wrap="truncate" inverse={at && theme.color} bold={at}>
            {`${at ? theme.selected : ' '} [${chosen.includes(o.id) ? 'x' : ' '}] ${sanitize(o.label)}`}
          </Text>
        );
      })}
    </Box>
  );
}

function Fields({ form, checks }: { form: ChannelForm; checks: Readonly<Record<string, CheckStatus>> }) {
  const theme = useTheme();
  const errors = visibleErrors(form);
  const paths = fieldPaths(form);
  const labels = new Map(formFields(form).map((f) => [f.path, f]));
  // "never pages" only when neither row has a choice: a group alone still pages.
  const servesNothing = form.subscriptions.checks.length + form.subscriptions.groups.length === 0;
  return (
    <Box flexDirection="column">
      {paths.map((path, i) => {
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
      {paths.some((p) => p.startsWith('config.headers') || p.startsWith('config.queryParameters')) ||
      (form.type === 'WEBHOOK' && labels.has('config.method')) ? (
        <Text color={tint(theme, theme.dim)} wrap="truncate">
          ctrl+n adds a header, ctrl+p a query parameter, ctrl+x removes the focused row
        </Text>
      ) : null}
      {errors['config.headers'] || errors['config.queryParameters'] ? (
        <Text color={tint(theme, 'red')}>
          {sanitize(errors['config.headers'] ?? errors['config.queryParameters'] ?? '')}
        </Text>
      ) : null}
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
