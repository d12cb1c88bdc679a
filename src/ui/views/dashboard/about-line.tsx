// The line under a dashboard's header: its description, access, tags and refresh,
// and for a public one its status page (docs/status-page.md) as a link where the
// terminal draws them. The URL keeps its room: the words before it are cut first.
import { Text } from 'ink';
import { statusPageUrl } from '../../../domain/links.js';
import { displayWidth, sanitize, truncate } from '../../../domain/sanitize.js';
import type { Dashboard } from '../../../store/types.js';
import { tint, useTheme } from '../../theme.js';
import { linkText } from '../../widgets/link/link.js';

/** The URL is cut below this many cells only when the line has no more. */
const URL_MIN = 24;

export function AboutLine({
  dashboard: d,
  width,
  baseUrl,
}: {
  dashboard: Dashboard;
  width: number;
  baseUrl: string;
}) {
  const theme = useTheme();
  const about = sanitize(
    [
      d.description,
      d.isPrivate ? 'private' : 'public',
      d.tags.length ? `tags ${d.tags.join(',')}` : '',
      `refresh ${d.configuration.refreshInterval}s`,
    ]
      .filter(Boolean)
      .join(` ${theme.rule} `),
  );
  const url = d.isPrivate ? null : statusPageUrl(baseUrl, d.customUrl);
  if (!url)
    return (
      <Text wrap="truncate" color={tint(theme, theme.dim)}>
        {about}
      </Text>
    );
  const label = ` ${theme.rule} status page `;
  const urlRoom = Math.min(displayWidth(url), Math.max(URL_MIN, width - displayWidth(label) - 8));
  const aboutRoom = Math.max(0, width - displayWidth(label) - urlRoom);
  return (
    <Text wrap="truncate">
      <Text color={tint(theme, theme.dim)}>{`${truncate(about, aboutRoom, theme.ellipsis)}${label}`}</Text>
      <Text color={tint(theme, theme.accent)}>
        {linkText(theme, url, truncate(url, urlRoom, theme.ellipsis))}
      </Text>
    </Text>
  );
}
