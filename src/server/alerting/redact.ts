// A recorded error never carries a secret, whatever a library put in it.
const MIN_SECRET = 4;

export function redactSecrets(text: string, secrets: readonly string[], replacement = '[redacted]'): string {
  let out = text;
  const kept = [...secrets].filter((s) => s.length >= MIN_SECRET).sort((a, b) => b.length - a.length);
  for (const secret of kept) out = out.split(secret).join(replacement);
  for (const secret of kept) out = cutStart(out, secret, replacement);
  return out;
}

/**
 * The text with a secret's start that ends it (a receiver's answer cut at its limit inside an
 * echoed secret, "…" or not after it) replaced too: whole or cut, a secret is not shown.
 */
function cutStart(text: string, secret: string, replacement: string): string {
  const body = text.endsWith('…') ? text.slice(0, -1) : text;
  for (let n = Math.min(secret.length - 1, body.length); n >= MIN_SECRET; n--)
    if (body.endsWith(secret.slice(0, n))) return `${body.slice(0, -n)}${replacement}`;
  return text;
}

/** The secrets of the service's transports: the SMTP password and the provider's token. */
export function transportSecrets(config: {
  smtp?: { url: string } | undefined;
  sms?: { authToken: string } | undefined;
}): string[] {
  const out: string[] = [];
  if (config.sms) out.push(config.sms.authToken);
  if (config.smtp) {
    const password = new URL(config.smtp.url).password;
    if (password) out.push(password, decodeURIComponent(password));
  }
  return out;
}
