// A result's request as a `curl` command that sends it again (docs/console.md,
// "Copy"): every argument POSIX single-quoted, so a body or header holding
// `'; rm -rf ~` stays one argument; credential headers masked unless revealed.
import { MASK, isSecretHeaderName } from './mask.js';

export interface CurlRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | null;
}

/** One shell word: single quotes around it, and each `'` inside as `'\''`. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** `curl -X METHOD 'URL' -H 'name: value' … --data-raw 'body'`; secrets shown as MASK unless `revealed`. */
export function curlCommand(request: CurlRequest, revealed = false): string {
  const words = ['curl', '-X', shellQuote(request.method.toUpperCase()), shellQuote(request.url)];
  for (const [name, value] of Object.entries(request.headers)) {
    const shown = !revealed && isSecretHeaderName(name) ? MASK : value;
    words.push('-H', shellQuote(`${name}: ${shown}`));
  }
  if (request.body !== null && request.body !== '') words.push('--data-raw', shellQuote(request.body));
  return words.join(' ');
}
