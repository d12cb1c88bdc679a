// Acting on a check from the console: run it now and pause or resume it. Each
// asks first, naming the check and what it touches; the feeds
// (feeds/check-actions-feed.ts) send it and follow the runs with one batch read;
// the answer shows in place. Whether a key may act at all (its role, a check to
// act on) is the console's to say before it asks (src/ui/commands/disabled.ts);
// what it says stays here, in `keyRefusal`, until the next key.
//
// How long a message stays: an outcome names its check and goes when the view
// it was taken from is left (nav-slice.ts) or ACTION_LINE_MS after its last
// change, by the store's clock (a run now's line stays while its runs are under
// way); a refusal goes as soon as the next key, or as long after. One message
// at a time: a refusal takes an outcome's place.
import type { StateCreator } from 'zustand/vanilla';
import type { CheckRun } from '../api/schemas/actions.js';
import type { Outcome } from './alerts-slice.js';
import type { ActionAnswer, CheckAction, CheckActionKind, CheckActionsSlice, ConsoleState } from './state.js';

export type { ActionAnswer, CheckAction, CheckActionKind, CheckActionsSlice, RunWatch } from './state.js';

export const isUnfinished = (run: CheckRun) => run.state === 'queued' || run.state === 'running';

const hhmmss = (iso: string) => new Date(iso).toISOString().slice(11, 19);

type Set = Parameters<StateCreator<ConsoleState, [], [], CheckActionsSlice>>[0];
type Get = () => ConsoleState;

export const createCheckActionsSlice: StateCreator<ConsoleState, [], [], CheckActionsSlice> = (set, get) => {
  /** The question, unless another is being sent or there is no such check. */
  const ask = (kind: CheckActionKind, checkId: string | null) => {
    const s = get();
    const check = checkId ? s.checks[checkId] : undefined;
    if (s.checkAction.state === 'sending' || !check) return;
    const locations = check.locations.length;
    set({
      checkAction: { state: 'confirm', kind, checkId: check.checkId, checkName: check.checkName, locations },
    });
  };
  return {
    checkAction: { state: 'idle' },
    keyRefusal: null,
    keyRefusalAt: 0,
    runWatch: null,
    actionsVersion: 0,
    refuseKey(message) {
      if (get().keyRefusal === message) return;
      const replaced = message !== null && finished(get().checkAction);
      set({
        keyRefusal: message,
        keyRefusalAt: get().now,
        ...(replaced ? { checkAction: { state: 'idle' } as const } : {}),
      });
    },
    askRunNow: (checkId) => ask('run', checkId),
    askPauseResume: (checkId) => ask(checkId && get().checks[checkId]?.paused ? 'resume' : 'pause', checkId),
    answerCheckAction(yes) {
      const a = get().checkAction;
      if (a.state !== 'confirm') return;
      set({ checkAction: yes ? { ...a, state: 'sending' } : { state: 'idle' } });
    },
    checkActionDone: (outcome) => actionDone(set, get, outcome),
    applyRuns(read) {
      const watch = get().runWatch;
      if (!watch) return;
      const byId = new Map(read.map((r) => [r.runId, r]));
      const runs = watch.runs.map((r) => byId.get(r.runId) ?? r);
      const landed = [...watch.landed];
      for (const r of runs) if (r.resultId && !landed.includes(r.resultId)) landed.push(r.resultId);
      const finished = runs.every((r) => !isUnfinished(r));
      const newResult = landed.length > watch.landed.length;
      const a = get().checkAction;
      // A run landing is a change of the line: its time starts again.
      const moved = runs.some((r, i) => r.state !== watch.runs[i]?.state);
      set({
        runWatch: { ...watch, runs, landed, finished },
        ...(newResult ? { actionsVersion: get().actionsVersion + 1 } : {}),
        ...(moved && a.state === 'done' && a.checkId === watch.checkId
          ? { checkAction: { ...a, at: get().now } }
          : {}),
      });
      // Every run in: the check view selects the newest result once its list has it.
      const newest = landed[landed.length - 1];
      if (finished && !watch.finished && newest) pickResult(get, watch.checkId, newest);
    },
  };
};

/** The service's answer to the action sent: its outcome in place, and the runs followed. */
function actionDone(set: Set, get: Get, outcome: Outcome<ActionAnswer>) {
  const a = get().checkAction;
  if (a.state !== 'sending') return;
  const { kind, checkId, checkName: name } = a;
  const version = get().actionsVersion + 1;
  const at = get().now;
  if (!outcome.ok) {
    const message = `could not ${kind === 'run' ? 'run' : kind} ${name}${kind === 'run' ? ' now' : ''}: ${outcome.error.message}`;
    set({
      checkAction: { state: 'error', kind, checkId, message, at },
      actionsVersion: version,
      keyRefusal: null,
    });
    return;
  }
  const answer = outcome.value;
  if (answer.kind === 'run') {
    const runs = answer.runs.filter((r) => r.checkId === checkId);
    const message = `${name}: ${runs.length} run${runs.length === 1 ? '' : 's'} asked for`;
    set({
      checkAction: { state: 'done', kind, checkId, message, at },
      keyRefusal: null,
      runWatch: { checkId, checkName: a.checkName, runs, landed: [], finished: false },
      actionsVersion: version,
    });
    get().applyRuns(runs);
    return;
  }
  const { status, note } = answer;
  const message = status.paused
    ? `${name} paused by ${status.paused.by} since ${hhmmss(status.paused.since)} UTC: it does not run until resumed`
    : `${name} resumed: it runs within a few seconds, then on its schedule${note ? ` (${note})` : ''}`;
  set({
    checkAction: { state: 'done', kind, checkId, message, at },
    actionsVersion: version,
    keyRefusal: null,
  });
  const s = get();
  s.applyStatusChanges({ changed: [status], removed: [], summary: s.summary }, s.statusesAt ?? Date.now());
}

/** How long an outcome or a refusal stays after its last change, by the store's clock. */
export const ACTION_LINE_MS = 10_000;

const finished = (a: CheckAction): boolean => a.state === 'done' || a.state === 'error';

/** What of the action line and the refusal has had its time at `now` (for the store's tick). */
export function expiredMessages(s: ConsoleState, now: number): Partial<ConsoleState> {
  const a = s.checkAction;
  const watching = s.runWatch !== null && !s.runWatch.finished && a.state === 'done' && a.kind === 'run';
  const out: Partial<ConsoleState> = {};
  if (finished(a) && 'at' in a && !watching && now - a.at >= ACTION_LINE_MS)
    out.checkAction = { state: 'idle' };
  if (s.keyRefusal !== null && now - s.keyRefusalAt >= ACTION_LINE_MS) out.keyRefusal = null;
  return out;
}

/**
 * What a view left behind says no more: an outcome taken from it, an acknowledgement's
 * answer (one still being sent keeps its place, to be answered), a refusal (nav-slice.ts).
 */
export const messagesLeft = (s: ConsoleState): Partial<ConsoleState> => ({
  ...(finished(s.checkAction) ? { checkAction: { state: 'idle' } as const } : {}),
  ...(s.ack.state === 'done' || s.ack.state === 'error' ? { ack: { state: 'idle' } as const } : {}),
  ...(s.keyRefusal !== null ? { keyRefusal: null } : {}),
});

function pickResult(get: () => ConsoleState, checkId: string, resultId: string) {
  const view = get().stack.findLast((v) => v.name === 'check' && v.checkId === checkId);
  if (view) get().updateView('check', { pickResultId: resultId });
}
