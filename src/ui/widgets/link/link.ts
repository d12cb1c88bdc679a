// A URL on screen as an OSC 8 hyperlink when the terminal draws them (the
// theme's `links`): the text is what shows, already made safe and cut to its
// column; the link closes after it, so a cut never leaves one open. Only a
// clean http(s) URL is linked (domain/links.ts); anything else is text alone.
import { hyperlink } from '../../../domain/links.js';
import type { Theme } from '../../theme.js';

export function linkText(theme: Theme, url: string, text: string): string {
  return theme.links ? hyperlink(url, text) : text;
}

/**
 * `text` with `part` in it linked to `url`: the part whole, or what a cut left of it
 * (a prefix of it and the ellipsis); the text alone when neither is in it.
 */
export function linkPart(theme: Theme, text: string, part: string, url: string, ellipsis: string): string {
  if (!theme.links || !part) return text;
  for (let end = part.length; end > 0; end--) {
    const shown = end === part.length ? part : `${part.slice(0, end)}${ellipsis}`;
    const at = text.indexOf(shown);
    if (at >= 0) return `${text.slice(0, at)}${hyperlink(url, shown)}${text.slice(at + shown.length)}`;
  }
  return text;
}
