// The screenshot of a browser run in the result view: the picture while it is
// shown, and one line saying what `i` and `o` do (or did).
import { Text } from 'ink';
import { sanitize } from '../../../domain/sanitize.js';
import type { Screenshot } from '../../../store/screenshot-slice.js';
import { Picture } from '../../widgets/half-block/picture.js';

interface PaneProps {
  shot: Screenshot;
  cols: number;
  rows: number;
  session: { truecolor: boolean };
}

export function ScreenshotPane({ shot, cols, rows, session }: PaneProps) {
  const { png } = shot;
  if (png.state === 'ok')
    return <Picture png={png.data} cols={cols} rows={rows} depth={session.truecolor ? 'truecolor' : '256'} />;
  if (png.state === 'error')
    return (
      <Text wrap="truncate">{`  the screenshot could not be loaded: ${sanitize(png.error.message)}`}</Text>
    );
  return <Text> loading the screenshot…</Text>;
}

/** The line under the failure cause of a run with a screenshot. */
export function screenshotNote(shot: Screenshot | null, canDraw: boolean): string {
  const saved = shot?.saved;
  if (shot?.pending === 'save') return '  saving the screenshot…';
  if (saved?.ok) return `  screenshot saved to ${saved.path}`;
  if (saved && !saved.ok) return `  ${sanitize(saved.message)}`;
  if (!canDraw) return '  screenshot: o saves it as a PNG file (pictures need colour)';
  return shot?.shown
    ? '  screenshot: i hides it, o saves it as a PNG file'
    : '  screenshot: i shows it, o saves it as a PNG file';
}
