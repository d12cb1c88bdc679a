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
import { AvailabilityStrip } from './availability-strip.js';
import { CheckHeader, checkHeaderHeight } from './check-header.js';
import { LocationBreakdown, locationBreakdownHeight } from './locations.js';
import { MaintenancePanel, maintenancePanelHeight } from './maintenance-panel.js';
import { ResultsSummary, ResultsTable, Sparkline } from './results-list.js';

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
  const alertLines = alertsPanelHeight(store, checkId, rows);
  const audits = auditRows(height);
  const used =
    checkHeaderHeight(check) +
    auditLinesHeight(store, checkId, audits) +
    1 +
    locationBreakdownHeight(check) +
    maintenancePanelHeight(check) +
    alertLines +
    2 +
    1 +
    1 +
    (detail.page.state === 'error' ? 1 : 0) +
    (view.notice ? 1 : 0);
  return (
    <Box flexDirection="column" height={height}>
      <CheckHeader check={check} now={now} />
      <ConnectionBanner store={store} />
      <LocationBreakdown
        check={check}
        results={window}
        now={now}
        running={running ? running.split(',') : []}
      />
      <MaintenancePanel store={store} check={check} />
      <AlertsPanel store={store} check={check} rows={rows} width={cols} />
      <AuditLines store={store} checkId={checkId} rows={audits} />
      <AvailabilityStrip store={store} checkId={checkId} />
      {view.notice ? (
        <Text color={tint(theme, 'yellow')} wrap="truncate">
          {view.notice}
        </Text>
      ) : null}
      <ResultsSummary list={page} filters={filters} checkType={check.checkType} />
      <Sparkline results={window} filters={filters} checkType={check.checkType} width={cols} />
      {detail.page.state === 'error' ? (
        <Text
          color={tint(theme, 'red')}
          wrap="truncate"
        >{`results: ${detail.page.error.kind} ${theme.rule} ${sanitize(detail.page.error.message)}`}</Text>
      ) : null}
      {page ? (
        <ResultsTable
          results={page.data}
          selectedId={selectedResultId}
          width={cols}
          height={Math.max(1, height - used - 1)}
        />
      ) : (
        <Text color={tint(theme, theme.dim)}> loading results…</Text>
      )}
    </Box>
  );
}
