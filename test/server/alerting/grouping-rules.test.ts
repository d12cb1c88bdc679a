// docs/alerts.md, "Grouping per channel", the pure parts: when a notice's group goes (by the
// channel's window and its type's default), which claimed rows make one message, and the words
// of a grouped message (all the names in a chat or an e-mail, three and a count in an SMS or a call).
import { describe, expect, it } from 'vitest';
import type { AlertPayload } from '../../../src/api/schemas/index.js';
import { groupPayload, groupsOf, groupUntil } from '../../../src/server/alerting/grouping.js';
import { oneLine, shortLine, speech, subject } from '../../../src/server/alerting/message.js';
import type { NotificationRow, StoredChannel } from '../../../src/server/storage/types.js';

const channel = (
  type: StoredChannel['type'],
  groupWindowSeconds: number | null = null,
  config: Record<string, unknown> = {},
): StoredChannel => ({
  id: 1,
  accountId: 'a',
  type,
  name: 'x',
  config,
  signingSecret: null,
  groupWindowSeconds,
});

const T = Date.parse('2026-11-28T03:12:10.000Z');

describe('groupUntil', () => {
  it.each([
    ['CHAT', null, 'failure', Date.parse('2026-11-28T03:12:30.000Z')],
    ['EMAIL', null, 'recovery', Date.parse('2026-11-28T03:12:30.000Z')],
    ['SMS', 60, 'failure', Date.parse('2026-11-28T03:13:00.000Z')],
    ['PHONE', null, 'reminder', null],
    ['WEBHOOK', null, 'failure', null],
    ['WEBHOOK', 30, 'failure', Date.parse('2026-11-28T03:12:30.000Z')],
    ['CHAT', 0, 'failure', null],
  ] as const)('%s with window %s, a %s: %s', (type, window, event, want) => {
    expect(groupUntil(channel(type, window), event, T)).toBe(want);
  });

  // A grouped message carries the first alert's key: PagerDuty, Opsgenie and Alertmanager
  // would open one alert for the group and close it at the first recovery.
  it.each(['pagerduty', 'opsgenie', 'alertmanager'])(
    'never groups a WEBHOOK of format %s, whatever its window',
    (format) => {
      expect(groupUntil(channel('WEBHOOK', 60, { format }), 'failure', T)).toBeNull();
      expect(groupUntil(channel('WEBHOOK', 60, { format }), 'recovery', T)).toBeNull();
    },
  );

  it.each(['checkwall', 'template'])('groups a WEBHOOK of format %s given a window', (format) => {
    expect(groupUntil(channel('WEBHOOK', 60, { format }), 'failure', T)).toBe(
      Date.parse('2026-11-28T03:13:00.000Z'),
    );
  });

  it('puts a notice at a window’s edge in the next window', () => {
    const edge = Date.parse('2026-11-28T03:12:30.000Z');
    expect(groupUntil(channel('CHAT'), 'failure', edge)).toBe(edge + 30_000);
  });
});

const row = (id: string, over: Partial<NotificationRow> = {}): NotificationRow => ({
  id,
  accountId: 'a',
  channelId: 1,
  checkId: id,
  alertId: `alert-${id}`,
  event: 'failure',
  status: 'pending',
  attempts: 1,
  lastError: null,
  createdAt: T,
  nextAttemptAt: T,
  sentAt: null,
  channelName: 'x',
  channelType: 'CHAT',
  groupUntil: T,
  payload: {
    event: 'failure',
    alertId: `alert-${id}`,
    check: { id, name: `Check ${id}`, type: 'api' },
    failingLocations: [{ id: 'eu-west', name: 'Frankfurt' }],
    error: 'HTTP 500',
    link: `https://x.test/${id}`,
    channel: { id: 1, name: 'x' },
    occurredAt: '2026-11-28T03:12:10.000Z',
    deliveryId: id,
  },
  ...over,
});

describe('groupsOf', () => {
  it('groups by channel, event and group time; an ungrouped row is its own', () => {
    const rows = [
      row('a'),
      row('b'),
      row('c', { channelId: 2 }),
      row('d', { event: 'recovery' }),
      row('e', { groupUntil: T + 30_000 }),
      row('f', { groupUntil: null }),
      row('g', { groupUntil: null }),
    ];
    expect(groupsOf(rows).map((g) => g.map((r) => r.id))).toEqual([
      ['a', 'b'],
      ['c'],
      ['d'],
      ['e'],
      ['f'],
      ['g'],
    ]);
  });
});

describe('a grouped message', () => {
  const payload = (ids: string[]) => groupPayload(ids.map((id) => row(id))) as AlertPayload;

  it('is the plain message for a group of one', () => {
    expect(payload(['a'])).toEqual(row('a').payload);
    expect(oneLine(payload(['a']))).toBe(
      '[FAILING] Check a is failing at Frankfurt: HTTP 500 https://x.test/a',
    );
  });

  it('names every check in a chat line and an e-mail subject, without one check’s error and link', () => {
    const p = payload(['a', 'b', 'c', 'd', 'e']);
    expect(oneLine(p)).toBe(
      '[FAILING] 5 checks failing: Check a, Check b, Check c, Check d, Check e at Frankfurt',
    );
    expect(subject(p)).toBe('[FAILING] 5 checks failing: Check a, Check b, Check c, Check d, Check e');
    expect((p as Record<string, unknown>)['grouped']).toHaveLength(5);
  });

  it('is short in an SMS and a call', () => {
    const p = payload(['a', 'b', 'c', 'd', 'e']);
    expect(shortLine(p)).toBe(
      '[FAILING] 5 checks failing: Check a, Check b, Check c and 2 more at Frankfurt',
    );
    expect(speech(p)).toBe(
      'Checkwall alert. 5 checks failing: Check a, Check b, Check c and 2 more at Frankfurt.',
    );
    expect(shortLine(payload(['a', 'b']))).toBe('[FAILING] 2 checks failing: Check a, Check b at Frankfurt');
  });

  it('says recovered for a group of recoveries', () => {
    const rows = ['a', 'b'].map((id) =>
      row(id, {
        event: 'recovery',
        payload: { ...row(id).payload, event: 'recovery', failingLocations: [] },
      }),
    );
    expect(oneLine(groupPayload(rows) as AlertPayload)).toBe(
      '[RECOVERED] 2 checks recovered: Check a, Check b now passing',
    );
  });
});
