// A request's or response's body as the result view's lines: JSON pretty-printed, cut at
// a cap of lines, the real size said when the service stored less than came.
import type { ReactElement } from 'react';
import { Text } from 'ink';
import { formatBytes } from '../../../domain/format.js';
import { sanitizeMultiline } from '../../../domain/sanitize.js';
import { tint, type Theme } from '../../theme.js';

export const BODY_LINE_CAP = 400;

const plain = (key: string, text: string, color?: string) => (
  <Text key={key} color={color} wrap="truncate">
    {text}
  </Text>
);

/** JSON pretty-printed; long bodies cut at a cap, with the real size said. */
export function bodyLines(key: string, body: string, realSize: number, theme: Theme): ReactElement[] {
  let text = body;
  try {
    text = JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    // not JSON: shown as it is
  }
  const lines = sanitizeMultiline(text).split('\n');
  const out = lines.slice(0, BODY_LINE_CAP).map((l, i) => plain(`${key}${i}`, `    ${l}`));
  const stored = Buffer.byteLength(body);
  if (lines.length > BODY_LINE_CAP || realSize > stored) {
    out.push(
      plain(
        `${key}-cut`,
        `    … cut: showing ${Math.min(lines.length, BODY_LINE_CAP)} lines of ${formatBytes(stored)} stored; the body was ${formatBytes(realSize)}`,
        tint(theme, 'yellow'),
      ),
    );
  }
  return out;
}
