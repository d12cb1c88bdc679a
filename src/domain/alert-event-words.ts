// An alert event as the console's delivery columns show it: a word of at most 9
// columns, so a row's channel and outcome stay in their columns. The wire's kinds are
// open (a newer service may send one this console does not know): such a kind is shown
// by its name, cleaned and cut.
import { fit, sanitize } from './sanitize.js';

export const EVENT_WORD_WIDTH = 9;

const WORDS: Readonly<Record<string, string>> = {
  certificate: 'cert',
  acknowledgement: 'ack',
  location: 'loc down',
  'location-recovery': 'loc back',
  'degraded-end': 'deg ended',
  'certificate-end': 'cert end',
};

/** The event's word, padded to `EVENT_WORD_WIDTH` columns. */
export const alertEventWord = (event: string): string =>
  fit(Object.hasOwn(WORDS, event) ? WORDS[event]! : sanitize(event), EVENT_WORD_WIDTH);
