// Creating alert channels through the console's store, its form and the
// poller's POST feed, against the project's service and a fixture for a 400;
// and changing a channel's grouping window (`w`) and what it serves (`s`) with PUTs.
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client.js';
import {
  CHANNEL_TYPES,
  fieldPaths,
  formFields,
  isDirty,
  toCreateBody,
  toggleSub,
  visibleErrors,
} from '../../src/store/channel-form.js';
import { createConsoleStore, type ConsoleStore } from '../../src/store/create-store.js';
import { channelGroupingFeed } from '../../src/store/feeds/alerts-feed.js';
import { channelsFeed, channelSubmitFeed } from '../../src/store/feeds/channels-feed.js';
import { createPoller, type Poller } from '../../src/store/poller.js';
import { createFakeClock } from '../helpers/fake-clock.js';
import { closedPortUrl, json, startFixture } from '../helpers/fixture.js';
import { startTestService, TEST_ACCOUNT, TEST_KEY, testConfig } from '../helpers/service.js';

let cleanup: Array<() => unknown> = [];
let poller: Poller;
afterEach(async () => {
  for (const f of cleanup.reverse()) await f();
  cleanup = [];
});

function consoleOn(baseUrl: string, headersMs?: number, apiKey = TEST_KEY): ConsoleStore {
  const client = createClient({
    baseUrl,
    apiKey,
    accountId: TEST_ACCOUNT,
    retry: { retries: 0 },
    ...(headersMs ? { timeouts: { headersMs } } : {}),
  });
  const store = createConsoleStore({ refreshMs: 60_000 }, { name: 'channels' });
  poller = createPoller({
    store,
    client,
    feeds: [channelsFeed, channelSubmitFeed, channelGroupingFeed],
    backoff: { baseMs: 20, maxMs: 100 },
    tickMs: 0,
    clock: createFakeClock(),
  });
  cleanup.push(
    () => poller.stop(),
    () => client.close(),
  );
  return store;
}

type Values = Record<string, string>;
interface Rows {
  headers?: Array<[string, string]>;
  queryParameters?: Array<[string, string]>;
}

/** Opens the form and types into it the way the keys do: type, then each field in focus order. */
function fill(store: ConsoleStore, type: (typeof CHANNEL_TYPES)[number], values: Values, rows: Rows = {}) {
  const s = () => store.getState();
  s().openForm();
  while (CHANNEL_TYPES[s().form.typeCursor] !== type) s().formMoveType(1);
  s().formChooseType();
  for (const [path, text] of Object.entries(values)) {
    while (fieldPaths(s().form)[s().form.focus] !== path) s().formFocus(1);
    // A chooser (a service, a format, a method) is moved to its choice, never typed into.
    const choices = formFields(s().form).find((f) => f.path === path)?.choices;
    if (choices) {
      expect(choices).toContain(text);
      while (s().form.values[path] !== text) s().formCycle(1);
    } else for (const ch of text) s().formType(ch);
  }
  for (const list of ['headers', 'queryParameters'] as const)
    for (const [key, value] of rows[list] ?? []) {
      s().formAddRow(list);
      s().formType(key);
      s().formFocus(1);
      s().formType(value);
    }
}

const EVERY_TYPE: Array<[(typeof CHANNEL_TYPES)[number], Values, Rows, Record<string, unknown>]> = [
  ['EMAIL', { name: 'Mail', 'config.address': 'ops@example.com' }, {}, { address: 'ops@example.com' }],
  [
    'CHAT',
    { name: 'Chat', 'config.url': 'https://chat.example.com/hook/x', 'config.channel': '#ops' },
    {},
    { url: 'https://chat.example.com/hook/x', channel: '#ops' },
  ],
  [
    'WEBHOOK',
    { name: 'Hook', 'config.url': 'https://example.com/h', 'config.method': 'PUT' },
    { headers: [['X-Token', 's3cret']], queryParameters: [['team', 'sre']] },
    {
      url: 'https://example.com/h',
      method: 'PUT',
      headers: [{ key: 'X-Token', value: 's3cret' }],
      queryParameters: [{ key: 'team', value: 'sre' }],
    },
  ],
  [
    'SMS',
    { name: 'Pager', 'config.number': '+4915112345678', 'config.name': 'On call', groupWindowSeconds: '120' },
    {},
    { number: '+4915112345678', name: 'On call' },
  ],
  [
    'PHONE',
    { name: 'Call', 'config.number': '+14155550123', 'config.name': 'Escalation' },
    {},
    { number: '+14155550123', name: 'Escalation' },
  ],
];

describe('creating alert channels from the console', () => {
  it('creates one of every type: 201 closes the form, refreshes the list and selects the new channel', async () => {
    const svc = await startTestService();
    cleanup.push(() => svc.close());
    const store = consoleOn(svc.url);
    await expect.poll(() => store.getState().lists.channels.remote.state).toBe('ok');
    for (const [type, values, rows, config] of EVERY_TYPE) {
      fill(store, type, values, rows);
      expect(store.getState().stack.at(-1)?.name).toBe('channel-form');
      store.getState().formSubmit();
      await expect.poll(() => store.getState().stack.at(-1)?.name).toBe('channels');
      const created = () => {
        const r = store.getState().lists.channels.remote;
        return r.state === 'ok'
          ? r.data.data.find((c) => c.id === store.getState().lists.channels.selectedId)
          : undefined;
      };
      await expect.poll(() => created()?.type).toBe(type);
      expect(created()).toMatchObject({ name: values['name'], config });
    }
    const client = createClient({ baseUrl: svc.url, apiKey: TEST_KEY, accountId: TEST_ACCOUNT });
    cleanup.push(() => client.close());
    const stored = await client.alertChannels({ limit: 100 });
    expect(stored.data.map((c) => c.type)).toEqual(EVERY_TYPE.map(([t]) => t));
    // The grouping window typed for the SMS; blank elsewhere: the type's default, not sent.
    expect(stored.data.map((c) => c.groupWindowSeconds)).toEqual([
      undefined,
      undefined,
      undefined,
      120,
      undefined,
    ]);
  });

  it('submits while polling is paused: a submit is the user’s own action', async () => {
    const svc = await startTestService();
    cleanup.push(() => svc.close());
    const store = consoleOn(svc.url);
    poller.pause();
    fill(store, 'EMAIL', { name: 'Paused', 'config.address': 'p@example.com' });
    store.getState().formSubmit();
    await expect.poll(() => store.getState().stack.at(-1)?.name).toBe('channels');
    expect(store.getState().phase).toBe('paused');
  });

  it('keeps the form open with everything typed on 402 at the plan limit', async () => {
    const svc = await startTestService({ maxAlertChannels: 1 });
    cleanup.push(() => svc.close());
    const store = consoleOn(svc.url);
    fill(store, 'EMAIL', { name: 'First', 'config.address': 'a@example.com' });
    store.getState().formSubmit();
    await expect.poll(() => store.getState().stack.at(-1)?.name).toBe('channels');
    fill(store, 'EMAIL', { name: 'Second', 'config.address': 'b@example.com' });
    store.getState().formSubmit();
    await expect.poll(() => store.getState().form.submitting).toBe(false);
    const { form, stack } = store.getState();
    expect(stack.at(-1)?.name).toBe('channel-form');
    expect(form.formError).toMatch(/plan’s alert channel limit is reached/);
    expect(form.values).toEqual({ name: 'Second', 'config.address': 'b@example.com' });
  });

  it('shows a 400’s details beside the fields they name', async () => {
    const f = await startFixture((req, res) =>
      req.method === 'POST'
        ? json(res, 400, {
            statusCode: 400,
            error: 'Bad Request',
            message: 'invalid alert channel',
            details: [
              { path: 'config.number', message: 'this carrier refuses the number' },
              { path: 'name', message: 'already taken' },
            ],
          })
        : json(res, 200, { data: [], meta: { currentPage: 1, totalPages: 1, totalItems: 0, limit: 20 } }),
    );
    cleanup.push(() => f.close());
    const store = consoleOn(f.url);
    fill(store, 'SMS', { name: 'Pager', 'config.number': '+4915112345678', 'config.name': 'On call' });
    store.getState().formSubmit();
    await expect
      .poll(() => store.getState().form.serverErrors['config.number'])
      .toBe('this carrier refuses the number');
    expect(store.getState().form.serverErrors['name']).toBe('already taken');
    expect(store.getState().form.values['config.number']).toBe('+4915112345678');
    // The focus went to the first field named; editing it clears what the server said about it only.
    expect(fieldPaths(store.getState().form)[store.getState().form.focus]).toBe('name');
    store.getState().formErase();
    expect(store.getState().form.serverErrors).toEqual({
      'config.number': 'this carrier refuses the number',
    });
    expect(store.getState().form.values['name']).toBe('Page');
  });

  it('survives a service that is down, then submits once it is back', async () => {
    const down = await closedPortUrl();
    const store = consoleOn(down);
    fill(store, 'CHAT', { name: 'Chat', 'config.url': 'https://chat.example.com/hook/y' });
    store.getState().formSubmit();
    await expect.poll(() => store.getState().form.formError).toMatch(/^network: .*your input is kept/);
    expect(store.getState().form.submitting).toBe(false);
    expect(store.getState().form.values['config.url']).toBe('https://chat.example.com/hook/y');
    const svc = await startTestService({ port: Number(new URL(down).port) });
    cleanup.push(() => svc.close());
    store.getState().formSubmit();
    await expect.poll(() => store.getState().stack.at(-1)?.name).toBe('channels');
    const names = () => {
      const r = store.getState().lists.channels.remote;
      return r.state === 'ok' ? r.data.data.map((c) => c.name) : [];
    };
    await expect.poll(names).toEqual(['Chat']);
  });

  it('keeps the form as typed when the POST times out, and sent it once only', async () => {
    const f = await startFixture((req, res) =>
      req.method === 'POST'
        ? undefined // never answers
        : json(res, 200, { data: [], meta: { currentPage: 1, totalPages: 1, totalItems: 0, limit: 20 } }),
    );
    cleanup.push(() => f.close());
    const store = consoleOn(f.url, 300);
    fill(store, 'EMAIL', { name: 'Mail', 'config.address': 'ops@example.com' });
    store.getState().formSubmit();
    await expect.poll(() => store.getState().form.formError).toMatch(/^timeout: .*enter to try again/);
    expect(store.getState().form.values).toEqual({ name: 'Mail', 'config.address': 'ops@example.com' });
    expect(f.seen.filter((r) => r.method === 'POST')).toHaveLength(1);
  });

  it('takes a grouping window in seconds or minutes, at most 60m, and says the type’s default while blank', () => {
    const store = createConsoleStore({}, { name: 'channels' });
    const s = () => store.getState();
    const hint = () => formFields(s().form).find((f) => f.path === 'groupWindowSeconds')?.hint;
    fill(store, 'WEBHOOK', { name: 'Hook', 'config.url': 'https://example.com/h' });
    expect(hint()).toMatch(/blank: 0s$/);
    fill(store, 'EMAIL', { name: 'Mail', 'config.address': 'ops@example.com', groupWindowSeconds: 'soon' });
    expect(hint()).toMatch(/blank: 30s$/);
    const reason = 'seconds (90) or minutes (2m), at most 60m, or blank for the default';
    expect(visibleErrors(s().form)['groupWindowSeconds']).toBe(reason);
    s().formSubmit();
    expect(s().form.submitting).toBe(false);
    expect(s().form.formError).toMatch(/fix the fields/);
    expect(s().form.values['groupWindowSeconds']).toBe('soon');
    for (const [typed, sent, error] of [
      ['3601', 3601, reason],
      ['61m', 3660, reason],
      ['3600', 3600, undefined],
      ['2m', 120, undefined],
      ['90s', 90, undefined],
      ['0', 0, undefined],
      ['1.5m', '1.5m', reason],
    ] as const) {
      const form = { ...s().form, values: { ...s().form.values, groupWindowSeconds: typed } };
      expect(toCreateBody(form)).toMatchObject({ groupWindowSeconds: sent });
      expect(visibleErrors(form)['groupWindowSeconds']).toBe(error);
    }
  });

  it('refuses to submit an invalid form and says why beside each field', () => {
    const store = createConsoleStore({}, { name: 'channels' });
    fill(
      store,
      'WEBHOOK',
      // The method is a chooser: a method the service does not take cannot be entered.
      { name: ' ', 'config.url': 'ftp://x' },
      { headers: [['', 'v']] },
    );
    store.getState().formSubmit();
    const { form } = store.getState();
    expect(form.submitting).toBe(false);
    expect(form.formError).toMatch(/fix the fields/);
    expect(form.values['config.url']).toBe('ftp://x');
  });
});

describe('changing a channel’s grouping window from the console (w)', () => {
  const OPERATE_KEY = 'cw_operate_0123456789abcdef';
  const selected = (store: ConsoleStore) => {
    const { remote, selectedId } = store.getState().lists.channels;
    return remote.state === 'ok' ? remote.data.data.find((c) => c.id === selectedId) : undefined;
  };
  /** Erases what the prompt holds, then types `text`. */
  const type = (store: ConsoleStore, text: string) => {
    while (typed(store)) store.getState().groupingErase();
    store.getState().groupingType(text);
  };
  const typed = (store: ConsoleStore) => {
    const g = store.getState().grouping;
    return g.state === 'ask' ? g.text : undefined;
  };

  it('starts from the channel’s own window, sets seconds, minutes, off or the default, and reads the list again', async () => {
    const svc = await startTestService();
    cleanup.push(() => svc.close());
    const store = consoleOn(svc.url);
    const s = () => store.getState();
    await expect.poll(() => s().lists.channels.remote.state).toBe('ok');
    const sms = { name: 'Pager', 'config.number': '+4915112345678', 'config.name': 'On call' };
    fill(store, 'SMS', { ...sms, groupWindowSeconds: '2m' });
    s().formSubmit();
    await expect.poll(() => selected(store)?.groupWindowSeconds).toBe(120);
    // The channel's own window, as if selected: the first key typed replaces it.
    const own2m = { state: 'ask', name: 'Pager', was: 120, fallback: 30, text: '2m', fresh: true };
    s().askGrouping();
    expect(s().grouping).toMatchObject(own2m);
    s().groupingType('9');
    expect(s().grouping).toMatchObject({ text: '9', fresh: false });
    s().groupingType('0');
    expect(s().grouping).toMatchObject({ text: '90' });
    s().groupingCancel();
    s().askGrouping();
    s().groupingErase();
    expect(s().grouping).toMatchObject({ text: '', fresh: false });
    s().groupingCancel();
    // undefined: enter alone, which sends what the channel has: nothing changes; '': backspace.
    for (const [text, own, shown] of [
      [undefined, 120, 'Pager: grouping window 2m, was 2m'],
      ['90', 90, 'Pager: grouping window 90s, was 2m'],
      ['off', 0, 'Pager: grouping window off, was 90s'],
      ['', undefined, 'Pager: grouping window 30s (its type’s default), was off'],
      ['5m', 300, 'Pager: grouping window 5m, was 30s'],
    ] as const) {
      s().askGrouping();
      if (text === '') s().groupingErase();
      else if (text !== undefined) s().groupingType(text);
      s().groupingApply();
      expect(s().grouping.state).toBe('sending');
      await expect.poll(() => s().grouping).toEqual({ state: 'done', ok: true, message: shown });
      await expect.poll(() => selected(store)?.groupWindowSeconds).toBe(own);
      s().dismissGrouping();
      expect(s().grouping.state).toBe('idle');
    }
  });

  it('keeps what was typed and says why: input it cannot read, and a key the service refuses', async () => {
    const config = testConfig();
    config.accounts[0]!.apiKeys.push({ key: OPERATE_KEY, name: 'ops', role: 'operate' });
    const svc = await startTestService({ config });
    cleanup.push(() => svc.close());
    const admin = consoleOn(svc.url);
    await expect.poll(() => admin.getState().lists.channels.remote.state).toBe('ok');
    fill(admin, 'EMAIL', { name: 'Mail', 'config.address': 'ops@example.com' });
    admin.getState().formSubmit();
    await expect.poll(() => selected(admin)?.name).toBe('Mail');
    const store = consoleOn(svc.url, undefined, OPERATE_KEY);
    const s = () => store.getState();
    await expect.poll(() => selected(store)?.name).toBe('Mail');
    s().askGrouping();
    expect(s().grouping).toMatchObject({ state: 'ask', was: 30, text: '' });
    const reason = 'seconds (90) or minutes (2m), at most 60m, or blank for the default';
    for (const bad of ['61m', '3601', 'soon', '1.5m']) {
      type(store, bad);
      s().groupingApply();
      expect(s().grouping).toMatchObject({ state: 'ask', text: bad, error: reason });
    }
    type(store, '2m');
    s().groupingApply();
    // An operate key may not: the service's 403, beside what was typed.
    await expect.poll(() => s().grouping.state).toBe('ask');
    expect(s().grouping).toMatchObject({ text: '2m', error: expect.stringMatching(/admin/) });
    s().groupingCancel();
    expect(s().grouping.state).toBe('idle');
    expect(selected(store)?.groupWindowSeconds).toBeUndefined();
  });
});

describe('changing what a channel serves from the console (s)', () => {
  it('PUTs the checks and groups chosen, keeps its locations, and keeps the choices when refused', async () => {
    const svc = await startTestService();
    cleanup.push(() => svc.close());
    const client = createClient({ baseUrl: svc.url, apiKey: TEST_KEY, accountId: TEST_ACCOUNT });
    cleanup.push(() => client.close());
    const made = await client.createAlertChannel({
      type: 'EMAIL',
      name: 'Mail',
      config: { address: 'ops@example.com' },
      subscriptions: { checks: ['c1'], groups: [], locations: ['eu-west'] },
    });
    const store = consoleOn(svc.url);
    const s = () => store.getState();
    const selected = () => {
      const { remote, selectedId } = s().lists.channels;
      return remote.state === 'ok' ? remote.data.data.find((c) => c.id === selectedId) : undefined;
    };
    await expect.poll(() => selected()?.id).toBe(made.id);
    s().openSubscriptions();
    expect(s().stack.at(-1)?.name).toBe('channel-form');
    expect(s().focus).toBe('form');
    expect(s().form.edit).toEqual({
      channelId: made.id,
      name: 'Mail',
      was: { checks: ['c1'], groups: [] },
      locations: ['eu-west'],
    });
    expect(fieldPaths(s().form)).toEqual(['subscriptions.checks', 'subscriptions.groups']);
    // Nothing changed: esc goes straight back, and enter sends nothing.
    expect(isDirty(s().form)).toBe(false);
    s().formEscape();
    expect(s().stack.at(-1)?.name).toBe('channels');
    expect(s().form.edit).toBeNull();
    s().openSubscriptions();
    s().formSubmit();
    expect(s().form.submitting).toBe(false);
    expect(s().stack.at(-1)?.name).toBe('channels');
    expect(s().handsNote).toBe('Mail: nothing changed');
    s().openSubscriptions();
    // A check the account does not have: the service's 400 under the rows, the choices kept.
    store.setState({ form: toggleSub(s().form, 'checks', 'zz') });
    expect(isDirty(s().form)).toBe(true);
    s().formSubmit();
    await expect.poll(() => s().form.formError).toMatch(/^not saved: .*unknown in this account: check "zz"/);
    expect(s().form.subscriptions.checks).toEqual(['c1', 'zz']);
    expect(s().stack.at(-1)?.name).toBe('channel-form');
    const next = toggleSub(toggleSub(toggleSub(s().form, 'checks', 'zz'), 'checks', 'c1'), 'groups', 'edge');
    store.setState({ form: next });
    s().formSubmit();
    await expect.poll(() => s().stack.at(-1)?.name).toBe('channels');
    expect(s().handsNote).toBe('Mail serves 1 group now, and the outages of 1 location');
    expect(await client.subscriptions(made.id)).toEqual({
      checks: [],
      groups: ['edge'],
      locations: ['eu-west'],
    });
    await expect
      .poll(() => selected()?.subscriptions)
      .toEqual({ checks: [], groups: ['edge'], locations: ['eu-west'] });
    // Someone else saves meanwhile: the PUT would replace their change unseen, so it is not sent.
    s().openSubscriptions();
    store.setState({ form: toggleSub(s().form, 'checks', 'c1') });
    await client.setSubscriptions(made.id, { checks: ['c2'], groups: ['edge'], locations: [] });
    s().formSubmit();
    await expect
      .poll(() => s().form.formError)
      .toBe(
        'not saved: changed meanwhile (Mail serves 1 check and 1 group now) — enter saves your choices over it, esc keeps it',
      );
    expect(await client.subscriptions(made.id)).toEqual({ checks: ['c2'], groups: ['edge'], locations: [] });
    expect(s().form.subscriptions).toEqual({ checks: ['c1'], groups: ['edge'] });
    // A second enter saves the choices over it, and keeps the locations as they are now.
    s().formSubmit();
    await expect.poll(() => s().stack.at(-1)?.name).toBe('channels');
    expect(await client.subscriptions(made.id)).toEqual({ checks: ['c1'], groups: ['edge'], locations: [] });
    // The form is a new channel's again.
    s().openForm();
    expect(s().form.edit).toBeNull();
  });
});
