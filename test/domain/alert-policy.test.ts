// The alert policy, table-driven, at the boundaries of every setting.
import { describe, expect, it } from 'vitest';
import {
  ALERT_DEFAULTS,
  decideAlert,
  reminderDue,
  withinMinInterval,
  type OpenAlertState,
  type StatusChange,
} from '../../src/domain/alert-policy.js';

const change = (over: Partial<StatusChange>): StatusChange => ({
  before: 'passing',
  after: 'failing',
  consecutiveFailures: 2,
  alertOpen: false,
  ...over,
});

describe('decideAlert', () => {
  it.each<[string, Partial<StatusChange>, Partial<typeof ALERT_DEFAULTS>, ReturnType<typeof decideAlert>]>([
    [
      'failing after afterFailures runs opens',
      {},
      {},
      { open: true, resolve: false, notify: 'failure', endsDegraded: false },
    ],
    [
      'one failure short does not',
      { consecutiveFailures: 1 },
      {},
      { open: false, resolve: false, notify: null, endsDegraded: false },
    ],
    [
      'afterFailures 1 pages on the first',
      { consecutiveFailures: 1 },
      { afterFailures: 1 },
      { open: true, resolve: false, notify: 'failure', endsDegraded: false },
    ],
    [
      'more than enough opens',
      { consecutiveFailures: 5 },
      { afterFailures: 5 },
      { open: true, resolve: false, notify: 'failure', endsDegraded: false },
    ],
    [
      'failed runs without failing status do not',
      { after: 'degraded', consecutiveFailures: 9 },
      {},
      { open: false, resolve: false, notify: null, endsDegraded: false },
    ],
    [
      'an open alert is not opened twice',
      { alertOpen: true, before: 'failing' },
      {},
      { open: false, resolve: false, notify: null, endsDegraded: false },
    ],
    [
      'passing resolves with a recovery',
      { alertOpen: true, before: 'failing', after: 'passing' },
      {},
      { open: false, resolve: true, notify: 'recovery', endsDegraded: false },
    ],
    [
      'degraded resolves too',
      { alertOpen: true, before: 'failing', after: 'degraded' },
      {},
      { open: false, resolve: true, notify: 'recovery', endsDegraded: false },
    ],
    [
      'onRecovery false resolves quietly',
      { alertOpen: true, after: 'passing' },
      { onRecovery: false },
      { open: false, resolve: true, notify: null, endsDegraded: false },
    ],
    [
      'unknown keeps it open',
      { alertOpen: true, before: 'failing', after: 'unknown' },
      {},
      { open: false, resolve: false, notify: null, endsDegraded: false },
    ],
    [
      'degraded from passing is quiet by default',
      { after: 'degraded' },
      {},
      { open: false, resolve: false, notify: null, endsDegraded: false },
    ],
    [
      'degraded from passing with onDegraded',
      { after: 'degraded' },
      { onDegraded: true },
      { open: false, resolve: false, notify: 'degraded', endsDegraded: false },
    ],
    [
      'degraded from unknown with onDegraded',
      { before: 'unknown', after: 'degraded' },
      { onDegraded: true },
      { open: false, resolve: false, notify: 'degraded', endsDegraded: false },
    ],
    [
      'still degraded says nothing more',
      { before: 'degraded', after: 'degraded' },
      { onDegraded: true },
      { open: false, resolve: false, notify: null, endsDegraded: false },
    ],
    [
      'failing to degraded without an alert is no degraded notice',
      { before: 'failing', after: 'degraded' },
      { onDegraded: true },
      { open: false, resolve: false, notify: null, endsDegraded: false },
    ],
    [
      'degraded to passing with onDegraded ends the warning',
      { before: 'degraded', after: 'passing' },
      { onDegraded: true },
      { open: false, resolve: false, notify: null, endsDegraded: true },
    ],
    [
      'degraded to failing ends it as the failure opens',
      { before: 'degraded', after: 'failing' },
      { onDegraded: true },
      { open: true, resolve: false, notify: 'failure', endsDegraded: true },
    ],
    [
      'degraded to passing without onDegraded ends one sent while it was on',
      { before: 'degraded', after: 'passing' },
      {},
      { open: false, resolve: false, notify: null, endsDegraded: true },
    ],
    [
      'degraded to unknown keeps the warning, as it keeps an alert',
      { before: 'degraded', after: 'unknown' },
      { onDegraded: true },
      { open: false, resolve: false, notify: null, endsDegraded: false },
    ],
  ])('%s', (_name, over, settings, expected) => {
    expect(decideAlert(change(over), { ...ALERT_DEFAULTS, ...settings })).toEqual(expected);
  });
});

describe('reminderDue', () => {
  const settings = { ...ALERT_DEFAULTS, remindEveryMinutes: 10, maxReminders: 2 };
  const alert: OpenAlertState = { acknowledgedAt: null, remindersSent: 0, lastNotifiedAt: 0 };
  it.each<[string, Partial<typeof alert>, number, Partial<typeof settings>, boolean]>([
    ['not before the interval', {}, 10 * 60_000 - 1, {}, false],
    ['at the interval', {}, 10 * 60_000, {}, true],
    ['the last allowed one', { remindersSent: 1 }, 10 * 60_000, {}, true],
    ['none past maxReminders', { remindersSent: 2 }, 99 * 60_000, {}, false],
    ['none once acknowledged', { acknowledgedAt: 5 }, 99 * 60_000, {}, false],
    ['none when off (0)', {}, 99 * 60_000, { remindEveryMinutes: 0 }, false],
  ])('%s', (_name, over, now, s, expected) => {
    expect(reminderDue({ ...alert, ...over }, { ...settings, ...s }, now)).toBe(expected);
  });
});

describe('withinMinInterval', () => {
  it.each<[number | null, number, boolean]>([
    [null, 0, false],
    [0, 59_999, true],
    [0, 60_000, false],
  ])('previous %s, now %s: %s', (previous, now, expected) => {
    expect(withinMinInterval(previous, now, ALERT_DEFAULTS)).toBe(expected);
  });

  it('is off at 0 seconds', () => {
    expect(withinMinInterval(0, 0, { ...ALERT_DEFAULTS, minIntervalSeconds: 0 })).toBe(false);
  });
});
