// Alert channels: which channel's secrets are revealed, and the create form
// (the list itself is a paged list: paged-list.ts).
import type { StateCreator } from 'zustand/vanilla';
import type { AlertChannel } from '../api/schemas/index.js';
import {
  addRow,
  CHANNEL_TYPES,
  EMPTY_FORM,
  fieldPaths,
  isDirty,
  parsedBody,
  pickOptions,
  removeRow,
  setValue,
  subsKindOf,
  toggleSub,
  touchAll,
  valueAt,
  type ChannelForm,
  type ListName,
} from './channel-form.js';
import type { ConsoleState } from './state.js';
import { selectView } from './selectors.js';
import type { ErrorInfo } from './types.js';

export const CHANNELS_PAGE_SIZE = 20;

/** The file a new WEBHOOK's secret is saved to: named after the channel. */
export const secretFileName = (channelId: number): string => `checkwall-channel-${channelId}.secret`;

export type SubmitOutcome =
  | { ok: true; channel: AlertChannel }
  | {
      ok: false;
      status?: number | undefined;
      error: ErrorInfo;
      details?: Array<{ path: string; message: string }> | undefined;
    };

/**
 * A WEBHOOK's signing secret as the create answer gave it, whole: the service
 * never shows it again, so it stays on screen (and can be saved) until the
 * channels view is left.
 */
export interface CreatedSecret {
  channelId: number;
  name: string;
  secret: string;
  /** `o` asked for a file the feed still owes. */
  saving: boolean;
  saved: { ok: true; path: string } | { ok: false; message: string } | null;
}

export interface ChannelsSlice {
  revealedChannelId: number | null;
  createdSecret: CreatedSecret | null;
  /** `o` on the channels: writes the secret just shown to a file readable only by you. */
  saveCreatedSecret(): void;
  createdSecretSaved(channelId: number, saved: NonNullable<CreatedSecret['saved']>): void;
  form: ChannelForm;
  moveChannel(delta: number | 'first' | 'last'): void;
  toggleReveal(): void;
  openForm(): void;
  formMoveType(delta: number): void;
  formChooseType(): void;
  formType(text: string): void;
  formErase(): void;
  formFocus(delta: number): void;
  formAddRow(list: ListName): void;
  formRemoveRow(): void;
  /** On a subscription row: opens its list of checks or groups. */
  formOpenPicker(): void;
  pickMove(delta: number): void;
  pickToggle(): void;
  pickClose(): void;
  /** `/` in the list: typed text narrows it until enter (keeps) or esc (clears). */
  pickSearch(): void;
  pickType(text: string): void;
  pickErase(): void;
  pickSearchDone(keep: boolean): void;
  /** Any key but esc answers "keep editing" to the discard question. */
  formKeep(): void;
  formSubmit(): void;
  formEscape(): void;
  formDone(outcome: SubmitOutcome): void;
}

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
      setForm({ ...form(), type: CHANNEL_TYPES[form().typeCursor]!, focus: 0 });
      set({ focus: 'form' });
    },
    formType(text) {
      const path = focused();
      if (path && !subsKindOf(path)) setForm(setValue(form(), path, valueAt(form(), path) + text));
    },
    formErase() {
      const path = focused();
      if (path && !subsKindOf(path)) setForm(setValue(form(), path, valueAt(form(), path).slice(0, -1)));
    },
    formFocus(delta) {
      const n = fieldPaths(form()).length;
      if (n) setForm({ ...form(), focus: (form().focus + delta + n) % n, confirmDiscard: false });
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
      if (f.submitting || !parsedBody(f))
        return setForm({
          ...f,
          formError: f.submitting ? f.formError : 'nothing sent: fix the fields marked ✖ first',
        });
      setForm({ ...f, submitting: true, formError: null, serverErrors: {} });
    },
    formEscape() {
      const f = form();
      if (!f.type && !isDirty(f)) return get().popView();
      if (isDirty(f) && !f.confirmDiscard) return setForm({ ...f, confirmDiscard: true });
      if (!isDirty(f)) return set({ form: { ...f, type: null }, focus: 'list' });
      set({ form: EMPTY_FORM });
      get().popView();
    },
    formDone(outcome) {
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

/** The form after a create that failed: what was typed is kept, and why is said where it belongs. */
function refusedForm(form: ChannelForm, outcome: Extract<SubmitOutcome, { ok: false }>): ChannelForm {
  const f = { ...form, submitting: false };
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
