// `M` at the console (docs/maintenance.md): silence the selected check, its group, or the
// checks the filter shows, for a chosen time and with a reason, after saying
// how many checks that is. Whether the key may (its role, public mode, a check to
// cover) is said before this is asked (src/ui/commands/disabled.ts). Bad input
// keeps what was typed and says what is wrong.
import type { StateCreator } from 'zustand/vanilla';
import type { MaintenanceCreate } from '../api/schemas/maintenance.js';
import { formatClock } from '../domain/format.js';
import { parseUntil } from '../domain/maintenance-time.js';
import type { ConsoleState, SilenceAsk, SilenceSlice, SilenceState, SilenceTarget } from './state.js';
import { selectBoardOrder, selectView } from './selectors.js';

export type { SilenceAsk, SilenceSlice, SilenceState, SilenceTarget } from './state.js';

/** A window's scope names at most this many checks (the wire's limit). */
export const MAX_SCOPE_CHECKS = 1000;
const NAME_MAX = 200;

export const createSilenceSlice: StateCreator<ConsoleState, [], [], SilenceSlice> = (set, get) => {
  const ask = (patch: Partial<SilenceAsk>) => {
    const s = get().silence;
    if (s.state === 'ask') set({ silence: { ...s, ...patch } });
  };
  return {
    silence: { state: 'idle' },
    maintenanceVersion: 0,
    askSilence() {
      const next = silenceAsked(get());
      if (next) set({ silence: next });
    },
    silenceType(text) {
      const s = get().silence;
      if (s.state !== 'ask') return;
      ask(
        s.step === 'duration' ? { durationText: s.durationText + text } : { reasonText: s.reasonText + text },
      );
    },
    silenceErase() {
      const s = get().silence;
      if (s.state !== 'ask') return;
      ask(
        s.step === 'duration'
          ? { durationText: s.durationText.slice(0, -1) }
          : { reasonText: s.reasonText.slice(0, -1) },
      );
    },
    silenceNextTarget() {
      const s = get().silence;
      if (s.state === 'ask') ask({ target: (s.target + 1) % s.targets.length, error: null });
    },
    silenceEnter() {
      const s = get().silence;
      if (s.state !== 'ask') return;
      const until = parseUntil(s.durationText, Date.now());
      if ('error' in until) return ask({ step: 'duration', error: until.error });
      if (s.step === 'duration') return ask({ step: 'reason', error: null });
      const reason = s.reasonText.trim();
      if (!reason) return ask({ error: 'type a reason: it is shown wherever the window is' });
      const body: MaintenanceCreate = {
        name: [...reason].slice(0, NAME_MAX).join(''),
        reason,
        scope: s.targets[s.target]!.scope,
        ...(until.duration ? { duration: until.duration } : { endsAt: new Date(until.endsAt).toISOString() }),
        mode: 'silence',
      };
      set({ silence: { ...s, state: 'sending', body, error: null } });
    },
    silenceBack() {
      const s = get().silence;
      if (s.state !== 'ask') return;
      if (s.step === 'reason') ask({ step: 'duration', error: null });
      else set({ silence: { state: 'idle' } });
    },
    silenceDone(outcome) {
      const s = get().silence;
      if (s.state !== 'sending') return;
      if (!outcome.ok) {
        // Refused (a 400, 403, 409…): the prompt comes back with what was typed and the service's reason.
        const { body: _sent, ...asked } = s;
        return set({ silence: { ...asked, state: 'ask', error: outcome.error.message } });
      }
      const w = outcome.window;
      const end = w.occurrence?.endsAt ?? w.endsAt;
      const message = `silenced ${s.targets[s.target]!.label} until ${formatClock(end, false)} (window ${w.id})`;
      set({
        silence: { state: 'done', ok: true, message },
        maintenanceVersion: get().maintenanceVersion + 1,
      });
    },
    dismissSilence() {
      if (get().silence.state === 'done') set({ silence: { state: 'idle' } });
    },
  };
};

/** What `M` opens: the prompt over its targets, or why it cannot; null while a window is being sent. */
function silenceAsked(s: ConsoleState): SilenceState | null {
  if (s.silence.state === 'sending') return null;
  const refused = (message: string): SilenceState => ({ state: 'done', ok: false, message });
  const shown = selectView(s).name !== 'check' && s.filterText.trim() !== '' ? selectBoardOrder(s).length : 0;
  if (shown > MAX_SCOPE_CHECKS)
    return refused(
      `the filter shows ${shown} checks; a window names at most ${MAX_SCOPE_CHECKS}: narrow the filter`,
    );
  const targets = silenceTargets(s);
  if (targets.length === 0) return refused('no check selected to silence');
  return {
    state: 'ask',
    targets,
    target: 0,
    step: 'duration',
    durationText: '',
    reasonText: '',
    error: null,
  };
}

/**
 * What `M` may cover, the first one offered first: the checks the filter shows
 * (when a filter is on the board), the selected or open check, and its group.
 */
export function silenceTargets(s: ConsoleState): SilenceTarget[] {
  const view = selectView(s);
  const checkId = view.name === 'check' ? view.checkId : s.selectedId;
  const check = checkId ? s.checks[checkId] : undefined;
  const targets: SilenceTarget[] = [];
  if (view.name !== 'check' && s.filterText.trim() !== '') {
    const shown = selectBoardOrder(s);
    const n = shown.length;
    if (n > 0)
      targets.push({
        label: `the ${n} check${n === 1 ? '' : 's'} the filter shows`,
        scope: { checks: shown },
      });
  }
  if (check) targets.push({ label: `check ${check.checkName}`, scope: { checks: [check.checkId] } });
  if (check?.group) targets.push({ label: `group ${check.group.name}`, scope: { groups: [check.group.id] } });
  return targets;
}
