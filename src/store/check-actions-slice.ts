// Acting on a check from the console: run it now and pause or resume it. Each
// asks first, naming the check and what it touches; the feeds
// (feeds/check-actions-feed.ts) send it and follow the runs with one batch read;
// the answer shows in place. Whether a key may act at all (its role, a check to
// act on) is the console's to say before it asks (src/ui/commands/disabled.ts);
// what it says stays here, in `keyRefusal`, until the next key.
import type { StateCreator } from 'zustand/vanilla';
import type { CheckRun } from '../api/schemas/actions.js';
import type { Outcome } from './alerts-slice.js';
import type { ActionAnswer, CheckActionKind, CheckActionsSlice, ConsoleState } from './state.js';

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
    runWatch: null,
    actionsVersion: 0,
    refuseKey(message) {
      if (get().keyRefusal !== message) set({ keyRefusal: message });
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
      set({
        runWatch: { ...watch, runs, landed, finished },
        ...(newResult ? { actionsVersion: get().actionsVersion + 1 } : {}),
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
  const { kind, checkId } = a;
  const version = get().actionsVersion + 1;
  if (!outcome.ok) {
    const message = `could not ${kind === 'run' ? 'run it now' : kind}: ${outcome.error.message}`;
    set({ checkAction: { state: 'error', kind, checkId, message }, actionsVersion: version });
    return;
  }
  const answer = outcome.value;
  if (answer.kind === 'run') {
    const runs = answer.runs.filter((r) => r.checkId === checkId);
    const message = `${runs.length} run${runs.length === 1 ? '' : 's'} asked for`;
    set({
      checkAction: { state: 'done', kind, checkId, message },
      runWatch: { checkId, checkName: a.checkName, runs, landed: [], finished: false },
      actionsVersion: version,
    });
    get().applyRuns(runs);
    return;
  }
  const { status, note } = answer;
  const message = status.paused
    ? `paused by ${status.paused.by} since ${hhmmss(status.paused.since)} UTC: it does not run until resumed`
    : `resumed: it runs within a few seconds, then on its schedule${note ? ` (${note})` : ''}`;
  set({ checkAction: { state: 'done', kind, checkId, message }, actionsVersion: version });
  const s = get();
  s.applyStatusChanges({ changed: [status], removed: [], summary: s.summary }, s.statusesAt ?? Date.now());
}

function pickResult(get: () => ConsoleState, checkId: string, resultId: string) {
  const view = get().stack.findLast((v) => v.name === 'check' && v.checkId === checkId);
  if (view) get().updateView('check', { pickResultId: resultId });
}
