// A PNG drawn with half blocks in the space it is given (see half-block.ts).
import { Box, Text } from 'ink';
import { useMemo } from 'react';
import { decodePng } from './decode.js';
import { halfBlockLines, type ColorDepth } from './half-block.js';

export interface PictureProps {
  png: Uint8Array;
  cols: number;
  rows: number;
  depth: ColorDepth;
}

export function Picture({ png, cols, rows, depth }: PictureProps) {
  // Decoded once a picture: a 1280x800 screenshot is 4 MB of pixels.
  const image = useMemo(() => decodePng(png), [png]);
  const lines = useMemo(
    () => (image instanceof Error ? [] : halfBlockLines(image, cols, rows, depth)),
    [image, cols, rows, depth],
  );
  if (image instanceof Error) return <Text>{image.message}</Text>;
  return (
    <Box flexDirection="column">
      {lines.map((line, i) => (
        <Text key={i}>{line}</Text>
      ))}
    </Box>
  );
}
