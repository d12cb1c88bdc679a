// Maintenance windows at the console (issue 33), drawn by ink-testing-library on
// a real store: the prompt of M (what it covers, how long, why; bad input kept
// with a reason), the window on the check view, and the :maintenance view with
// e (end, asked first) and + (extend). The service's side of each write is the
// store's own outcome action, as the feed calls it (the end-to-end test drives
// the real service).
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { describeScope } from '../../src/domain/maintenance-time.js';
import { createConsoleStore, type ConsoleStore } from '../../src/store/create-store.js';
import { App } from '../../src/ui/app.js';
import { createTheme } from '../../src/ui/theme.js';
import { sampleStatus, sampleSummary, sampleWindow } from '../helpers/samples.js';

let unmount: (() => void) | undefined;
afterEach(() => unmount?.());
const noop = { quit: () => undefined, pollNow: () => undefined, togglePause: () => undefined };
// eslint-disable-next-line no-control-regex -- reading the text without colour codes
const plain = (frame: string | undefined) => (frame ?? '').replace(/\u001b\[[0-9;]*m/g, '');
const BACKSPACE = '\u007f';
const ESC = '\u001b';

function mount(store: ConsoleStore) {
  const view = render(
    <App store={store} actions={noop} theme={createTheme({ color: false, ascii: false })} />,
  );
  unmount = view.unmount;
  return { view, frame: () => plain(view.lastFrame()) };
}

function boardStore(role: 'read' | 'operate' | 'admin' = 'operate') {
  const store = createConsoleStore({ label: 'prod', refreshMs: 60_000 });
  store.getState().setSize(120, 30);
  const checks = [
    sampleStatus('api', { checkName: 'API', status: 'failing', group: { id: 'core', name: 'Core' } }),
    sampleStatus('web', { checkName: 'Web', status: 'failing', group: { id: 'core', name: 'Core' } }),
    sampleStatus('blog', { checkName: 'Blog', status: 'passing', group: null }),
  ];
  store.getState().applyStatuses(checks, sampleSummary({ failing: 2, passing: 1 }), Date.now());
  store.getState().setMe({ accountId: 'a', keyName: 'ops', role });
  return store;
}

describe('M: the maintenance prompt', () => {
  it('is not offered to a read key, and says why', async () => {
    const store = boardStore('read');
    const { view, frame } = mount(store);
    await expect.poll(frame).toContain('API');
    view.stdin.write('M');
    await expect.poll(frame).toContain('M: needs an operate key; this key is read');
    expect(store.getState().keyRefusal).toBe('M: needs an operate key; this key is read');
    expect(store.getState().silence.state).toBe('idle');
  });

  it('says how many checks the filter shows, keeps bad input with a reason, and sends their ids', async () => {
    const store = boardStore();
    store.getState().setFilter('status:failing');
    const { view, frame } = mount(store);
    await expect.poll(frame).toContain('API');
    view.stdin.write('M');
    await expect.poll(frame).toContain('Maintenance (silence) for the 2 checks the filter shows');
    expect(frame()).toContain('(tab: another target)');
    view.stdin.write('soon');
    await expect.poll(frame).toContain('How long? 15m, 1h, 4h, a time (14:30) or ISO: soon');
    view.stdin.write('\r');
    await expect
      .poll(frame)
      .toContain('"soon" is neither a duration (15m, 1h, 4h), a time (14:30) nor an ISO time');
    expect(frame()).toContain('ISO: soon');
    view.stdin.write(BACKSPACE.repeat(4));
    view.stdin.write('1h');
    view.stdin.write('\r');
    await expect.poll(frame).toContain('For 1h. Reason (required):');
    view.stdin.write('   \r');
    await expect.poll(frame).toContain('type a reason: it is shown wherever the window is');
    view.stdin.write('deploy 4.2\r');
    await expect.poll(() => store.getState().silence.state).toBe('sending');
    const silence = store.getState().silence;
    expect(silence.state === 'sending' && silence.body).toEqual({
      name: 'deploy 4.2',
      reason: 'deploy 4.2',
      scope: { checks: ['api', 'web'] },
      duration: '1h',
      mode: 'silence',
    });
    const version = store.getState().maintenanceVersion;
    store
      .getState()
      .silenceDone({ ok: true, window: sampleWindow('mw-7', { scope: { checks: ['api', 'web'] } }) });
    await expect
      .poll(frame)
      .toMatch(/silenced the 2 checks the filter shows until \d\d:\d\d:\d\d \(window mw-7\)/);
    expect(store.getState().maintenanceVersion).toBe(version + 1);
    view.stdin.write('j');
    await expect.poll(frame).not.toContain('silenced the 2 checks');
  });

  it('tab goes to the check alone and to its group; esc steps back, then cancels', async () => {
    const store = boardStore();
    const { view, frame } = mount(store);
    await expect.poll(frame).toContain('API');
    view.stdin.write('M');
    await expect.poll(frame).toContain('Maintenance (silence) for check API');
    view.stdin.write('\t');
    await expect.poll(frame).toContain('Maintenance (silence) for group Core');
    view.stdin.write('15m\r');
    await expect.poll(frame).toContain('For 15m. Reason (required):');
    view.stdin.write(ESC);
    await expect.poll(frame).toContain('How long? 15m, 1h, 4h, a time (14:30) or ISO: 15m');
    view.stdin.write('\r');
    view.stdin.write('db upgrade\r');
    await expect.poll(() => store.getState().silence.state).toBe('sending');
    const silence = store.getState().silence;
    expect(silence.state === 'sending' && silence.body.scope).toEqual({ groups: ['core'] });
    // Refused by the service: the prompt comes back with its reason and what was typed.
    store.getState().silenceDone({
      ok: false,
      error: {
        kind: 'http',
        status: 403,
        message: 'POST /v1/maintenance-windows answered 403: needs operate',
      },
    });
    await expect.poll(frame).toContain('answered 403: needs operate');
    expect(frame()).toContain('For 15m. Reason (required): db upgrade');
    view.stdin.write(ESC);
    await expect.poll(frame).toContain('ISO: 15m');
    view.stdin.write(ESC);
    await expect.poll(() => store.getState().silence.state).toBe('idle');
  });

  it('on the check view, shows the window over the check: name, mode, who, when it ends, why', async () => {
    const store = boardStore();
    const endsAt = new Date(Date.now() + 25 * 60_000 + 30_000).toISOString();
    const api = store.getState().checks['api']!;
    store
      .getState()
      .applyStatuses(
        [{ ...api, maintenance: { id: 'mw-1', name: 'deploy 4.2', endsAt, mode: 'silence' } }],
        null,
        Date.now(),
      );
    store.getState().openCheck('api', false);
    const { view, frame } = mount(store);
    await expect.poll(frame).toContain('Maintenance deploy 4.2 (silenced: pages are held), ends in 25m');
    expect(frame()).toContain('reason: loading…');
    store.getState().setCheckWindow('mw-1', {
      state: 'ok',
      at: Date.now(),
      data: sampleWindow('mw-1', { reason: 'rolling\u001b[2J deploy', endsAt }),
    });
    await expect.poll(frame).toContain(', by ci-key, ends in 25m');
    expect(frame()).toContain('reason: rolling deploy');
    view.stdin.write('M');
    await expect.poll(frame).toContain('Maintenance (silence) for check API');
  });
});

describe(':maintenance', () => {
  it('lists the windows; e ends the selected one after asking, + extends it by a duration', async () => {
    const store = boardStore();
    const { view, frame } = mount(store);
    await expect.poll(frame).toContain('API');
    view.stdin.write(':maint\r');
    await expect.poll(() => store.getState().stack.at(-1)?.name).toBe('maintenance');
    const active = sampleWindow('mw-1', { name: 'deploy\u001b]0;owned\u0007 4.2' });
    const later = sampleWindow('mw-2', {
      name: 'night vacuum',
      state: 'scheduled',
      scope: { tags: ['db'] },
      mode: 'pause',
      createdBy: 'dba',
      startsAt: new Date(Date.now() + 2 * 3_600_000 + 30_000).toISOString(),
    });
    store.getState().setWindows({ state: 'ok', data: [active, later], at: Date.now() });
    await expect.poll(frame).toContain('Maintenance windows (2)');
    expect(frame()).toMatch(
      /active\s+deploy 4\.2\s+ends in 25m\s+silence\s+check api\s+—\s+ci-key\s+rolling deploy/,
    );
    expect(frame()).toMatch(/scheduled\s+night vacuum\s+starts in 2h\s+pause\s+tag db\s+—\s+dba/);
    expect(frame()).not.toContain('owned');

    view.stdin.write('e');
    await expect.poll(frame).toContain('End deploy 4.2 now? Its checks page again if still failing.');
    view.stdin.write('n');
    await expect.poll(() => store.getState().windowAction.state).toBe('idle');
    view.stdin.write('e');
    view.stdin.write('y');
    await expect
      .poll(() => store.getState().windowAction)
      .toMatchObject({
        state: 'sending',
        id: 'mw-1',
        change: { patch: { endsAt: 'now' } },
      });
    store.getState().windowActionDone({ ok: true, window: { ...active, state: 'ended' } });
    await expect.poll(frame).toContain('ended deploy 4.2');

    view.stdin.write('+');
    await expect.poll(frame).toContain('Extend deploy 4.2 by (15m, 1h, 4h…):');
    view.stdin.write('14:30\r');
    await expect.poll(frame).toContain('extend by a duration: 15m, 1h, 4h');
    view.stdin.write(BACKSPACE.repeat(5) + '30m\r');
    await expect.poll(() => store.getState().windowAction.state).toBe('sending');
    const action = store.getState().windowAction;
    const wanted = new Date(Date.parse(active.endsAt) + 30 * 60_000).toISOString();
    expect(action.state === 'sending' && action.change).toEqual({ patch: { endsAt: wanted } });

    store.getState().windowActionDone({
      ok: false,
      error: { kind: 'http', status: 409, message: 'PATCH answered 409: the window has ended' },
    });
    await expect
      .poll(frame)
      .toContain('could not extend deploy 4.2: PATCH answered 409: the window has ended');

    view.stdin.write('j');
    view.stdin.write('e');
    await expect.poll(frame).toContain('Cancel night vacuum before it starts?');
    view.stdin.write('\r');
    await expect
      .poll(() => store.getState().windowAction)
      .toMatchObject({ id: 'mw-2', change: { delete: true } });
  });

  it('offers a read key no e or + at 80x24, and refuses them up front', async () => {
    const store = boardStore('read');
    store.getState().setSize(80, 24);
    const { view, frame } = mount(store);
    await expect.poll(frame).toContain('API');
    view.stdin.write(':maint\r');
    await expect.poll(() => store.getState().stack.at(-1)?.name).toBe('maintenance');
    store.getState().setWindows({ state: 'ok', data: [sampleWindow('mw-1')], at: Date.now() });
    await expect.poll(frame).toContain('Maintenance windows (1)');
    const footer = () => frame().split('\n').at(-1)!;
    expect(footer()).toContain('q/ctrl+c quit');
    expect(footer()).not.toMatch(/\be end\b|\+ extend/);
    view.stdin.write('e');
    await expect.poll(footer).toContain('e: needs an operate key; this key is read');
    expect(store.getState().windowAction.state).toBe('idle');
    view.stdin.write('+');
    await expect.poll(footer).toContain('+: needs an operate key; this key is read');
    expect(store.getState().windowAction.state).toBe('idle');
  });

  it('gives SCOPE the free width and counts the checks a window covers (120x40)', async () => {
    const store = boardStore();
    store.getState().setSize(120, 40);
    const { view, frame } = mount(store);
    await expect.poll(frame).toContain('API');
    view.stdin.write(':maint\r');
    await expect.poll(() => store.getState().stack.at(-1)?.name).toBe('maintenance');
    const wide = sampleWindow('mw-1', {
      scope: { checks: ['api', 'web', 'blog'], groups: ['core'], tags: ['db', 'payments'] },
      coveredChecks: ['api', 'web', 'blog', 'db-1'],
    });
    const old = sampleWindow('mw-2', { name: 'old service', scope: { tags: ['db'] } });
    store.getState().setWindows({ state: 'ok', data: [wide, old], at: Date.now() });
    await expect.poll(frame).toContain('Maintenance windows (2)');
    expect(frame()).toMatch(/SCOPE\s+CHECKS/);
    const row = frame()
      .split('\n')
      .find((l) => l.includes('deploy 4.2'))!;
    expect(row).toContain(describeScope(wide.scope));
    expect(row).toMatch(/\s4\s/);
    expect(
      frame()
        .split('\n')
        .find((l) => l.includes('old service')),
    ).toMatch(/tag db\s+—\s/);
  });

  it('lists the maintenance keys in the ? help', async () => {
    const store = boardStore();
    store.getState().setSize(120, 200);
    const { view, frame } = mount(store);
    await expect.poll(frame).toContain('API');
    view.stdin.write('?');
    await expect.poll(frame).toContain('Maintenance windows (:maintenance)');
    expect(frame()).toMatch(/M\s+maintenance: silence the selected check/);
    expect(frame()).toMatch(/\+\s+extend the selected window by a duration/);
    expect(frame()).toMatch(/e\s+end the selected window now/);
  });
});
