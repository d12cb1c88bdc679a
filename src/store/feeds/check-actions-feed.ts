// The key's role, read once connected; the actions on a check (run now, pause,
// resume), each sent once and never retried by itself; the runs of a run now,
// followed with one batch read a second until all are in; and what the check
// view shows of the check's past: its latest audit events and 30 days of
// daily availability.
import { isApiError } from '../../api/errors.js';
import { AUDIT_SIZE } from '../check-record-slice.js';
import { isUnfinished } from '../check-actions-slice.js';
import type { ActionAnswer, ConsoleState } from '../state.js';
import type { Feed } from '../poller.js';
import { toErrorInfo } from '../poller.js';
import { selectView } from '../selectors.js';
import { actionFeed } from './action-feed.js';
import type { Remote } from '../types.js';

export const meFeed: Feed = {
  key: 'me',
  active: (s) => s.me === null && !s.session.isPublic,
  // Until it is known: a service without /v1/me is asked again now and then, not every poll.
  intervalMs: () => 60_000,
  async run({ client, store, signal }) {
    store.getState().setMe(await client.me({ signal }));
  },
};

/** The service's own words for a refusal (409 paused, 429 too many), else the error's. */
const messageOf = (error: unknown) =>
  isApiError(error) && error.serverMessage ? error.serverMessage : toErrorInfo(error).message;

export const checkActionFeed: Feed = actionFeed({
  key: 'check-action',
  pending: (s) => (s.checkAction.state === 'sending' ? s.checkAction : undefined),
  async act(client, a, signal): Promise<ActionAnswer> {
    if (a.kind === 'run') {
      const { data } = await client.createCheckRuns(
        { checkIds: [a.checkId], triggeredBy: 'manual' },
        { signal },
      );
      return { kind: 'run', runs: data };
    }
    const call = a.kind === 'pause' ? client.pauseCheck : client.resumeCheck;
    const answer = await call(a.checkId, { signal });
    return { kind: a.kind, status: answer.data, note: answer.meta?.note };
  },
  done: (s, outcome) => s.checkActionDone(outcome),
  errorOf: (error) => ({ ...toErrorInfo(error), message: messageOf(error) }),
});

const waitingRuns = (s: ConsoleState) =>
  s.runWatch && !s.runWatch.finished ? s.runWatch.runs.filter(isUnfinished).map((r) => r.runId) : [];

export const checkRunsFeed: Feed = {
  key: 'check-runs',
  active: (s) => waitingRuns(s).length > 0,
  target: (s) => s.runWatch?.runs.map((r) => r.runId).join(',') ?? '',
  intervalMs: () => 1_000,
  // The person asked for these runs: pausing the polling does not stop following them.
  ignoresPause: true,
  async run({ client, store, signal }) {
    const ids = waitingRuns(store.getState());
    if (ids.length === 0) return;
    const { data } = await client.checkRuns(ids, { signal });
    store.getState().applyRuns(data);
  },
};

const openCheck = (s: ConsoleState) => {
  const view = selectView(s);
  return view.name === 'check' ? view.checkId : null;
};

/** A failed read keeps what was on screen, marked as an error. */
const failed = <T>(previous: Remote<T> | null, error: unknown): Remote<T> => ({
  state: 'error',
  error: toErrorInfo(error),
  data: previous && (previous.state === 'ok' || previous.state === 'error') ? previous.data : undefined,
});

export const auditFeed: Feed = {
  key: 'audit',
  active: (s) => openCheck(s) !== null,
  target: (s) => `${openCheck(s)}|${s.actionsVersion}`,
  async run({ client, store, signal, now }) {
    const checkId = openCheck(store.getState());
    if (checkId === null) return;
    const previous = store.getState().audit;
    try {
      const list = await client.auditEvents({ checkId, limit: AUDIT_SIZE }, { signal });
      store.getState().setAudit(checkId, { state: 'ok', data: list, at: now() });
    } catch (error) {
      if (signal.aborted) throw error;
      store
        .getState()
        .setAudit(checkId, failed(previous.checkId === checkId ? previous.remote : null, error));
      throw error;
    }
  },
};

export const dailyHistoryFeed: Feed = {
  key: 'daily-history',
  active: (s) => openCheck(s) !== null,
  target: (s) => openCheck(s) ?? '',
  // Days change slowly: every five minutes is plenty.
  intervalMs: () => 300_000,
  async run({ client, store, signal, now }) {
    const checkId = openCheck(store.getState());
    if (checkId === null) return;
    const previous = store.getState().dailyHistory;
    try {
      const list = await client.checkHistory(checkId, { period: '30d', granularity: 'day' }, { signal });
      store.getState().setDailyHistory(checkId, { state: 'ok', data: list, at: now() });
    } catch (error) {
      if (signal.aborted) throw error;
      const kept = previous.checkId === checkId ? previous.remote : null;
      store.getState().setDailyHistory(checkId, failed(kept, error));
      throw error;
    }
  },
};
