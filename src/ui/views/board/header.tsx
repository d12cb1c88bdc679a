// The two header lines: who and where, the connection, and the account's counts.
import { Box, Text } from 'ink';
import { useStore } from 'zustand';
import { formatAgeStep, formatPercent, formatSpan } from '../../../domain/format.js';
import { STATUSES_WORST_FIRST } from '../../../domain/order.js';
import { displayWidth, sanitize, truncate } from '../../../domain/sanitize.js';
import type { ConsoleStore } from '../../../store/state.js';
import { selectCheckCount, selectFirstRuns, selectPollCycle } from '../../../store/selectors.js';
import type { StatusSummary } from '../../../store/types.js';
import { shown, tint, useTheme, type Theme } from '../../theme.js';
import { safeLinkUrl } from '../../../domain/links.js';
import { linkPart } from '../../widgets/link/link.js';

export interface HeaderProps {
  store: ConsoleStore;
  title?: string | undefined;
  /** Counts of a part of the account (a dashboard's checks) instead of the account's. */
  summary?: StatusSummary | undefined;
}

const BRAND = 'Checkwall';
/** A label cut shorter than this says nothing: it is left out instead. */
const LABEL_MIN = 8;

/**
 * What follows "Checkwall" on the first line, in `width` columns: the label
 * (least needed) is cut first, then left out; the host is kept whole while it
 * fits, then cut. The connection state beside it is never cut (Header).
 */
export function identity(label: string, host: string, width: number, rule: string, ellipsis: string): string {
  const hostPart = ` ${rule} ${host}`;
  const room = width - displayWidth(BRAND) - displayWidth(hostPart) - displayWidth(` ${rule} `);
  if (displayWidth(label) <= room) return ` ${rule} ${label}${hostPart}`;
  if (room >= LABEL_MIN) return ` ${rule} ${truncate(label, room, ellipsis)}${hostPart}`;
  return truncate(hostPart, width - displayWidth(BRAND), ellipsis);
}

/** The status page's path in the label (the demo's) as a link to the page, where links are on. */
function statusPageLinked(text: string, url: string | undefined, theme: Theme): string {
  const safe = safeLinkUrl(url);
  return safe ? linkPart(theme, text, new URL(safe).pathname, safe, theme.ellipsis) : text;
}

export function Header({ store, title, summary: own }: HeaderProps) {
  const theme = useTheme();
  const session = useStore(store, (s) => s.session);
  const cols = useStore(store, (s) => s.cols);
  const connection = useConnection(store, theme.rule);
  const account = useStore(store, (s) => s.summary);
  const summary = own ?? account;
  const total = useStore(store, selectCheckCount);
  const cycle = useStore(store, (s) => selectPollCycle(s, 'short'));
  const firstRuns = useStore(store, (s) => selectFirstRuns(s));
  const counts: Part[] = STATUSES_WORST_FIRST.map((status) => {
    const n =
      status === 'unknown'
        ? Math.max(
            0,
            (summary?.totalChecks ?? total) -
              (summary ? summary.passing + summary.failing + summary.degraded : 0),
          )
        : (summary?.[status] ?? 0);
    const look = theme.status[status];
    if (status === 'unknown' && firstRuns > 0 && !own) {
      const of = `${firstRuns} of ${summary?.totalChecks ?? total}`;
      return {
        text: `${theme.ellipsis} first runs in progress (${of})  `,
        short: `${theme.ellipsis} ${firstRuns} starting  `,
        tier: 1,
        color: tint(theme, theme.accent),
        bold: true,
      };
    }
    return {
      text: `${look.glyph} ${n} ${status}  `,
      short: `${look.glyph} ${n}  `,
      tier: 4,
      color: n > 0 || status === 'passing' ? tint(theme, look.color) : undefined,
      bold: n > 0 && status !== 'passing',
    };
  });
  const incidents = summary?.activeIncidents ?? 0;
  const alerts = summary?.activeAlerts ?? 0;
  const avail = shown(theme, formatPercent(summary?.averageAvailability ?? null, 1));
  counts.push({
    text: `incidents ${incidents}  alerts ${alerts}  avail ${avail}`,
    short: `inc ${incidents}  alerts ${alerts}  avail ${avail}`,
    tier: 3,
  });
  if (cycle !== null)
    counts.push({ text: `  ${theme.rule} ${cycle}`, short: '', tier: 2, color: tint(theme, theme.dim) });
  return (
    <Box flexDirection="column">
      <Box justifyContent="space-between">
        <Text wrap="truncate">
          <Text bold color={tint(theme, theme.accent)}>
            {BRAND}
          </Text>
          {statusPageLinked(
            identity(
              sanitize(title ?? session.label),
              sanitize(session.host),
              // One column between it and the connection state, which is never cut.
              cols - displayWidth(`${connection.text}${connection.age}`) - 1,
              theme.rule,
              theme.ellipsis,
            ),
            session.statusPageUrl,
            theme,
          )}
        </Text>
        <ConnectionState connection={connection} />
      </Box>
      <Text wrap="truncate">
        {fitted(counts, cols).map((part, i) => (
          <Text key={i} color={part.color} bold={part.bold}>
            {part.text}
          </Text>
        ))}
      </Text>
    </Box>
  );
}

/** A piece of the counts line, and its short form for a terminal too narrow for the long one. */
interface Part {
  text: string;
  short: string;
  /** Shortened at this step: the first runs' words, the poll cycle, "incidents", then every status's word. */
  tier: number;
  color?: string | undefined;
  bold?: boolean | undefined;
}

type Drawn = Pick<Part, 'text' | 'color' | 'bold'>;

/**
 * The counts as whole as `cols` allows: pieces shortened a step at a time (the
 * words go, the numbers stay) rather than cut at the end, where "(2 of 21)" read
 * "(2 of 2…" and the availability was lost.
 */
function fitted(parts: Part[], cols: number): Drawn[] {
  let drawn: Drawn[] = parts;
  for (let tier = 1; tier <= 4; tier++) {
    if (drawn.reduce((w, p) => w + displayWidth(p.text), 0) <= cols) return drawn;
    drawn = parts.map((p) => (p.tier <= tier ? { ...p, text: p.short } : p));
  }
  return drawn;
}

interface Connection {
  text: string;
  color: string;
  bold: boolean;
  /** " ─ updated 5s ago", or "" before the first answer. */
  age: string;
}

function useConnection(store: ConsoleStore, rule: string): Connection {
  const phase = useStore(store, (s) => s.phase);
  const polling = useStore(store, (s) => s.polling);
  // Read as text: the clock redraws the header only when what it says changes.
  const age = useStore(store, (s) =>
    s.lastSuccessAt === null ? null : formatAgeStep(s.lastSuccessAt, s.now),
  );
  const stale = useStore(store, (s) =>
    s.phase === 'retrying' && s.lastSuccessAt !== null ? formatSpan(s.now - s.lastSuccessAt) : '',
  );
  const look = {
    live: { text: polling ? 'live (polling)' : 'live', color: 'green' },
    connecting: { text: 'connecting', color: 'yellow' },
    retrying: { text: `STALE ${stale}`, color: 'red' },
    paused: { text: 'PAUSED', color: 'yellow' },
  }[phase];
  return { ...look, bold: phase !== 'live', age: age === null ? '' : ` ${rule} updated ${age} ago` };
}

function ConnectionState({ connection }: { connection: Connection }) {
  const theme = useTheme();
  return (
    <Text>
      <Text color={tint(theme, connection.color)} bold={connection.bold}>
        {connection.text}
      </Text>
      {connection.age}
    </Text>
  );
}
