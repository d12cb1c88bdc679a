// The ? legend lists every mark the console draws with its --ascii form, the
// HOLD marks (issue 36) among them, each one terminal cell wide.
import { describe, expect, it } from 'vitest';
import { displayWidth } from '../../src/domain/sanitize.js';
import { LEGEND, legendLines } from '../../src/ui/legend.js';
import { createTheme } from '../../src/ui/theme.js';

const unicode = createTheme({ color: true, ascii: false });
const ascii = createTheme({ color: true, ascii: true });

describe('the legend', () => {
  it('names the HOLD marks with their ASCII forms', () => {
    const lines = legendLines(unicode, ascii);
    expect(lines).toContainEqual(expect.stringMatching(/^‖ +P +HOLD: paused/));
    expect(lines).toContainEqual(expect.stringMatching(/^∅ +S +HOLD: a maintenance window silences/));
    expect(lines).toContainEqual(
      expect.stringMatching(/^◔ +C +HOLD: its TLS certificate expires within 14 days/),
    );
  });

  it('has marks one cell wide, ASCII in --ascii, no two entries alike', () => {
    for (const theme of [unicode, ascii])
      for (const mark of Object.values(theme.hold)) expect(displayWidth(mark)).toBe(1);
    for (const e of LEGEND) expect(e.mark(ascii)).toMatch(/^[\x20-\x7e]+$/);
    const forms = LEGEND.map((e) => e.mark(ascii));
    expect(new Set(forms).size).toBe(forms.length);
  });
});
