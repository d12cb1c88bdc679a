// A check's runbook and links on one line of the check and result views,
// nothing when it has neither: `runbook <url>  links: grafana, logs` (L lists
// them to open or copy). URLs are links where the terminal draws them.
import { Text } from 'ink';
import { safeLinkUrl } from '../../../domain/links.js';
import { sanitize, truncate } from '../../../domain/sanitize.js';
import type { CheckLink } from '../../../store/types.js';
import { tint, useTheme } from '../../theme.js';
import { linkText } from '../../widgets/link/link.js';

export interface RunbookSource {
  runbook?: string | null | undefined;
  links?: CheckLink[] | undefined;
}

/** The lines the runbook line takes: 1 with a runbook or a link, else 0. */
export const runbookLineHeight = (source: RunbookSource | null | undefined): number =>
  source?.runbook || (source?.links?.length ?? 0) > 0 ? 1 : 0;

export function RunbookLine({ source, width }: { source: RunbookSource; width: number }) {
  const theme = useTheme();
  if (!runbookLineHeight(source)) return null;
  const names = (source.links ?? []).map((l) => sanitize(l.name)).join(', ');
  const tail = names ? `  links: ${names} (L)` : '';
  const runbook = source.runbook ? sanitize(source.runbook) : '';
  // The runbook's URL keeps what room the names leave, at least 20 cells: cut by us, then linked.
  const room = Math.max(20, width - 'runbook '.length - tail.length - 1);
  const shown = truncate(runbook, room, theme.ellipsis);
  return (
    <Text wrap="truncate">
      {runbook ? <Text color={tint(theme, theme.dim)}>runbook </Text> : null}
      {runbook ? (
        <Text color={tint(theme, theme.accent)}>
          {safeLinkUrl(source.runbook) ? linkText(theme, source.runbook!, shown) : shown}
        </Text>
      ) : null}
      <Text color={tint(theme, theme.dim)}>{runbook ? tail : tail.trimStart()}</Text>
    </Text>
  );
}
