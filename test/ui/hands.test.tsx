// The console's hands (issue 46) drawn by ink-testing-library with a real store fed
// sample pages: runbook and links on the check and result views (nothing when
// absent), b without a display (the URL whole, and copied), L and Y menus, y on a
// result (the request as curl, secrets masked), OSC 8 links that close inside the
// width, and the engineer's own commands in the footer and ?, hidden from a read key.
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import type { CheckResult } from '../../src/api/schemas/index.js';
import { displayWidth } from '../../src/domain/sanitize.js';
import { createConsoleStore, type ConsoleStore } from '../../src/store/create-store.js';
import { App } from '../../src/ui/app.js';
import type { ConsoleActions } from '../../src/ui/commands/index.js';
import { createTheme } from '../../src/ui/theme.js';
import { userKeyProblems } from '../../src/ui/user-keys.js';
import { scopeOf } from '../../src/store/dashboards-slice.js';
import {
  resultList,
  sampleDashboard,
  sampleResult,
  sampleStatus,
  sampleSummary,
} from '../helpers/samples.js';

let unmount: (() => void) | undefined;
afterEach(() => unmount?.());
/* eslint-disable no-control-regex -- reading frames without their escape sequences */
const plain = (frame: string | undefined) =>
  (frame ?? '').replace(/\u001b\[[0-9;]*m/g, '').replace(/\u001b\]8;;[^\u0007]*\u0007/g, '');
/* eslint-enable no-control-regex */
const tick = () => new Promise((resolve) => setTimeout(resolve, 30));

const RUNBOOK = 'https://runbooks.example.com/payments/what-to-do-when-the-payments-api-fails';
const links = [
  { name: 'grafana', url: 'https://grafana.example.com/d/pay' },
  { name: 'evil', url: 'javascript:alert(1)' },
];
const result = sampleResult('r1', {
  checkId: 'c1',
  status: 'failed',
  request: {
    method: 'POST',
    url: 'https://api.example.com/v1/pay',
    // As the service serves it: credential headers masked (docs/security.md).
    headers: { authorization: '•••', 'x-trace': 'abc' },
    body: `{"note":"'; rm -rf ~"}`,
  },
});

interface Setup {
  cols: number;
  rows: number;
  withLinks?: boolean;
  display?: boolean;
  hyperlinks?: boolean;
}

function mount({ cols, rows, withLinks = true, display = false, hyperlinks = false }: Setup) {
  const store = createConsoleStore({ label: 'prod', baseUrl: 'http://127.0.0.1:8787' });
  store.getState().setSize(cols, rows);
  const extra = withLinks ? { runbook: RUNBOOK, links } : {};
  store
    .getState()
    .applyStatuses([sampleStatus('c1', { checkName: 'Payments', ...extra })], sampleSummary(), Date.now());
  const copied: string[] = [];
  const opened: string[] = [];
  const ran: string[][] = [];
  const actions: ConsoleActions = {
    quit: () => undefined,
    pollNow: () => undefined,
    togglePause: () => undefined,
    copy: (text) => void copied.push(text),
    open: (url) => (display ? (opened.push(url), true) : false),
    runInTerminal: (argv) => (ran.push(argv), 'exited 0'),
  };
  const view = render(
    <App
      store={store}
      actions={actions}
      theme={createTheme({ color: false, ascii: false, links: hyperlinks })}
    />,
  );
  unmount = view.unmount;
  return { store, view, copied, opened, ran, frame: () => plain(view.lastFrame()) };
}

async function toResult(store: ConsoleStore, stdin: { write(s: string): void }, r = result) {
  store.getState().openCheck('c1', false);
  store.getState().applyResults('c1', resultList([r]), resultList([r]), r, Date.now());
  await tick();
  stdin.write('\r');
  await tick();
}

describe('runbook and links', () => {
  for (const [cols, rows] of [
    [80, 24],
    [120, 40],
    [200, 55],
  ] as const) {
    it(`shows the runbook and the links' names on the check and result views at ${cols}x${rows}`, async () => {
      const { store, view, frame } = mount({ cols, rows });
      store.getState().openCheck('c1', false);
      await tick();
      expect(frame()).toMatch(/runbook https:\/\/runbooks\.example\.com\//);
      expect(frame()).toContain('links: grafana, evil (L)');
      for (const line of frame().split('\n')) expect(displayWidth(line)).toBeLessThanOrEqual(cols);
      await toResult(store, view.stdin);
      expect(frame()).toMatch(/runbook https:\/\/runbooks/);
    });
  }

  it('shows nothing when the check has neither', async () => {
    const { store, frame } = mount({ cols: 80, rows: 24, withLinks: false });
    store.getState().openCheck('c1', false);
    await tick();
    expect(frame()).not.toContain('runbook');
    expect(frame()).not.toContain('links:');
  });

  it('draws the runbook as an OSC 8 link closed within the width, only where links are on', async () => {
    const { store, view } = mount({ cols: 80, rows: 24, hyperlinks: true });
    store.getState().openCheck('c1', false);
    await tick();
    const line = view
      .lastFrame()!
      .split('\n')
      .find((l) => l.includes('runbook'))!;
    expect(line).toContain(`\u001b]8;;${RUNBOOK}\u0007`);
    expect(line.indexOf('\u001b]8;;\u0007')).toBeGreaterThan(line.indexOf(RUNBOOK));
    expect(displayWidth(plain(line))).toBeLessThanOrEqual(80);
    // javascript: is never a link
    expect(view.lastFrame()).not.toContain('\u001b]8;;javascript');
  });
});

describe('b, L, y and Y', () => {
  it('b without a display shows the runbook URL whole and copies it', async () => {
    const { store, view, frame, copied, opened } = mount({ cols: 80, rows: 24 });
    store.getState().openCheck('c1', false);
    await tick();
    view.stdin.write('b');
    await tick();
    expect(opened).toEqual([]);
    expect(copied).toEqual([RUNBOOK]);
    expect(frame().replace(/\n/g, '')).toContain(RUNBOOK);
    expect(frame().replace(/\n/g, '')).toContain(`copied ${RUNBOOK.length} bytes; if nothing pastes`);
    // The URL is not run into the colon after it (a terminal would make the colon part of its link).
    expect(frame().replace(/\n/g, ' ')).toContain(`${RUNBOOK} (no display to open a browser on): copied`);
  });

  it('b without a display shows a URL too long for the note whole in a pane, within the screen', async () => {
    const { store, view, frame, copied } = mount({ cols: 80, rows: 24 });
    const long = `https://kibana.example.com/app/discover#/?_a=(query:'${'x'.repeat(1500)}')`;
    store.getState().applyStatuses([sampleStatus('c1', { runbook: long })], sampleSummary(), Date.now());
    store.getState().openCheck('c1', false);
    await tick();
    view.stdin.write('b');
    await tick();
    expect(copied).toEqual([long]);
    const panel = store.getState().handsPanel;
    expect(panel).toMatchObject({ kind: 'text', text: long });
    expect(frame()).toContain('runbook (no display to open a browser on): copied');
    expect(frame().split('\n').length).toBeLessThanOrEqual(24);
  });

  it('k scrolls that pane back at once after j went past its end', async () => {
    const { store, view, frame } = mount({ cols: 80, rows: 24 });
    const long = `https://kibana.example.com/app/discover#/?_a=(query:'${'x'.repeat(1500)}')`;
    store.getState().applyStatuses([sampleStatus('c1', { runbook: long })], sampleSummary(), Date.now());
    store.getState().openCheck('c1', false);
    await tick();
    view.stdin.write('b');
    await tick();
    for (let i = 0; i < 10; i++) view.stdin.write('j');
    await tick();
    const atEnd = frame();
    expect(atEnd).toContain("')");
    view.stdin.write('k');
    await tick();
    expect(frame()).not.toBe(atEnd);
  });

  it('b opens the target, not a link of the check that is named "target" or "runbook"', async () => {
    const { store, view, opened } = mount({ cols: 120, rows: 40, display: true, withLinks: false });
    const named = [
      { name: 'runbook', url: 'https://elsewhere.example.com/r' },
      { name: 'target', url: 'https://elsewhere.example.com/t' },
    ];
    store.getState().applyStatuses([sampleStatus('c1', { links: named })], sampleSummary(), Date.now());
    await toResult(store, view.stdin);
    view.stdin.write('b');
    await tick();
    expect(opened).toEqual(['https://api.example.com/v1/pay']);
  });

  it('b with a display opens the runbook', async () => {
    const { store, view, opened, copied } = mount({ cols: 120, rows: 40, display: true });
    store.getState().openCheck('c1', false);
    await tick();
    view.stdin.write('b');
    await tick();
    expect(opened).toEqual([RUNBOOK]);
    expect(copied).toEqual([]);
  });

  it('L lists only the http(s) links; enter opens, y copies', async () => {
    const { store, view, frame, copied } = mount({ cols: 120, rows: 40, display: true });
    store.getState().openCheck('c1', false);
    await tick();
    view.stdin.write('L');
    await tick();
    expect(frame()).toContain('grafana');
    expect(frame()).not.toContain('javascript');
    view.stdin.write('j');
    await tick();
    view.stdin.write('y');
    await tick();
    expect(copied).toEqual(['https://grafana.example.com/d/pay']);
  });

  it('y on a result copies the request as curl, the masked authorization read from a variable, and says how many bytes', async () => {
    const { store, view, frame, copied } = mount({ cols: 80, rows: 24 });
    await toResult(store, view.stdin);
    view.stdin.write('y');
    await tick();
    expect(copied).toHaveLength(1);
    expect(copied[0]).toContain(
      `-H 'authorization: '"\${CHECKWALL_HEADER_AUTHORIZATION:?masked by the service: export it}"`,
    );
    expect(copied[0]).toContain(`--data-raw '{"note":"'\\''; rm -rf ~"}'`);
    expect(copied[0]).not.toContain('•••');
    expect(frame().replace(/\n/g, '')).toContain(`copied ${Buffer.byteLength(copied[0]!)} bytes`);
    expect(frame()).toContain('set -g set-clipboard on');
  });

  it('Y on a result offers its URL once: "the URL", not again as its target link', async () => {
    const { store, view, frame } = mount({ cols: 120, rows: 40 });
    await toResult(store, view.stdin);
    view.stdin.write('Y');
    await tick();
    expect(frame()).toContain('the request as curl');
    expect(frame()).toContain('the URL');
    expect(frame()).not.toContain('target link');
    expect(frame()).toContain('grafana link');
  });

  it('y on the board copies the check id; Y offers a menu', async () => {
    const { view, frame, copied } = mount({ cols: 80, rows: 24 });
    await tick();
    view.stdin.write('y');
    await tick();
    expect(copied).toEqual(['c1']);
    view.stdin.write('Y');
    await tick();
    expect(frame()).toContain('the check name');
    // Without colour (this mount's theme) the selection is a mark, as a table's is.
    const line = (label: string) =>
      frame()
        .split('\n')
        .find((l) => l.includes(label)) ?? '';
    expect(line('the check id')).toMatch(/^│ › the check id/);
    expect(line('the check name')).toMatch(/^│ {3}the check name/);
    view.stdin.write('j');
    await tick();
    expect(line('the check name')).toMatch(/^│ › the check name/);
    expect(line('the check id')).toMatch(/^│ {3}the check id/);
    view.stdin.write('\r');
    await tick();
    expect(copied).toEqual(['c1', 'Payments']);
  });
});

const SIZES = [
  [80, 24],
  [120, 40],
  [200, 55],
] as const;

describe('what is copied loses its control characters', () => {
  it("a check name from the network is one line with no ESC to end a shell's bracketed paste", async () => {
    const { store, view, copied } = mount({ cols: 80, rows: 24 });
    const name = 'Pay\u001b[201~\nrm -rf ~\r\n';
    store.getState().applyStatuses([sampleStatus('c1', { checkName: name })], sampleSummary(), Date.now());
    await tick();
    view.stdin.write('Y');
    await tick();
    view.stdin.write('j');
    await tick();
    view.stdin.write('y');
    await tick();
    expect(copied).toEqual(['Pay[201~ rm -rf ~ ']);
  });

  it('an error keeps its lines and tabs, and loses its escapes', async () => {
    const { store, view, copied } = mount({ cols: 80, rows: 24 });
    const failed = sampleResult('r9', {
      checkId: 'c1',
      status: 'failed',
      response: null,
      request: { method: 'GET', url: 'https://api.example.com/', headers: {}, body: null },
      error: { name: 'Error', message: 'x', stack: 'Error: x\r\n\tat \u001b]52;c;ZXZpbA==\u0007\u202ey' },
    });
    await toResult(store, view.stdin, failed);
    view.stdin.write('y');
    await tick();
    expect(copied).toEqual(['Error: x\n\tat ]52;c;ZXZpbA==y']);
  });
});

describe('y on a result: the error whole, else curl; credentials masked by the service', () => {
  const refused = sampleResult('r2', {
    checkId: 'c1',
    status: 'failed',
    response: null,
    request: { method: 'GET', url: 'https://api.example.com/v1/pay', headers: {}, body: null },
    error: {
      name: 'Error',
      message: 'connect ECONNREFUSED 10.0.0.7:443',
      stack: 'Error: connect ECONNREFUSED 10.0.0.7:443\n    at TCPConnectWrap.afterConnect',
    },
  });
  const tcp = (error?: CheckResult['error']) =>
    sampleResult('r3', {
      checkId: 'c1',
      checkType: 'tcp',
      response: null,
      request: { method: 'TCP', url: 'tcp://db.internal:5432', headers: {}, body: null },
      ...(error ? { error } : {}),
    });

  for (const [cols, rows] of SIZES)
    it(`says a masked header was masked by the service and where curl reads it, at ${cols}x${rows}`, async () => {
      const { store, view, frame } = mount({ cols, rows });
      await toResult(store, view.stdin);
      for (let i = 0; i < 6 && !frame().includes('authorization: •••'); i++) {
        view.stdin.write(' ');
        await tick();
      }
      const line = frame()
        .split('\n')
        .find((l) => l.includes('authorization: •••'))!;
      expect(line.trim()).toBe(
        truncateTo(
          `authorization: •••  masked by the service; curl reads $CHECKWALL_HEADER_AUTHORIZATION`,
          cols - 4,
        ),
      );
      expect(frame()).toContain('x-trace: abc');
      for (const l of frame().split('\n')) expect(displayWidth(l)).toBeLessThanOrEqual(cols);
    });

  it('copies the error whole on a run that ended in one, and says Y has the curl', async () => {
    const { store, view, frame, copied } = mount({ cols: 120, rows: 40 });
    await toResult(store, view.stdin, refused);
    view.stdin.write('y');
    await tick();
    expect(copied).toEqual([refused.error!.stack]);
    expect(frame().replace(/\n/g, '')).toContain('error: copied');
    expect(frame().replace(/\s+/g, ' ')).toContain('; Y copies the request as curl');
    view.stdin.write('Y');
    await tick();
    view.stdin.write('\r');
    await tick();
    expect(copied[1]).toBe("curl -X 'GET' 'https://api.example.com/v1/pay'");
  });

  it('copies the request as curl when the run got an answer, an error status among them', async () => {
    const answered = sampleResult('r6', {
      checkId: 'c1',
      status: 'failed',
      request: { method: 'GET', url: 'https://api.example.com/v1/pay', headers: {}, body: null },
      response: {
        statusCode: 503,
        statusText: 'Service Unavailable',
        headers: {},
        body: '',
        responseTime: 9,
        size: 0,
      },
      error: {
        name: 'HttpStatusError',
        message: 'the server answered 503',
        stack: 'HttpStatusError: the server answered 503',
      },
    });
    const { store, view, copied } = mount({ cols: 80, rows: 24 });
    await toResult(store, view.stdin, answered);
    view.stdin.write('y');
    await tick();
    expect(copied).toEqual(["curl -X 'GET' 'https://api.example.com/v1/pay'"]);
  });

  it('on a run curl cannot send (tcp): the error whole, or without one the result id', async () => {
    const error = { name: 'Error', message: 'connect ETIMEDOUT', stack: 'Error: connect ETIMEDOUT' };
    const first = mount({ cols: 80, rows: 24 });
    await toResult(first.store, first.view.stdin, tcp(error));
    first.view.stdin.write('y');
    await tick();
    expect(first.copied).toEqual(['Error: connect ETIMEDOUT']);
    expect(first.frame().replace(/\n/g, '')).toContain('error: copied 24 bytes');
    unmount?.();
    const second = mount({ cols: 80, rows: 24 });
    await toResult(second.store, second.view.stdin, tcp());
    second.view.stdin.write('y');
    await tick();
    expect(second.copied).toEqual(['r3']);
  });
});

describe("a result's request URL cut by the width", () => {
  it('still closes its link inside the line, at 80x24', async () => {
    const url = `https://api.example.com/v1/${'segment/'.repeat(20)}end`;
    const long = sampleResult('r5', {
      checkId: 'c1',
      request: { method: 'GET', url, headers: {}, body: null },
    });
    const { store, view } = mount({ cols: 80, rows: 24, hyperlinks: true });
    await toResult(store, view.stdin, long);
    const line = view
      .lastFrame()!
      .split('\n')
      .find((l) => l.includes(`\u001b]8;;${url}\u0007`))!;
    expect(line.lastIndexOf('\u001b]8;;\u0007')).toBeGreaterThan(line.indexOf(`${url}\u0007`));
    expect(displayWidth(plain(line))).toBeLessThanOrEqual(80);
    expect(plain(line)).toMatch(/^ {2}GET https:\/\/api\.example\.com\/v1\/segment/);
  });
});

describe('a copy past the cap', () => {
  it('copies the first 64 KiB and shows the text whole to select by hand, at 80x24', async () => {
    const stack = `Error: script failed\n${'x'.repeat(70 * 1024)}\nthe end`;
    const big = sampleResult('r4', {
      checkId: 'c1',
      checkType: 'browser',
      status: 'failed',
      error: { name: 'Error', message: 'script failed', stack },
    });
    const { store, view, frame, copied } = mount({ cols: 80, rows: 24 });
    await toResult(store, view.stdin, big);
    view.stdin.write('y');
    await tick();
    expect(copied).toEqual([stack.slice(0, 64 * 1024)]);
    expect(frame().replace(/\n/g, '')).toContain(
      'copied 65536 bytes (cut at 64 KiB: the whole text is shown)',
    );
    expect(frame()).toContain('error (whole; select it by hand)');
    expect(store.getState().handsPanel).toMatchObject({ kind: 'text', text: stack });
  });
});

describe('the status page as a link', () => {
  const PAGE = 'http://127.0.0.1:8787/status/status';

  it("links the demo label's status page path in the header, closed after it, only where links are on", async () => {
    for (const hyperlinks of [true, false]) {
      const store = createConsoleStore({
        label: 'demo, status page /status/status',
        baseUrl: 'http://127.0.0.1:8787',
        statusPageUrl: PAGE,
      });
      store.getState().setSize(80, 24);
      const view = render(
        <App
          store={store}
          actions={{ quit: () => undefined, pollNow: () => undefined, togglePause: () => undefined }}
          theme={createTheme({ color: false, ascii: false, links: hyperlinks })}
        />,
      );
      await tick();
      const header = view.lastFrame()!.split('\n')[0]!;
      if (hyperlinks) expect(header).toContain(`\u001b]8;;${PAGE}\u0007/status/status\u001b]8;;\u0007`);
      else expect(header).not.toContain('\u001b]8;;');
      expect(plain(header)).toContain('demo, status page /status/status');
      expect(displayWidth(plain(header))).toBeLessThanOrEqual(80);
      view.unmount();
    }
  });

  for (const [cols, rows] of SIZES)
    it(`shows a public dashboard's status page as a link within the width at ${cols}x${rows}; a private one none`, async () => {
      const { store, view } = mount({ cols, rows, hyperlinks: true });
      const open = sampleDashboard({
        name: 'Ops',
        isPrivate: false,
        customUrl: 'ops board',
        description: 'Everything the payments team runs, watched from three continents at once',
        checkIds: ['c1'],
      });
      store.getState().pushView({ name: 'dashboard', dashboard: open, scope: scopeOf(open) });
      await tick();
      const url = 'http://127.0.0.1:8787/status/ops%20board';
      const line = view
        .lastFrame()!
        .split('\n')
        .find((l) => l.includes('status page'))!;
      expect(line).toMatch(
        new RegExp(`\u001b\\]8;;${url.replace(/[./]/g, '\\$&')}\u0007[^\u0007]+\u001b\\]8;;\u0007`),
      );
      if (cols >= 120) expect(plain(line)).toContain(url);
      expect(displayWidth(plain(line))).toBeLessThanOrEqual(cols);
      store.getState().updateView('dashboard', { dashboard: { ...open, isPrivate: true } });
      await tick();
      expect(plain(view.lastFrame())).not.toContain('status page');
    });
});

/** The text cut to `width` cells with the ellipsis, as the terminal shows it. */
function truncateTo(text: string, width: number): string {
  return text.length <= width ? text : `${text.slice(0, width - 1)}…`;
}

describe('your own commands', () => {
  const commands = [
    { key: 'V', name: 'logs', scope: 'check' as const, run: ['lnav', '/var/log/{check.id}.log'] },
    { key: 'H', name: 'ssh', scope: 'check' as const, run: ['ssh', '{target}'], needs: 'operate' as const },
  ];

  it('appear in the footer and in ?, and one needing operate is hidden from a read key', async () => {
    const { store, view, frame } = mount({ cols: 120, rows: 40 });
    store.getState().setUserCommands(commands);
    store.getState().openCheck('c1', false);
    await tick();
    expect(frame()).toContain('V logs');
    expect(frame()).toContain('H ssh');
    store.getState().setMe({ accountId: 'a', keyName: 'wall', role: 'read' } as never);
    await tick();
    expect(frame()).not.toContain('H ssh');
    view.stdin.write('?');
    await tick();
    // A key this key's role may not press says so once at the top, and beside it only what this key is.
    expect(frame()).toContain('M, a, ctrl+r, z, v, e, +: need an operate key; this key is read');
    const flowing = frame().replace(/\s*│\n│\s+/g, ' '); // a wrapped description read on one line
    expect(flowing).toMatch(/reminders stop \(asks first\) \[operate\] \(not now: this key is read\)/);
    // After the check view's own keys.
    for (let i = 0; i < 10 && !frame().includes('lnav /var/log'); i++) {
      view.stdin.write('\u001b[6~');
      await tick();
    }
    expect(frame()).toContain('Your own commands');
    expect(frame()).toContain('lnav /var/log/{check.id}.log');
    expect(frame()).not.toContain('ssh {target}');
  });

  it('says why one needing operate does nothing when a read key presses it', async () => {
    const { store, view, frame, ran } = mount({ cols: 80, rows: 24 });
    store.getState().setUserCommands(commands);
    store.getState().setMe({ accountId: 'a', keyName: 'wall', role: 'read' } as never);
    store.getState().openCheck('c1', false);
    await tick();
    view.stdin.write('H');
    await tick();
    expect(ran).toEqual([]);
    expect(frame()).toContain('H: ssh needs an operate key; this key is read');
  });

  it('runs one that asks first on a board with no check selected, as it runs one that does not ask', async () => {
    const { store, view, frame, ran } = mount({ cols: 80, rows: 24 });
    store
      .getState()
      .setUserCommands([
        { key: 'V', name: 'grafana', scope: 'board', run: ['xdg-open', '{baseUrl}'], confirm: true },
      ]);
    store.getState().applyStatuses([], sampleSummary(), Date.now());
    await tick();
    view.stdin.write('V');
    await tick();
    expect(frame()).toContain('Run “grafana”? (y/n)');
    view.stdin.write('y');
    await tick();
    expect(ran).toEqual([['xdg-open', 'http://127.0.0.1:8787']]);
  });

  it('does not run one whose argument a value from the network would begin with -, and says why', async () => {
    const { store, view, frame, ran } = mount({ cols: 80, rows: 24 });
    store.getState().setUserCommands([
      { key: 'H', name: 'ssh', scope: 'check', run: ['ssh', '{check.name}'] },
      { key: 'V', name: 'grep', scope: 'check', run: ['grep', '--', '{check.name}', 'x.log'] },
    ]);
    const name = '-oProxyCommand=touch /tmp/pwned';
    store.getState().applyStatuses([sampleStatus('c1', { checkName: name })], sampleSummary(), Date.now());
    store.getState().openCheck('c1', false);
    await tick();
    view.stdin.write('H');
    await tick();
    expect(ran).toEqual([]);
    expect(frame().replace(/\n/g, ' ')).toContain(
      `ssh: not run: "${name}" begins with -, which ssh would read`,
    );
    // After a -- it is an operand, and runs.
    view.stdin.write('V');
    await tick();
    expect(ran).toEqual([['grep', '--', name, 'x.log']]);
  });

  it('refuses at start a key already bound in its scope or globally, or one it cannot read, naming both', () => {
    const problems = userKeyProblems([
      { key: 'l', name: 'logs', scope: 'check', run: ['x'] },
      { key: 'q', name: 'quit?', scope: 'result', run: ['x'] },
      { key: 'f5', name: 'odd', scope: 'board', run: ['x'] },
      { key: 'V', name: 'one', scope: 'board', run: ['x'] },
      { key: 'V', name: 'two', scope: 'board', run: ['x'] },
      { key: 'V', name: 'fine', scope: 'result', run: ['x'] },
    ]);
    expect(problems).toEqual([
      expect.stringMatching(
        /^commands\[0\] \("logs"\): key "l" is already bound in check to .*check\.location/,
      ),
      expect.stringMatching(/^commands\[1\] \("quit\?"\): key "q" is already bound in global .*app\.quit/),
      expect.stringMatching(/^commands\[2\] \("odd"\): key "f5" is not one the console can read/),
      'commands[4] ("two"): key "V" is already bound in board to commands[3] ("one")',
    ]);
  });
});
