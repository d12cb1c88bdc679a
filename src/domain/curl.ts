// A result's request as a `curl` command that sends it again (docs/console.md,
// "Copy"): every argument POSIX single-quoted, so a body or header holding
// `'; rm -rf ~` stays one argument. The service masks credential headers in
// every result it serves (docs/security.md), so the console never has their
// values: such a header reads its value from a shell variable instead, and the
// command stops with a message naming it while the variable is unset, rather
// than sending the mask as a credential.
import { isSecretHeaderName } from './mask.js';

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

/** The shell variable a masked header's value is read from: `x-api-key` reads `CHECKWALL_HEADER_X_API_KEY`. */
export function headerVariable(name: string): string {
  return `CHECKWALL_HEADER_${name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
}

/** `-H` and its word: the value quoted, or for a credential the variable's value (unset: the shell stops). */
function headerWord(name: string, value: string): string {
  if (!isSecretHeaderName(name)) return shellQuote(`${name}: ${value}`);
  return `${shellQuote(`${name}: `)}"\${${headerVariable(name)}:?masked by the service: export it}"`;
}

/** `curl -X METHOD 'URL' -H 'name: value' … --data-raw 'body'`; credentials read from CHECKWALL_HEADER_*. */
export function curlCommand(request: CurlRequest): string {
  const words = ['curl', '-X', shellQuote(request.method.toUpperCase()), shellQuote(request.url)];
  for (const [name, value] of Object.entries(request.headers)) words.push('-H', headerWord(name, value));
  if (request.body !== null && request.body !== '') words.push('--data-raw', shellQuote(request.body));
  return words.join(' ');
}
