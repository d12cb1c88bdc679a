// Creating an alert channel: choose a type, then fill its fields; each field
// says what is wrong beside it as you type; nothing typed is lost. The same form,
// its subscription rows alone, changes what an existing channel serves (`s`).
import { Box, Text } from 'ink';
import { useStore } from 'zustand';
import { sanitize, wrappedLineCount } from '../../../domain/sanitize.js';
import { CHANNEL_TYPES, fieldPaths, pickOptions, type SubsEdit } from '../../../store/channel-form.js';
import { formBudget } from './form-budget.js';
import { fieldNotes, Fields } from './form-fields.js';
import { PickerList, pickerLines } from './picker-list.js';
import { tint, useTheme } from '../../theme.js';
import type { ViewProps } from '../view-props.js';

export function ChannelFormView({ store, height }: ViewProps) {
  const theme = useTheme();
  const form = useStore(store, (s) => s.form);
  const checks = useStore(store, (s) => s.checks);
  const cols = useStore(store, (s) => s.cols);
  const options = form.picker ? pickOptions(form.picker.kind, checks, form.picker.query) : [];
  const discard = 'Discard what you typed? y (or esc) discards; n keeps editing.';
  // Lines the text under the fields takes, wrapped at the width.
  const wrapped = (text: string | null) => (text ? wrappedLineCount(text, cols) : 0);
  const fixed =
    (form.edit ? 2 : 1) +
    fieldNotes(form, cols) +
    1 +
    (form.submitting ? 1 : 0) +
    wrapped(form.formError && sanitize(form.formError)) +
    (form.confirmDiscard ? wrapped(discard) : 0);
  const plan = formBudget(height, {
    fixed,
    fields: fieldPaths(form).length,
    picker: form.picker ? { lines: pickerLines(form.picker, options.length), options: options.length } : null,
  });
  return (
    <Box flexDirection="column" height={height}>
      {form.edit ? (
        <EditTitle edit={form.edit} />
      ) : (
        <Text bold>{`New alert channel${form.type ? `: ${form.type}` : ''}`}</Text>
      )}
      {form.type || form.edit ? (
        <Fields form={form} checks={checks} rows={plan.fields} />
      ) : (
        <TypeChooser cursor={form.typeCursor} />
      )}
      {form.picker ? (
        <PickerList form={{ ...form, picker: form.picker }} options={options} rows={plan.picker} />
      ) : null}
      <Text> </Text>
      {form.submitting ? (
        <Text color={tint(theme, 'yellow')}>{form.edit ? 'saving…' : 'creating…'}</Text>
      ) : null}
      {form.formError ? <Text color={tint(theme, 'red')}>{sanitize(form.formError)}</Text> : null}
      {form.confirmDiscard ? (
        <Text color={tint(theme, 'yellow')} bold>
          {discard}
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
