// Alert channels: which channel's secrets are revealed, and the create form
// (the list itself is a paged list: paged-list.ts).
import type { StateCreator } from 'zustand/vanilla';
import {
  addRow,
  CHANNEL_TYPES,
  EMPTY_FORM,
  fieldPaths,
  formFields,
  isDirty,
  parsedBody,
  pickOptions,
  removeRow,
  setValue,
  subsKindOf,
  templateError,
  toggleSub,
  touchAll,
  valueAt,
  type ChannelForm,
} from './channel-form.js';
import { afterChoice, initialValues } from './channel-dialects.js';
import { groupingActions } from './channel-grouping.js';
import { changedMeanwhile, subscriptionActions, subscriptionsSaved } from './channel-subscriptions.js';
import type { ConsoleState, SubmitOutcome, ChannelsSlice } from './state.js';
import { selectView } from './selectors.js';

export type { SubmitOutcome, CreatedSecret, ChannelsSlice } from './state.js';

export const CHANNELS_PAGE_SIZE = 20;

/** The file a new WEBHOOK's secret is saved to: named after the channel. */
export const secretFileName = (channelId: number): string => `checkwall-channel-${channelId}.secret`;

type Set = Parameters<StateCreator<ConsoleState, [], [], ChannelsSlice>>[0];
type Get = () => ConsoleState;

/** The form as it stands, and a way to replace it. */
const formOf = (set: Set, get: Get) => ({
  form: () => get().form,
  setForm: (f: ChannelForm) => set({ form: f }),
  focused: () => fieldPaths(get().form)[get().form.focus],
});

export const createChannelsSlice: StateCreator<ConsoleState, [], [], ChannelsSlice> = (set, get) => ({
  revealedChannelId: null,
  createdSecret: null,
  form: EMPTY_FORM,
  ...listActions(set, get),
  ...groupingActions(set, get),
  ...subscriptionActions(set, get),
  ...formEditing(set, get),
  ...pickerActions(set, get),
  ...formOutcome(set, get),
});

/** The list: moving, revealing, and the secret of a channel just created. */
function listActions(
  set: Set,
  get: Get,
): Pick<ChannelsSlice, 'saveCreatedSecret' | 'createdSecretSaved' | 'moveChannel' | 'toggleReveal'> {
  return {
    saveCreatedSecret() {
      const c = get().createdSecret;
      if (c && !c.saving) set({ createdSecret: { ...c, saving: true, saved: null } });
    },
    createdSecretSaved(channelId, saved) {
      const c = get().createdSecret;
      if (c?.channelId === channelId) set({ createdSecret: { ...c, saving: false, saved } });
    },
    moveChannel(delta) {
      const before = get().lists.channels.selectedId;
      get().moveInList('channels', delta);
      // Revealed values stay revealed only while you stay on that channel.
      if (get().lists.channels.selectedId !== before) set({ revealedChannelId: null });
    },
    toggleReveal: () =>
      set({
        revealedChannelId: get().revealedChannelId === null ? get().lists.channels.selectedId : null,
      }),
  };
}

/** Typing into the form: its type, its fields, its rows of headers and subscriptions. */
function formEditing(set: Set, get: Get) {
  const { form, setForm, focused } = formOf(set, get);
  return {
    openForm() {
      set({ form: EMPTY_FORM });
      get().pushView({ name: 'channel-form' });
    },
    formMoveType: (delta) =>
      setForm({
        ...form(),
        typeCursor: (form().typeCursor + delta + CHANNEL_TYPES.length) % CHANNEL_TYPES.length,
      }),
    formChooseType() {
      const type = CHANNEL_TYPES[form().typeCursor]!;
      setForm({ ...form(), type, values: { ...initialValues(type), ...form().values }, focus: 0 });
      set({ focus: 'form' });
    },
    formType(text) {
      const path = focused();
      if (path && takesText(form(), path)) setForm(setValue(form(), path, valueAt(form(), path) + text));
    },
    formErase() {
      const path = focused();
      if (path && takesText(form(), path))
        setForm(setValue(form(), path, valueAt(form(), path).slice(0, -1)));
    },
    formFocus(delta) {
      const n = fieldPaths(form()).length;
      if (n) setForm({ ...leftField(form()), focus: (form().focus + delta + n) % n, confirmDiscard: false });
    },
    formCycle(delta) {
      const path = focused();
      const spec = formFields(form()).find((f) => f.path === path);
      if (!path || !spec?.choices) return;
      const at = spec.choices.indexOf(form().values[path] ?? '');
      const choice = spec.choices[(at + delta + spec.choices.length) % spec.choices.length]!;
      const f = setValue(form(), path, choice);
      setForm({ ...f, values: afterChoice(f.values, path, choice), confirmDiscard: false });
    },
    formAddRow: (list) => setForm({ ...addRow(form(), list), confirmDiscard: false }),
    formRemoveRow: () => setForm({ ...removeRow(form()), confirmDiscard: false }),
    formOpenPicker() {
      const kind = subsKindOf(focused());
      if (kind)
        setForm({
          ...form(),
          confirmDiscard: false,
          picker: { kind, cursor: 0, query: '', searching: false },
        });
    },
  } satisfies Partial<ChannelsSlice>;
}

/** The list of checks or groups a subscription row opens. */
function pickerActions(set: Set, get: Get) {
  const { form, setForm } = formOf(set, get);
  return {
    pickMove(delta) {
      const p = form().picker;
      if (!p) return;
      const n = pickOptions(p.kind, get().checks, p.query).length;
      if (n) setForm({ ...form(), picker: { ...p, cursor: Math.max(0, Math.min(n - 1, p.cursor + delta)) } });
    },
    pickToggle() {
      const p = form().picker;
      const option = p && pickOptions(p.kind, get().checks, p.query)[p.cursor];
      if (p && option) setForm(toggleSub(form(), p.kind, option.id));
    },
    pickClose: () => setForm({ ...form(), picker: null }),
    pickSearch() {
      const p = form().picker;
      if (p) setForm({ ...form(), picker: { ...p, searching: true } });
    },
    pickType(text) {
      const p = form().picker;
      if (p) setForm({ ...form(), picker: { ...p, query: p.query + text, cursor: 0 } });
    },
    pickErase() {
      const p = form().picker;
      if (p) setForm({ ...form(), picker: { ...p, query: p.query.slice(0, -1), cursor: 0 } });
    },
    pickSearchDone(keep) {
      const p = form().picker;
      if (p)
        setForm({ ...form(), picker: { ...p, searching: false, query: keep ? p.query : '', cursor: 0 } });
    },
  } satisfies Partial<ChannelsSlice>;
}

/** Leaving the form: sent, refused, or given up. */
function formOutcome(set: Set, get: Get) {
  const { form, setForm } = formOf(set, get);
  return {
    formKeep: () => (form().confirmDiscard ? setForm({ ...form(), confirmDiscard: false }) : undefined),
    formSubmit() {
      const f = { ...touchAll(form()), confirmDiscard: false };
      // An edit that changed nothing sends nothing (each PUT is an audit event).
      if (f.edit && !f.submitting && !isDirty(f)) {
        get().setHandsNote(`${f.edit.name}: nothing changed`);
        set({ form: EMPTY_FORM });
        return get().popView();
      }
      if (f.submitting || (!f.edit && !parsedBody(f)))
        return setForm({
          ...f,
          formError: f.submitting ? f.formError : 'nothing sent: fix the fields marked ✖ first',
        });
      setForm({ ...f, submitting: true, formError: null, serverErrors: {} });
    },
    formEscape() {
      const f = form();
      if (!f.type && !isDirty(f)) {
        if (f.edit) set({ form: EMPTY_FORM });
        return get().popView();
      }
      if (isDirty(f) && !f.confirmDiscard) return setForm({ ...f, confirmDiscard: true });
      if (!isDirty(f)) return set({ form: { ...f, type: null }, focus: 'list' });
      set({ form: EMPTY_FORM });
      get().popView();
    },
    formDone(outcome) {
      if (outcome.ok && 'subscriptions' in outcome)
        return subscriptionsSaved(set, get, outcome.subscriptions);
      if (outcome.ok) {
        // The list is oldest first: the new channel is on the last page.
        // A refresh may be out: the count of the last answer held still places it.
        const list = get().lists.channels.remote;
        const held = list.state === 'idle' ? undefined : list.data;
        const before = held ? held.meta.totalItems : 0;
        const c = outcome.channel;
        set({
          form: EMPTY_FORM,
          revealedChannelId: null,
          createdSecret:
            c.type === 'WEBHOOK' && c.signingSecret
              ? { channelId: c.id, name: c.name, secret: c.signingSecret, saving: false, saved: null }
              : null,
        });
        get().reloadList('channels', {
          page: Math.max(1, Math.ceil((before + 1) / CHANNELS_PAGE_SIZE)),
          selectedId: outcome.channel.id,
        });
        if (selectView(get()).name === 'channel-form') get().popView();
        return;
      }
      setForm(refusedForm(form(), outcome));
    },
  } satisfies Partial<ChannelsSlice>;
}

/** Whether the field at `path` takes typed text (a chooser and a subscription row do not). */
function takesText(form: ChannelForm, path: string): boolean {
  return !subsKindOf(path) && !formFields(form).find((f) => f.path === path)?.choices;
}

/** The form as the focus leaves its field: a template is checked then, not at each keystroke. */
function leftField(form: ChannelForm): ChannelForm {
  const path = fieldPaths(form)[form.focus];
  if (path !== 'config.template') return form;
  const why = templateError(form.values[path] ?? '');
  return why ? { ...form, serverErrors: { ...form.serverErrors, [path]: why } } : form;
}

/** The form after a create that failed: what was typed is kept, and why is said where it belongs. */
function refusedForm(form: ChannelForm, outcome: Extract<SubmitOutcome, { ok: false }>): ChannelForm {
  const f = { ...form, submitting: false };
  if (outcome.changed) return changedMeanwhile(f, outcome.changed);
  // An edit has two rows, and the service names its body's paths: its reason, whole, under them.
  if (f.edit)
    return {
      ...f,
      formError: `not saved: ${outcome.error.message} — your choices are kept; enter to try again`,
    };
  if (outcome.status === 402)
    return {
      ...f,
      formError: 'the plan’s alert channel limit is reached: nothing was created; your input is kept',
    };
  if (outcome.status === 400 && outcome.details?.length) {
    // The focus goes to the first field the service named, so fixing it is the next keystroke.
    const named = fieldPaths(f).findIndex((p) => outcome.details!.some((d) => d.path === p));
    return {
      ...f,
      focus: named >= 0 ? named : f.focus,
      serverErrors: Object.fromEntries(outcome.details.map((d) => [d.path, d.message])),
      formError: 'the service refused some fields: see beside them',
    };
  }
  return {
    ...f,
    formError: `${outcome.error.kind}: ${outcome.error.message} — your input is kept; enter to try again`,
  };
}
