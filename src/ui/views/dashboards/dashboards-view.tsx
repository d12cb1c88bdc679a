// Dashboards: name, privacy, tags, reach, custom URL and domain, updated, and
// the description; the tag and privacy filters are the service's.
import { Box, Text } from 'ink';
import { useStore } from 'zustand';
import { formatAge } from '../../../domain/format.js';
import { statusPageUrl } from '../../../domain/links.js';
import { sanitize } from '../../../domain/sanitize.js';
import { remoteData } from '../../../store/detail-slice.js';
import type { Dashboard } from '../../../store/types.js';
import { tint, useTheme } from '../../theme.js';
import { layoutColumns, type Column } from '../../widgets/table/layout.js';
import { Table } from '../../widgets/table/table.js';
import type { ViewProps } from '../view-props.js';
import { LoadingLine } from '../../widgets/loading/loading-line.js';

function columns(now: number, baseUrl: string): Column<Dashboard>[] {
  return [
    {
      key: 'name',
      title: 'NAME',
      width: 18,
      max: 32,
      priority: 0,
      cell: (d) => ({ text: sanitize(d.name) }),
    },
    {
      key: 'privacy',
      title: 'ACCESS',
      width: 7,
      priority: 1,
      cell: (d) => ({ text: d.isPrivate ? 'private' : 'public', color: d.isPrivate ? undefined : 'cyan' }),
    },
    {
      key: 'reach',
      title: 'CHECKS',
      width: 11,
      priority: 2,
      cell: (d) => ({ text: `${d.checkIds.length} + ${d.checkGroupIds.length} grp` }),
    },
    {
      key: 'tags',
      title: 'TAGS',
      width: 12,
      max: 24,
      priority: 4,
      cell: (d) => ({ text: sanitize(d.tags.join(',')) }),
    },
    {
      key: 'url',
      title: 'URL / DOMAIN',
      width: 16,
      max: 40,
      priority: 5,
      cell: (d) => ({
        text: sanitize(`${d.customUrl}${d.customDomain ? ` @ ${d.customDomain}` : ''}`),
        link: d.isPrivate || !baseUrl ? null : statusPageUrl(baseUrl, d.customUrl),
      }),
    },
    {
      key: 'updated',
      title: 'UPDATED',
      width: 7,
      align: 'right',
      priority: 3,
      cell: (d) => ({ text: formatAge(d.updatedAt, now) }),
    },
    {
      key: 'description',
      title: 'DESCRIPTION',
      width: 14,
      max: 60,
      flex: true,
      priority: 6,
      cell: (d) => ({ text: sanitize(d.description), color: 'gray' }),
    },
  ];
}

export function DashboardsView({ store, height }: ViewProps) {
  const theme = useTheme();
  const dashboards = useStore(store, (s) => s.lists.dashboards.remote);
  const selected = useStore(store, (s) => s.lists.dashboards.selectedId);
  const query = useStore(store, (s) => s.lists.dashboards.query);
  const cols = useStore(store, (s) => s.cols);
  const now = useStore(store, (s) => s.now);
  const baseUrl = useStore(store, (s) => s.session.baseUrl);
  const list = remoteData(dashboards);
  const privacy = query.isPrivate === undefined ? 'all' : query.isPrivate ? 'private only' : 'public only';
  return (
    <Box flexDirection="column" height={height}>
      <Text bold wrap="truncate">
        {`Dashboards${list ? ` (${list.meta.totalItems})  page ${list.meta.currentPage}/${Math.max(1, list.meta.totalPages)}` : ''}  `}
        <Text color={tint(theme, theme.dim)}>
          {`tags: ${query.tags.length ? sanitize(query.tags.join(', ')) : 'any'} ${theme.rule} ${privacy}`}
        </Text>
      </Text>
      <TagsLine store={store} />
      {dashboards.state === 'error' ? (
        <Text color={tint(theme, 'red')} wrap="truncate">
          {`${dashboards.error.kind}: ${sanitize(dashboards.error.message)}`}
        </Text>
      ) : null}
      {!list ? <LoadingLine what="dashboards" failed={dashboards.state === 'error'} /> : null}
      {list && list.data.length === 0 ? (
        <Text>No dashboard matches: / changes the tags, x the privacy.</Text>
      ) : null}
      {list && list.data.length > 0 ? (
        <Table
          columns={layoutColumns(columns(now, baseUrl), cols - 2, list.data)}
          rows={list.data}
          rowKey={(d) => d.id}
          selectedKey={selected}
          height={Math.max(1, height - 4)}
        />
      ) : null}
    </Box>
  );
}

function TagsLine({ store }: Pick<ViewProps, 'store'>) {
  const theme = useTheme();
  const open = useStore(store, (s) => s.focus === 'filter');
  const text = useStore(store, (s) => s.dashboardTagsText);
  if (!open) return null;
  return (
    <Text wrap="truncate">
      <Text color={tint(theme, theme.accent)}>/tags: </Text>
      {text}
      <Text inverse> </Text>
      <Text color={tint(theme, theme.dim)}> words or commas; enter asks the service, esc clears</Text>
    </Text>
  );
}
