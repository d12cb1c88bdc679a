// Location outages (docs/alerts.md, "A broken location"): every few seconds, and soon after
// a status changes, each account's locations are judged by the rule of
// src/domain/location-outage.ts on the statuses the engine holds. A declared outage is one
// row with its pages (storage/outages-store.ts, one open per location for every instance);
// while it stands the per-check pages of that location are held (`holdAt`, read by the
// planner's notify and by `heldBy`); at its end its recovery goes out and each check still
// failing there pages once (pageStillFailing), and a restart finishes an end it missed.
import { randomUUID } from 'node:crypto';
import type { CheckStatus, LocationOutage } from '../../api/schemas/index.js';
import type { Clock } from '../../domain/clock.js';
import { repeat, type Repeating } from '../../domain/repeat.js';
import { decideOutage, type Outage } from '../../domain/location-outage.js';
import type { Accounts } from '../config/accounts.js';
import type { AccountConfig, CheckConfig, LocationConfig } from '../config/schema.js';
import type { LocationHold } from '../alerting/notify.js';
import { logFailure } from '../storage/observed.js';
import type { HoldEnd, OutageRow, Storage, WaitingGroup } from '../storage/types.js';
import { holdWaitOf, locationOfWait, outagePossible, settleWaits } from './wait.js';
import { createOutagePages, type OutagePageDeps } from './pages.js';
import { createFailingSince, locationPictures, type LocationPicture } from './picture.js';

export interface LocationOutageDeps extends OutagePageDeps {
  storage: OutagePageDeps['storage'] &
    Pick<
      Storage,
      | 'declareOutage'
      | 'endOutage'
      | 'liveOutages'
      | 'markOutageEndPaged'
      | 'waitingNotifications'
      | 'settleWaiting'
    >;
  accounts: Pick<Accounts, 'all' | 'byId'>;
  clock: Clock;
  /** The account's statuses as the engine holds them (its list). */
  statuses(account: AccountConfig): Promise<CheckStatus[]>;
  /** Newest contact of a remote location's runners (the runner hub); null when none was seen. */
  lastSeen(accountId: string, locationId: string): number | null;
  /** An outage began or ended: statuses show `heldBy` anew. */
  moved(): void;
  /** Moves whenever a status does (the engine's version): an account whose statuses stood still is not judged again. */
  version(): number;
  /** Pages each check still failing when the outage ends (alerting/hold-end.ts). */
  pageStillFailing(hold: HoldEnd, checks: readonly CheckConfig[]): Promise<number>;
  /** New notifications were written. */
  kick(): void;
  /** Settles the pages waiting on something else than a location (a parent: alerting/dependency-wait.ts). */
  settleOtherWaits?: ((groups: readonly WaitingGroup[], now: number) => Promise<number>) | undefined;
}

/** How often every account's locations are judged; a status change asks sooner. */
export const JUDGE_EVERY_MS = 2_000;

interface Open {
  row: OutageRow;
  outage: Outage;
  /** Its checks failing there of those compared, as last judged. */
  counts: { failing: number; total: number };
}

export type LocationOutages = ReturnType<typeof createLocationOutages>;

export function createLocationOutages(deps: LocationOutageDeps) {
  const { storage, clock } = deps;
  const pages = createOutagePages(deps);
  const failingSince = createFailingSince();
  const open = new Map<string, Open>();
  const key = (accountId: string, locationId: string) => `${accountId}\0${locationId}`;
  const startedAt = clock.now();
  let timer: Repeating | undefined;

  /** The outages as the database has them: another instance may have declared or ended one. */
  async function readStored() {
    const rows = await storage.liveOutages();
    const stored = new Set<string>();
    let moved = false;
    for (const row of rows) {
      if (row.endedAt !== null) {
        await finishEnd(deps, row);
        continue;
      }
      const k = key(row.accountId, row.locationId);
      stored.add(k);
      if (open.get(k)?.row.id === row.id) continue;
      const outage = { since: row.since, quietSince: null, noRunner: row.noRunner };
      open.set(k, { row, outage, counts: { failing: row.failing, total: row.total } });
      moved = true;
    }
    for (const k of open.keys())
      if (!stored.has(k)) {
        open.delete(k);
        moved = true;
      }
    if (moved) deps.moved();
  }

  const hasOpen = (account: AccountConfig) => account.locations.some((l) => open.has(key(account.id, l.id)));

  /** The engine's version when each account was last judged. */
  const judgedAt = new Map<string, number>();

  async function judgeAccount(account: AccountConfig, waits: readonly WaitingGroup[]) {
    const settings = account.locationOutage;
    if (!outagePossible(account) && waits.length === 0 && !hasOpen(account)) return;
    // Only time can end an outage, lose a runner or end a page's wait; with none of them,
    // nothing changes while statuses stand still.
    const version = deps.version();
    const timed =
      waits.length > 0 || account.locations.some((l) => l.remote || open.has(key(account.id, l.id)));
    if (!timed && judgedAt.get(account.id) === version) return;
    judgedAt.set(account.id, version);
    const now = clock.now();
    const statuses = await deps.statuses(account);
    const pictures = locationPictures(account, statuses, failingSince, now);
    const locationCount = pictures.length;
    for (const picture of pictures) {
      const k = key(account.id, picture.location.id);
      const current = open.get(k);
      const d = decideOutage(current?.outage ?? null, {
        now,
        locationCount,
        checks: picture.checks,
        runnerGone: runnerGone(account, picture, now),
        settings,
      });
      if (d.change === 'declared' && d.outage) await declare(account, picture, d.outage, d, statuses, now);
      else if (d.change === 'ended' && current) await end(account, picture, current.row, now);
      else if (current && d.outage) {
        current.outage = d.outage;
        current.counts = { failing: d.failing, total: d.total };
      }
    }
    const holdAt = (l: string) => hold(account.id, l);
    if ((await settleWaits(storage, account, waits, { pictures, statuses }, holdAt, now)) > 0) deps.kick();
  }

  /** A remote location none of whose runners asked for work within three of its shortest periods. */
  function runnerGone(account: AccountConfig, picture: LocationPicture, now: number): boolean {
    if (!picture.location.remote) return false;
    const seen = deps.lastSeen(account.id, picture.location.id) ?? startedAt;
    return now - seen > 3 * picture.shortestMs;
  }

  async function declare(
    account: AccountConfig,
    picture: LocationPicture,
    outage: Outage,
    counts: { failing: number; total: number },
    statuses: readonly CheckStatus[],
    now: number,
  ) {
    const failingIds = new Set(picture.checks.filter((c) => c.failingSince !== null).map((c) => c.id));
    const byId = new Map(statuses.map((st) => [st.checkId, st]));
    const failing = picture.here.filter(
      (c) => failingIds.has(c.id) || isUnknownHere(byId.get(c.id), picture),
    );
    // A location whose runners stopped is down since they were last heard from.
    const heard = outage.noRunner
      ? (deps.lastSeen(account.id, picture.location.id) ?? startedAt)
      : outage.since;
    const row = newRow(account, picture.location, { ...outage, since: heard }, counts);
    const notices = await pages.declared(account, picture.location, row, picture.here, failing, now);
    row.channels = notices.filter((n) => n.status === 'pending').map((n) => n.channelId);
    if (await storage.declareOutage(row, notices, now)) {
      open.set(key(account.id, picture.location.id), { row, outage, counts });
      deps.moved();
      deps.kick();
    } else await readStored();
  }

  async function end(account: AccountConfig, picture: LocationPicture, row: OutageRow, now: number) {
    open.delete(key(account.id, picture.location.id));
    deps.moved();
    const notices = await pages.ended(account, picture.location, row, picture.here, now);
    if (await storage.endOutage(account.id, row.id, now, notices)) deps.kick();
    await finishEnd(deps, { ...row, endedAt: now });
  }

  async function judgeAll() {
    await readStored();
    const all = await storage.waitingNotifications();
    const waits = all.filter((w) => locationOfWait(w.on) !== null);
    const others = all.filter((w) => locationOfWait(w.on) === null);
    if (others.length > 0 && ((await deps.settleOtherWaits?.(others, clock.now())) ?? 0) > 0) deps.kick();
    for (const account of deps.accounts.all())
      await judgeAccount(
        account,
        waits.filter((w) => w.accountId === account.id),
      );
    // Pages of an account no longer configured wait for no one.
    for (const w of waits)
      if (!deps.accounts.byId(w.accountId))
        await storage.settleWaiting(w.accountId, w.on, { release: 'all' }, clock.now());
  }

  function hold(accountId: string, locationId: string): LocationHold | undefined {
    const o = open.get(key(accountId, locationId));
    if (!o) return undefined;
    const location = deps.accounts.byId(accountId)?.locations.find((l) => l.id === locationId);
    return { outageId: o.row.id, locationId, name: location?.name ?? locationId, since: o.row.since };
  }

  /** One turn at a time: a turn asked for meanwhile runs after it. */
  let turns = Promise.resolve();
  const judge = (): Promise<void> =>
    (turns = turns
      .then(judgeAll)
      .catch((error: unknown) => logFailure('checkwall: judging locations for outages failed', error)));

  return {
    /** Reads the outages stored (finishing an end a stopped service left), then judges every few seconds. */
    async start() {
      await judge();
      timer = repeat(clock, JUDGE_EVERY_MS, judge, () => undefined);
    },
    async stop() {
      await timer?.stop();
      await turns;
    },
    /** Judge soon: a status changed. */
    judge,
    /** The outage holding pages at the location, if any. */
    holdAt: hold,
    /** Whether a page at the location waits for its decision, and how long at most (wait.ts). */
    holdWait: holdWaitOf,
    /** The account's locations down now, as `meta.locationOutages` says them. */
    list(account: AccountConfig): LocationOutage[] {
      return account.locations.flatMap((l) => {
        const o = open.get(key(account.id, l.id));
        return o ? [onTheWire(l, o)] : [];
      });
    },
  };
}

/** A check whose status here is unknown (a remote location whose runners stopped): held with it. */
function isUnknownHere(status: CheckStatus | undefined, picture: LocationPicture) {
  return status?.locations.some((l) => l.id === picture.location.id && l.status === 'unknown') ?? false;
}

function newRow(
  account: AccountConfig,
  location: LocationConfig,
  outage: Outage,
  counts: { failing: number; total: number },
): OutageRow {
  return {
    id: randomUUID(),
    accountId: account.id,
    locationId: location.id,
    since: outage.since,
    endedAt: null,
    noRunner: outage.noRunner,
    ...counts,
    endPaged: false,
    channels: [],
  };
}

const onTheWire = (l: LocationConfig, o: Open): LocationOutage => ({
  id: l.id,
  name: l.name,
  outageId: o.row.id,
  since: new Date(o.row.since).toISOString(),
  failing: o.counts.failing,
  total: o.counts.total,
});

/** Each check still failing at an ended outage's location pages once; then the end is done. */
async function finishEnd(deps: LocationOutageDeps, row: OutageRow) {
  const account = deps.accounts.byId(row.accountId);
  const location = account?.locations.find((l) => l.id === row.locationId);
  if (account && location) {
    const checks = account.checks.filter((c) => c.locations.includes(location.id));
    const hold: HoldEnd = {
      kind: 'location',
      accountId: account.id,
      id: row.id,
      name: location.name,
      endsAt: row.endedAt!,
    };
    await deps.pageStillFailing(hold, checks);
  }
  await deps.storage.markOutageEndPaged(row.accountId, row.id);
}
