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
