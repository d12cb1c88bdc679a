// Everything about one run, as lines the result view scrolls through:
// timing, assertions (failed first), error, certificate, request and response.
import type { ReactElement } from 'react';
import { Text } from 'ink';
import { formatBytes } from '../../../domain/format.js';
import { sanitize, sanitizeMultiline, wrapText } from '../../../domain/sanitize.js';
import type { CheckResult } from '../../../store/types.js';
import { tint, type Theme } from '../../theme.js';
import { stoppedAt } from '../../../domain/waterfall.js';
import { certificateLines } from './certificate-lines.js';
import { timingBarLines } from './timing-bars.js';
import { linkText } from '../../widgets/link/link.js';
import { jobRunLines } from './job-run-lines.js';
import { bodyLines } from './body-lines.js';
import { headerVariable } from '../../../domain/curl.js';
import { isSecretHeaderName, MASK } from '../../../domain/mask.js';

const heading = (key: string, text: string) => (
  <Text key={key} bold>
    {text}
  </Text>
);
const plain = (key: string, text: string, color?: string) => (
  <Text key={key} color={color} wrap="truncate">
    {text}
  </Text>
);

export function resultLines(r: CheckResult, width: number, theme: Theme): ReactElement[] {
  const out: ReactElement[] = [];
  // A heartbeat's run has no phase to draw, and its time is the job's: "ran" under Job run
  // says it (a total here read "0 ms" for a ping with no /start, beside "ran —").
  if (!r.heartbeat)
    out.push(heading('timing', 'Timing'), ...timingBarLines(r.timing, width, theme, stoppedAt(r)));
  out.push(heading('assertions', 'Assertions'));
  const assertions = [...r.assertions].sort((a, b) => Number(a.passed) - Number(b.passed));
  if (assertions.length === 0) out.push(plain('a-none', '  none'));
  assertions.forEach((a, i) => out.push(...assertionLines(`a${i}`, a, width, theme)));
  if (r.error) {
    out.push(heading('error', 'Error'));
    // The error (a step's failure among them) is what went wrong: wrapped whole, never cut.
    out.push(
      ...wrapped(
        'e-name',
        `${sanitize(r.error.name)}: ${sanitize(r.error.message)}`,
        width,
        2,
        tint(theme, 'red'),
      ),
    );
    // The stack's "at ..." frames are the runtime's internals (TCPConnectWrap.afterConnect…),
    // nothing an on-call engineer can act on; lines of another kind (a script's own) stay.
    sanitizeMultiline(r.error.stack)
      .split('\n')
      .slice(1)
      .filter((l) => l.trim() !== '' && !/^\s*at\s/.test(l))
      .slice(0, 10)
      .forEach((l, i) => out.push(...wrapped(`e${i}`, l, width, 2, tint(theme, theme.dim))));
  }
  if (r.certificate)
    out.push(heading('certificate', 'Certificate'), ...certificateLines(r.certificate, theme));
  if (r.heartbeat) return [...out, ...jobRunLines(r, theme)];
  out.push(heading('request', 'Request'));
  out.push(
    plain('rq', `  ${sanitize(r.request.method)} ${linkText(theme, r.request.url, sanitize(r.request.url))}`),
  );
  out.push(...requestHeaderLines(r.request.headers, theme));
  if (r.request.body) out.push(...bodyLines('rqb', r.request.body, Buffer.byteLength(r.request.body), theme));
  out.push(heading('response', 'Response'));
  if (!r.response) {
    out.push(plain('rs-none', '  no response', tint(theme, theme.dim)));
    return out;
  }
  const rs = r.response;
  out.push(
    plain(
      'rs',
      `  ${rs.statusCode} ${sanitize(rs.statusText)}  ${formatBytes(rs.size)}  ${rs.responseTime} ms`,
    ),
  );
  out.push(...headerLines('rsh', rs.headers));
  out.push(...bodyLines('rsb', rs.body, rs.size, theme));
  return out;
}

/** Text wrapped to the width under an indent, one Text a line (the view scrolls by lines). */
function wrapped(key: string, text: string, width: number, indent: number, color?: string): ReactElement[] {
  const pad = ' '.repeat(indent);
  return wrapText(text, width - indent - 1).map((l, i) => plain(`${key}-${i}`, `${pad}${l}`, color));
}

type Assertion = CheckResult['assertions'][number];

/** A passed assertion on one line; a failed one with its expected and actual values whole. */
function assertionLines(key: string, a: Assertion, width: number, theme: Theme): ReactElement[] {
  const mark = a.passed ? theme.status.passing : theme.status.failing;
  const color = tint(theme, mark.color);
  const what = `${sanitize(a.source)} ${sanitize(a.property)} ${sanitize(a.comparison)}`;
  if (a.passed) return [plain(key, `  ${mark.glyph} pass  ${what} ${sanitize(a.target)}`, color)];
  return [
    plain(key, `  ${mark.glyph} FAIL  ${what}`, color),
    ...wrapped(`${key}-x`, `expected: ${a.target}`, width, 8, color),
    ...wrapped(`${key}-g`, `actual: ${a.actual ?? '(absent)'}`, width, 8, color),
  ];
}

function headerLines(key: string, headers: Record<string, string>): ReactElement[] {
  return Object.entries(headers).map(([k, v], i) =>
    plain(`${key}${i}`, `    ${sanitize(k)}: ${sanitize(v)}`),
  );
}

/**
 * The request's headers; a credential the service masked says so, and where y's curl reads it
 * from (src/domain/curl.ts): the console never has its value, so there is nothing to reveal.
 */
function requestHeaderLines(headers: Record<string, string>, theme: Theme): ReactElement[] {
  return Object.entries(headers).map(([k, v], i) =>
    isSecretHeaderName(k) && v === MASK ? (
      <Text key={`rqh${i}`} wrap="truncate">
        {`    ${sanitize(k)}: ${MASK}`}
        <Text
          color={tint(theme, theme.dim)}
        >{`  masked by the service; curl reads $${headerVariable(k)}`}</Text>
      </Text>
    ) : (
      plain(`rqh${i}`, `    ${sanitize(k)}: ${sanitize(v)}`)
    ),
  );
}
