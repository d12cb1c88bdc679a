// A URL on screen as an OSC 8 hyperlink when the terminal draws them (the
// theme's `links`): the text is what shows, already made safe and cut to its
// column; the link closes after it, so a cut never leaves one open. Only a
// clean http(s) URL is linked (domain/links.ts); anything else is text alone.
import { hyperlink } from '../../../domain/links.js';
import type { Theme } from '../../theme.js';

export function linkText(theme: Theme, url: string, text: string): string {
  return theme.links ? hyperlink(url, text) : text;
}
