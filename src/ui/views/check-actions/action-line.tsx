// One line above the footer while an action on a check is asked, sent or
// answered: the question, then its outcome; for a run now, each location's run
// as it goes (running… while queued or running, its outcome once it lands, why
// when it was skipped).
import { Text } from 'ink';
import { useStore } from 'zustand';
import { sanitize } from '../../../domain/sanitize.js';
import type { CheckAction, RunWatch } from '../../../store/check-actions-slice.js';
import type { ConsoleState, ConsoleStore } from '../../../store/state.js';
import { selectView } from '../../../store/selectors.js';
import type { CheckRun } from '../../../store/types.js';
import { keysOf } from '../../keymap.js';
import { tint, useTheme, type Theme } from '../../theme.js';

/** The views an action is taken from: the line shows there. */
const ACTING_VIEWS: ReadonlySet<string> = new Set(['board', 'dashboard', 'check', 'result']);

export const selectActionLineShown = (s: ConsoleState) =>
  s.checkAction.state !== 'idle' && ACTING_VIEWS.has(selectView(s).name);

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

function question(a: Extract<CheckAction, { state: 'confirm' }>): string {
  const name = sanitize(a.checkName);
  if (a.kind === 'run') return `Run ${name} now at ${plural(a.locations, 'location')}?`;
  if (a.kind === 'pause') return `Pause ${name}? It stops running until someone resumes it.`;
  return `Resume ${name}? It runs within a few seconds, then on its schedule.`;
}

export function ActionLine({ store }: { store: ConsoleStore }) {
  const theme = useTheme();
  const action = useStore(store, (s) => s.checkAction);
  const watch = useStore(store, (s) => s.runWatch);
  switch (action.state) {
    case 'idle':
      return null;
    case 'confirm':
      return (
        <Text color={tint(theme, 'yellow')} bold wrap="truncate">
          {`${question(action)}  ${keysOf('confirm.yes')} yes  ${keysOf('confirm.no')} no`}
        </Text>
      );
    case 'sending':
      return (
        <Text color={tint(theme, theme.dim)} wrap="truncate">
          {`${action.kind === 'run' ? 'asking for the runs' : action.kind === 'pause' ? 'pausing' : 'resuming'}…`}
        </Text>
      );
    case 'error':
      return (
        <Text color={tint(theme, 'red')} wrap="truncate">
          {sanitize(action.message)}
        </Text>
      );
    case 'done':
      if (action.kind === 'run' && watch?.checkId === action.checkId)
        return <RunsLine watch={watch} theme={theme} />;
      return (
        <Text color={tint(theme, 'green')} wrap="truncate">
          {sanitize(action.message)}
        </Text>
      );
  }
}

function RunsLine({ watch, theme }: { watch: RunWatch; theme: Theme }) {
  return (
    <Text wrap="truncate">
      <Text bold>{`${sanitize(watch.checkName)} now:`}</Text>
      {watch.runs.map((run) => (
        <RunCell key={run.runId} run={run} theme={theme} />
      ))}
      {watch.finished ? <Text color={tint(theme, theme.dim)}>{'  all in'}</Text> : null}
    </Text>
  );
}

function RunCell({ run, theme }: { run: CheckRun; theme: Theme }) {
  const where = `  ${sanitize(run.location)} `;
  if (run.state === 'queued' || run.state === 'running')
    return <Text color={tint(theme, theme.dim)}>{`${where}running…`}</Text>;
  if (run.state === 'skipped')
    return (
      <Text
        color={tint(theme, 'yellow')}
      >{`${where}skipped: ${sanitize(run.reason ?? 'no reason given')}`}</Text>
    );
  const passed = run.status === 'success';
  const look = theme.status[passed ? 'passing' : 'failing'];
  return (
    <Text color={tint(theme, look.color)} bold={!passed}>
      {`${where}${look.glyph} ${passed ? 'passed' : 'failed'}`}
    </Text>
  );
}
