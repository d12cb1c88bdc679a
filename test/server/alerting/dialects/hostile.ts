// A notification built to break chat bodies: a check name with quotes,
// backslashes, newlines, Markdown and HTML metacharacters, mentions and ESC bytes,
// and a 10 KB cause whose end must not survive the cut.
import type { AlertPayload } from '../../../../src/api/schemas/index.js';

export const HOSTILE_NAME =
  'Ev"il\' Ünïcödé \\ name\n<b>*bold*</b> _i_ [x](http://evil.test) @everyone <!channel> <users/all> \u001b[31mRED\u001b]0;owned\u0007 `c` ~s~ #h |p| {{x}} .!';
export const CAUSE_END = 'END-OF-THE-CAUSE';
const CHUNK = 'x_*[]()`\\<>&"\'~#|{}.!-=+ é中😀\n';
export const LONG_CAUSE = `${CHUNK.repeat(Math.ceil(10_240 / CHUNK.length)).slice(0, 10_240 - CAUSE_END.length)}${CAUSE_END}`;

export const RESULT_LINK =
  'https://checkwall.example.test/v1/check-results/api-1?from=2026-01-01T00%3A00%3A00Z&to=2026-01-01T00%3A00%3A00Z';
export const RUNBOOK = 'https://wiki.example.test/runbooks/api(1)?a=1,b;2';

export function payload(event: string, over: Partial<AlertPayload> = {}): AlertPayload {
  return {
    event: event as AlertPayload['event'],
    deliveryId: 'd-1',
    alertId: 'a-1',
    check: { id: 'api-1', name: HOSTILE_NAME, type: 'api' },
    status: event === 'recovery' ? 'passing' : 'failing',
    failingLocations: [{ id: 'eu', name: 'Frankfurt <x>' }],
    error: LONG_CAUSE,
    resultId: 'r-1',
    incidentId: 'i-1',
    occurredAt: '2026-01-01T00:00:00.000Z',
    link: RESULT_LINK,
    channel: { id: 1, name: 'room' },
    runbook: RUNBOOK,
    links: Array.from({ length: 10 }, (_, i) => ({
      name: `Dash "${i}" <x>`,
      url: `https://dash.example.test/${i}`,
    })),
    ...over,
  } as AlertPayload;
}

/** Every string inside a parsed JSON value. */
export function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value && typeof value === 'object') return Object.values(value).flatMap(strings);
  return [];
}

/** No control character but newline survives into a body (the ESC bytes of the name least of all). */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
export const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

export const EVENTS = [
  'failure',
  'degraded',
  'recovery',
  'reminder',
  'acknowledgement',
  'certificate',
  'test',
  'escalation',
];
