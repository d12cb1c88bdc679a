// The console's word for each alert event: every kind the service sends fits its 9
// columns whole, and a kind from a newer (or hostile) service is cleaned and cut.
import { describe, expect, it } from 'vitest';
import { ALERT_EVENTS } from '../../src/api/schemas/index.js';
import { alertEventWord, EVENT_WORD_WIDTH } from '../../src/domain/alert-event-words.js';

describe('alertEventWord', () => {
  it('gives every kind a distinct word that fits without a cut', () => {
    const words = ALERT_EVENTS.map((e) => alertEventWord(e));
    for (const w of words) {
      expect(w).toHaveLength(EVENT_WORD_WIDTH);
      expect(w).not.toContain('…');
    }
    expect(new Set(words.map((w) => w.trim())).size).toBe(ALERT_EVENTS.length);
    expect(alertEventWord('failure')).toBe('failure  ');
    expect(alertEventWord('acknowledgement').trim()).toBe('ack');
  });

  it('cleans and cuts a kind it does not know', () => {
    expect(alertEventWord('\u001b[2Jescalation-policy')).toBe('escalati…');
    expect(alertEventWord('toString').trim()).toBe('toString');
  });
});
