// A heartbeat run in the result view (docs/service.md, "Heartbeats"): when the job
// started and ended, how long it ran, how it ended, its exit code and run id, the
// /log notes and its output (the end ping's body, the stored tail of it). The
// request and response of other checks say nothing here: a ping is no request of ours.
import type { ReactElement } from 'react';
import { Text } from 'ink';
import { formatBytes, formatClock, formatMs } from '../../../domain/format.js';
import { sanitize } from '../../../domain/sanitize.js';
import type { CheckResult } from '../../../store/types.js';
import { tint, type Theme } from '../../theme.js';
import { bodyLines } from './body-lines.js';

const ENDS: Record<string, string> = {
  success: 'success ping',
  fail: '/fail',
  exit: 'exit code',
  missed: 'missed: no ping by its due time plus grace',
  overrun: 'overran: started, no end within maxRunTime',
};

const line = (key: string, text: string, color?: string) => (
  <Text key={key} color={color} wrap="truncate">
    {text}
  </Text>
);

export function jobRunLines(r: CheckResult, theme: Theme): ReactElement[] {
  const run = r.heartbeat!;
  const dim = tint(theme, theme.dim);
  const code = run.exitCode === null ? '—' : String(run.exitCode);
  const out: ReactElement[] = [
    <Text key="job" bold>
      Job run
    </Text>,
    line('j-start', `  started   ${run.startedAt ? formatClock(run.startedAt) : '— (no /start)'}`),
    line('j-end', `  ended     ${formatClock(r.finishedAt)}  ${ENDS[run.end] ?? sanitize(run.end)}`),
    line('j-time', `  ran       ${run.startedAt ? formatMs(r.duration) : '— (no /start to time it from)'}`),
    line(
      'j-code',
      `  exit code ${code}`,
      run.exitCode !== null && run.exitCode !== 0 ? tint(theme, 'red') : undefined,
    ),
  ];
  if (run.rid) out.push(line('j-rid', `  run id    ${sanitize(run.rid)}`));
  if (run.log)
    out.push(line('j-log-h', '  notes (/log)'), ...bodyLines('j-log', run.log, run.log.length, theme));
  const output = r.response?.body ?? '';
  const size = r.response?.size ?? 0;
  if (!output) {
    out.push(line('j-out-none', '  output: none sent', dim));
    return out;
  }
  out.push(
    line(
      'j-out-h',
      `  output (${formatBytes(size)}${size > Buffer.byteLength(output) ? ', its end kept' : ''})`,
    ),
  );
  out.push(...bodyLines('j-out', output, size, theme));
  return out;
}
