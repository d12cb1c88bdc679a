// A recorded error never carries a secret, whatever a library put in it.
const MIN_SECRET = 4;

export function redactSecrets(text: string, secrets: readonly string[], replacement = '[redacted]'): string {
  let out = text;
  for (const secret of [...secrets].sort((a, b) => b.length - a.length))
    if (secret.length >= MIN_SECRET) out = out.split(secret).join(replacement);
  return out;
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
