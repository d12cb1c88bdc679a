// The check view's location rows for remote locations (issue 12): when the
// runner was last seen, or that there is none; --ascii stays ASCII in 80 columns.
import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { createTheme, ThemeContext } from '../../src/ui/theme.js';
import { LocationBreakdown } from '../../src/ui/views/check-detail/locations.js';
import { sampleStatus } from '../helpers/samples.js';

const NOW = Date.parse('2026-11-23T12:00:00.000Z');
const check = sampleStatus('c1', {
  status: 'degraded',
  locations: [
    {
      id: 'near',
      name: 'Near',
      status: 'passing',
      lastSuccess: new Date(NOW - 5_000).toISOString(),
      remote: false,
      runnerLastSeen: null,
    },
    {
      id: 'far-away',
      name: 'Far Away',
      status: 'passing',
      lastSuccess: new Date(NOW - 8_000).toISOString(),
      remote: true,
      runnerLastSeen: new Date(NOW - 12_000).toISOString(),
    },
    {
      id: 'dark-side',
      name: 'Dark Side',
      status: 'unknown',
      lastSuccess: null,
      remote: true,
      runnerLastSeen: null,
      statusReason: 'no runner connected for Dark Side',
    },
  ],
});

const frame = (ascii: boolean) =>
  render(
    <ThemeContext.Provider value={createTheme({ color: false, ascii })}>
      <LocationBreakdown check={check} results={[]} now={NOW} width={100} />
    </ThemeContext.Provider>,
  )
    .lastFrame()
    // eslint-disable-next-line no-control-regex -- the text without its styling codes
    ?.replace(/\u001b\[[0-9;]*m/g, '') ?? '';

describe('remote location rows', () => {
  it('say when the runner was last seen, or that there is none', () => {
    const lines = frame(false).split('\n');
    expect(lines.findIndex((l) => l.includes('remote · seen 12s ago'))).toBe(
      lines.findIndex((l) => l.includes('Far Away (far-away)')) + 1,
    );
    expect(frame(false)).toContain('remote · no runner');
    // A local location has no such line.
    expect(lines.filter((l) => l.includes('remote'))).toHaveLength(2);
  });

  it('stay ASCII and within 80 columns with --ascii', () => {
    const text = frame(true);
    expect(text).toContain('remote - seen 12s ago');
    expect(text).toContain('remote - no runner');
    expect(/^[\x20-\x7e\n]*$/.test(text)).toBe(true);
    expect(Math.max(...text.split('\n').map((l) => l.length))).toBeLessThanOrEqual(80);
  });
});
