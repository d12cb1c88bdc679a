// Response times as one line of block characters, failures marked.
const BLOCKS = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
const ASCII = ['_', '.', '-', '=', '+', '*', '#', '@'];

export interface SparkPoint {
  value: number | null;
  failed: boolean;
}

export function sparkline(
  points: readonly SparkPoint[],
  width: number,
  ascii = false,
  /** Drawn for a point without a value (a failed run by default). */
  gap?: string,
): { text: string; failed: boolean[] } {
  const chars = ascii ? ASCII : BLOCKS;
  const recent = points.slice(-width);
  const values = recent.map((p) => p.value).filter((v): v is number => v !== null);
  const max = Math.max(1, ...values);
  const min = Math.min(max, ...values);
  const span = Math.max(1, max - min);
  const text = recent
    .map((p) =>
      p.value === null
        ? (gap ?? (ascii ? 'x' : '✕'))
        : chars[Math.min(chars.length - 1, Math.floor(((p.value - min) / span) * (chars.length - 1)))]!,
    )
    .join('');
  return { text, failed: recent.map((p) => p.failed) };
}
