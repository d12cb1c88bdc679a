// Who hears what: every listener between the parts, registered in one place before any
// part reads or starts, so nothing a part says at its first read falls on the floor.
import { covers } from '../maintenance/windows.js';
import { deriveCovered } from '../status/covered.js';
import type { Base } from './base.js';
import type { Holds } from './holds.js';
import type { RunSide } from './run-side.js';
import type { StatusSide } from './status-side.js';

export function wire(
  { accounts, live }: Base,
  holds: Holds,
  run: RunSide,
  { engine, alerting, dependencyEnds }: StatusSide,
): void {
  /** Something every status reads moved (a pause, a window in pause mode): schedule and statuses follow. */
  const scheduleMoved = (soon?: ReadonlySet<string>) => {
    const scheduled = holds.scheduled(live.config);
    void run.scheduler.reload(scheduled, soon ? { soon } : undefined);
    // A heartbeat resumed awaits its first ping again (heartbeats/judge.ts): the judge hears it
    // before the statuses are derived, not at the watch's next turn.
    run.heartbeats.watch(scheduled);
    engine.rederiveAll();
    engine.scheduleMoved();
  };
  // A paused check is scheduled as a disabled one; a resumed one runs within seconds.
  holds.pauses.onMoved(({ resumed }) => scheduleMoved(resumed));
  // A window starting or ending moves the schedule as a person's pause does, and the
  // checks it covers are derived at once.
  holds.maintenance.onMoved((windows) => {
    scheduleMoved();
    return deriveCovered(engine, accounts, windows);
  });
  holds.maintenance.onEnded(async (window, occurrence) => {
    const account = accounts.byId(window.accountId);
    if (!account) return;
    const checks = account.checks.filter((c) => covers(window, account, c));
    const { accountId, id, name } = window;
    await alerting.pageStillFailing(
      { kind: 'maintenance', accountId, id, name, endsAt: occurrence.endsAt },
      checks,
    );
  });
  // A parent recovered: after its resolution is written (the next job in order with its
  // results), each dependent still failing pages once.
  dependencyEnds.onEnded(async (account, parent, hold, dependents) => {
    await engine.perCheck(account, parent, () => Promise.resolve());
    await alerting.pageStillFailing(hold, dependents);
  });
  run.runnersBack.on(() => engine.rederiveAll());
  engine.onNotifications(alerting.kick);
}
