// What a channel test shows of its exchange (docs/console.md, "Testing a channel"):
// the body sent and the receiver's answer, each masked as the channel's config is
// (the service masks them too; a copy of its secrets is not trusted to be the only
// guard), made safe for a terminal, and cut at 2 KB.
import { MASK } from './mask.js';
import { sanitize } from './sanitize.js';

export const EXCHANGE_MAX_BYTES = 2048;

type Config = Record<string, unknown>;
const MIN_SECRET = 4;
const encoder = new TextEncoder();
const bytes = (s: string) => encoder.encode(s).length;

/** The values of a config that are credentials: header and query values, and fields named like one. */
export function configSecrets(config: Config): string[] {
  const pairs = (v: unknown) => (Array.isArray(v) ? (v as Array<{ value?: unknown }>) : []);
  const values = [
    ...pairs(config['headers']).map((h) => h.value),
    ...pairs(config['queryParameters']).map((q) => q.value),
    ...Object.entries(config).flatMap(([k, v]) => (/token|key|secret|pass/i.test(k) ? [v] : [])),
  ];
  return values.filter((v): v is string => typeof v === 'string' && v.length >= MIN_SECRET);
}

/** `text` with each secret masked, on one safe line, at most `maxBytes` of UTF-8 (then "…"). */
export function exchangeText(
  text: string,
  secrets: readonly string[],
  maxBytes = EXCHANGE_MAX_BYTES,
): string {
  let out = text;
  for (const s of [...secrets].sort((a, b) => b.length - a.length)) out = out.split(s).join(MASK);
  const safe = sanitize(out);
  if (bytes(safe) <= maxBytes) return safe;
  let cut = '';
  let size = 0;
  for (const ch of safe) {
    const n = bytes(ch);
    if (size + n > maxBytes - 3) break;
    cut += ch;
    size += n;
  }
  return `${cut}…`;
}
