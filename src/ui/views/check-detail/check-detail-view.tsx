// One check: header, per-location breakdown, its alert and the actions taken on
// it, 30 days of availability, summary, sparkline and results.
import { Box, Text } from 'ink';
import { useStore } from 'zustand';
import { sanitize } from '../../../domain/sanitize.js';
import { remoteData } from '../../../store/detail-slice.js';
import type { ViewProps } from '../view-props.js';
import { tint, useTheme } from '../../theme.js';
import { ConnectionBanner } from '../board/banner.js';
import { AlertsPanel, alertsPanelHeight, historyRows } from './alerts-panel.js';
import { AuditLines, auditLinesHeight, auditRows } from './audit-lines.js';
import { budget } from './budget.js';
import { AvailabilityStrip } from './availability-strip.js';
import { CheckHeader, checkHeaderHeight } from './check-header.js';
import { LocationBreakdown, locationBreakdownHeight } from './locations.js';
import { MaintenancePanel, maintenancePanelHeight } from './maintenance-panel.js';
import { ResultsSummary, ResultsTable, Sparkline } from './results-list.js';
import { RunbookLine, runbookLineHeight } from '../hands/runbook-line.js';

export function CheckDetailView({ store, view, height }: ViewProps<'check'>) {
  const theme = useTheme();
  const { checkId, filters, selectedResultId } = view;
  const check = useStore(store, (s) => s.checks[checkId]);
  const detail = useStore(store, (s) => s.detail);
  const now = useStore(store, (s) => s.now);
  const cols = useStore(store, (s) => s.cols);
  // The alert panel's height depends on these: redraw the budget when they change.
  useStore(store, (s) => s.ack.state);
  useStore(store, (s) => s.alertHistory);
  useStore(store, (s) => s.audit);
  const banner = useStore(store, (s) => (s.lastError ? 1 : 0));
  // Where a run asked for now is under way, as one string (a stable selector value).
  const running = useStore(store, (s) =>
    s.runWatch?.checkId === checkId
      ? s.runWatch.runs
          .filter((r) => r.state === 'queued' || r.state === 'running')
          .map((r) => r.location)
          .join(',')
      : '',
  );
  if (!check) return <Text>{`No check "${sanitize(checkId)}" on the board any more. esc goes back.`}</Text>;
  const page = remoteData(detail.page);
  const window = remoteData(detail.window)?.data ?? [];
  const rows = historyRows(height, view.allDeliveries ?? false);
  const plan = budget(height, {
    header: checkHeaderHeight(check) + runbookLineHeight(check),
    banner,
    locations: locationBreakdownHeight(check),
    maintenance: maintenancePanelHeight(check),
    alerts: alertsPanelHeight(store, checkId, rows),
    audit: auditLinesHeight(store, checkId, auditRows(height)),
    notice: view.notice ? 1 : 0,
    error: detail.page.state === 'error' ? 1 : 0,
  });
  return (
    <Box flexDirection="column" height={height}>
      <CheckHeader check={check} now={now} />
      <RunbookLine source={check} width={cols} />
      <ConnectionBanner store={store} />
      <LocationBreakdown
        check={check}
        results={window}
        now={now}
        running={running ? running.split(',') : []}
        width={cols}
        lines={plan.locations}
      />
      {plan.maintenance ? <MaintenancePanel store={store} check={check} /> : null}
      {plan.alerts ? <AlertsPanel store={store} check={check} rows={rows} width={cols} /> : null}
      {plan.audit ? <AuditLines store={store} checkId={checkId} rows={auditRows(height)} /> : null}
      {plan.strip ? <AvailabilityStrip store={store} checkId={checkId} /> : null}
      {view.notice ? (
        <Text color={tint(theme, 'yellow')} wrap="truncate">
          {view.notice}
        </Text>
      ) : null}
      <ResultsSummary list={page} filters={filters} checkType={check.checkType} />
      {plan.sparkline ? (
        <Sparkline results={window} filters={filters} checkType={check.checkType} width={cols} />
      ) : null}
      {detail.page.state === 'error' ? (
        <Text
          color={tint(theme, 'red')}
          wrap="truncate"
        >{`results: ${detail.page.error.kind} ${theme.rule} ${sanitize(detail.page.error.message)}`}</Text>
      ) : null}
      {page ? (
        <ResultsTable results={page.data} selectedId={selectedResultId} width={cols} height={plan.results} />
      ) : (
        <Text color={tint(theme, theme.dim)}> loading results…</Text>
      )}
    </Box>
  );
}
