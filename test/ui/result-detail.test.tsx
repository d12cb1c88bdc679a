// One run's detail lines (issue 13): a refused connection shows its message, no
// stack frames, and a timing line that says where the run stopped.
import { Box } from 'ink';
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { resultLines } from '../../src/ui/views/result-detail/result-lines.js';
import { createTheme } from '../../src/ui/theme.js';
import { sampleResult } from '../helpers/samples.js';

// Bold stays on with colour off: read the words without it.
// eslint-disable-next-line no-control-regex -- the escape character is what is removed
const plain = (text: string) => text.replace(/\u001b\[\d+m/g, '');

let unmount: (() => void) | undefined;
afterEach(() => unmount?.());

const refused = sampleResult('r1', {
  status: 'failed',
  response: null,
  assertions: [],
  timing: { dns: 0, total: 4 },
  error: {
    name: 'ConnectionRefusedError',
    message: 'connect ECONNREFUSED 127.0.0.1:9',
    stack:
      'ConnectionRefusedError: connect ECONNREFUSED 127.0.0.1:9\n    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1607:16)',
  },
});

function frame(ascii: boolean) {
  const theme = createTheme({ color: false, ascii });
  const view = render(<Box flexDirection="column">{resultLines(refused, 100, theme)}</Box>);
  unmount = view.unmount;
  return plain(view.lastFrame()!);
}

describe('result detail of a refused connection', () => {
  it('shows the message and where the run stopped, not the runtime', () => {
    const text = frame(false);
    expect(text).toContain('ConnectionRefusedError: connect ECONNREFUSED 127.0.0.1:9');
    expect(text).not.toContain('TCPConnectWrap');
    expect(text).toMatch(/TCP connect +✖ refused after 4 ms/);
  });

  it('says the same in ASCII', () => {
    const text = frame(true);
    expect(text).toMatch(/TCP connect +X refused after 4 ms/);
  });
});

describe('result detail of a run whose total is more than its phases', () => {
  it('draws the rest of the run as a line of its own, so the phases add up to the total', () => {
    const theme = createTheme({ color: false, ascii: false });
    const run = (timing: {
      dns: number;
      tcp: number;
      firstByte: number;
      download: number;
      total: number;
    }) => {
      const view = render(
        <Box flexDirection="column">{resultLines(sampleResult('r3', { timing }), 80, theme)}</Box>,
      );
      unmount = view.unmount;
      return plain(view.lastFrame()!);
    };
    const text = run({ dns: 0, tcp: 5, firstByte: 12, download: 1, total: 26 });
    const rest = text.split('\n').find((l) => l.includes('Rest of run'))!;
    expect(rest).toMatch(/^ {2}Rest of run +█+ +8 ms$/);
    // Its bar starts where the phases end: at 18 of 26 ms, 31 of the 46 columns.
    expect(rest.indexOf('█')).toBe(2 + 14 + 1 + 31);
    expect(text).toMatch(/Total +26 ms/);
    unmount?.();
    // Within the phases' rounding, no line.
    expect(run({ dns: 0, tcp: 5, firstByte: 12, download: 1, total: 20 })).not.toContain('Rest of run');
  });
});

describe('result detail keeps what matters whole (issue 36)', () => {
  const longActual = `{"error":"upstream payment gateway answered 502 after 3 retries","trace":"${'abcdef0123'.repeat(12)}"}`;
  const stepMessage =
    'step 3 of 5 "Pay with the saved card": waiting for locator(\'button#confirm-payment\') to be visible: Timeout 30000ms exceeded while the page kept loading the third-party fraud check frame';
  const failing = sampleResult('r2', {
    status: 'failed',
    assertions: [
      {
        source: 'JSON_BODY',
        property: '$.status',
        comparison: 'EQUALS',
        target: 'the order was accepted and the confirmation e-mail queued for the customer',
        passed: false,
        actual: longActual,
      },
    ],
    error: { name: 'StepFailed', message: stepMessage, stack: `StepFailed: ${stepMessage}` },
  });

  for (const width of [80, 120]) {
    it(`wraps the error, the expected and the actual values onto as many lines as they need at ${width}`, () => {
      const theme = createTheme({ color: false, ascii: false });
      const view = render(
        <Box flexDirection="column" width={width}>
          {resultLines(failing, width, theme)}
        </Box>,
      );
      unmount = view.unmount;
      const lines = plain(view.lastFrame()!).split('\n');
      for (const l of lines) expect(l.length).toBeLessThanOrEqual(width);
      const joined = lines.map((l) => l.trim()).join(' ');
      const squeeze = (t: string) => t.replace(/\s+/g, '');
      expect(squeeze(joined)).toContain(squeeze(`StepFailed: ${stepMessage}`));
      expect(squeeze(joined)).toContain(squeeze(`actual: ${longActual}`));
      expect(joined).toContain(
        'expected: the order was accepted and the confirmation e-mail queued for the customer',
      );
      expect(joined).not.toContain('…');
    });
  }
});

describe('result detail shows the certificate (issue 35)', () => {
  const shown = (over: Partial<NonNullable<Parameters<typeof sampleResult>[1]>>) => {
    const theme = createTheme({ color: false, ascii: false });
    const view = render(
      <Box flexDirection="column">{resultLines(sampleResult('r3', over), 120, theme)}</Box>,
    );
    unmount = view.unmount;
    return plain(view.lastFrame()!);
  };

  it('names the subject and issuer, the expiry with its days, and an intermediate expiring first', () => {
    const text = shown({
      certificate: {
        subject: 'CN=localhost',
        issuer: 'CN=Checkwall Test Intermediate CA',
        serialNumber: '1D29924EDBE4C546',
        validFrom: '2026-10-28T11:00:29.000Z',
        validTo: '2026-12-07T11:00:29.000Z',
        daysRemaining: 9,
        chainValidTo: '2026-12-02T11:00:29.000Z',
        chainDaysRemaining: 4,
      },
    });
    expect(text).toContain('Certificate');
    expect(text).toContain('subject  CN=localhost');
    expect(text).toContain('issuer   CN=Checkwall Test Intermediate CA');
    expect(text).toContain('expires  2026-12-07 11:00 UTC (in 9 days)');
    expect(text).toContain('chain    an intermediate expires first: 2026-12-02 11:00 UTC (in 4 days)');
    expect(text).toContain('serial   1D29924EDBE4C546');
  });

  it("strips a hostile subject's escape sequences, says an expired one is, and leaves out a chain that is not earlier", () => {
    const text = shown({
      status: 'failed',
      certificate: {
        subject: 'CN=evil\u001b]0;pwned\u0007\u001b[2J.example',
        issuer: 'CN=Browser CA',
        serialNumber: null,
        validFrom: '2026-01-01T00:00:00.000Z',
        validTo: '2026-11-25T11:00:00.000Z',
        daysRemaining: -3,
        chainValidTo: null,
        chainDaysRemaining: null,
      },
    });
    expect(text).not.toContain('\u001b]');
    expect(text).not.toContain('\u0007');
    expect(text).toContain('expires  2026-11-25 11:00 UTC (expired 3 days ago)');
    expect(text).not.toContain('chain ');
    expect(text).not.toContain('serial');
  });

  it('has no certificate section for a run without one', () => {
    expect(shown({})).not.toContain('Certificate');
  });
});

describe('result detail of a heartbeat run (cron jobs)', () => {
  const output = `${'line of the backup job\n'.repeat(40)}\u001b[31mdisk full\u001b]0;owned\u0007 at /var/backups\n`;
  const job = sampleResult('hb1', {
    checkType: 'heartbeat',
    status: 'failed',
    startedAt: '2026-03-29T01:00:02.000Z',
    finishedAt: '2026-03-29T01:07:32.000Z',
    duration: 450_000,
    request: { method: 'POST', url: '/v1/heartbeats/…/exit', headers: {}, body: null },
    response: {
      statusCode: 3,
      statusText: 'exit 3',
      headers: {},
      body: output,
      responseTime: 450_000,
      size: 20_480,
    },
    assertions: [],
    timing: { total: 450_000 },
    error: {
      name: 'JobExitCode',
      message: 'the job exited with code 3',
      stack: 'JobExitCode: the job exited with code 3',
    },
    heartbeat: {
      end: 'exit',
      exitCode: 3,
      startedAt: '2026-03-29T01:00:02.000Z',
      rid: 'run-42',
      log: 'dumped 3 tables',
    },
  });

  it.each([80, 120])(
    'shows start, end, run time, exit code, notes and output at %i columns, not a request',
    (cols) => {
      const theme = createTheme({ color: false, ascii: false });
      const view = render(<Box flexDirection="column">{resultLines(job, cols, theme)}</Box>);
      unmount = view.unmount;
      const text = plain(view.lastFrame()!);
      expect(text).toContain('Job run');
      expect(text).toMatch(/started +01:00:02/);
      expect(text).toMatch(/ended +01:07:32 +exit code/);
      expect(text).toMatch(/ran +7\.5 min/);
      expect(text).toMatch(/exit code 3/);
      expect(text).toMatch(/run id +run-42/);
      expect(text).toContain('dumped 3 tables');
      expect(text).toMatch(/output \(20\.0 KiB, its end kept\)/);
      expect(text).toContain('disk full');
      // The job's output is the network's text: no escape survives into the terminal.
      expect(view.lastFrame()!).not.toContain('\u001b]0;');
      expect(text).not.toContain('\u001b[31m');
      expect(text).not.toContain('Request');
      expect(text).not.toContain('/v1/heartbeats');
      for (const l of text.split('\n')) expect(l.length).toBeLessThanOrEqual(cols);
    },
  );

  it('says when a run had no /start and sent no output', () => {
    const missed = sampleResult('hb2', {
      ...job,
      response: null,
      duration: 0,
      heartbeat: { end: 'missed', exitCode: null, startedAt: null, rid: null },
    });
    const view = render(
      <Box flexDirection="column">
        {resultLines(missed, 80, createTheme({ color: false, ascii: false }))}
      </Box>,
    );
    unmount = view.unmount;
    const text = plain(view.lastFrame()!);
    expect(text).toContain('— (no /start)');
    expect(text).toContain('missed: no ping by its due time plus grace');
    expect(text).toMatch(/exit code —/);
    expect(text).toContain('output: none sent');
    // Its time is the job's, unknown here: no "Total 0 ms" beside "ran —".
    expect(text).toMatch(/ran +— \(no \/start to time it from\)/);
    expect(text).not.toMatch(/Total|0 ms/);
  });
});
