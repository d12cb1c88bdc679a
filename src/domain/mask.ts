// What an alert channel list shows of its secrets: by default only enough to
// recognise the target (a URL's scheme and host, a phone number's last digits);
// header and query parameter values never. E-mail addresses are shown: they are
// an address, not a credential.
export const MASK = '•••';

export function maskUrl(value: string, mask = MASK): string {
  try {
    const url = new URL(value);
    const rest = `${url.pathname === '/' ? '' : url.pathname}${url.search}${url.hash}`;
    return `${url.protocol}//${url.host}${rest ? `/${mask}` : ''}`;
  } catch {
    return mask;
  }
}

export function maskPhone(value: string, mask = MASK): string {
  const digits = value.replace(/\D/g, '');
  return digits.length <= 2 ? mask : `+${mask}${digits.slice(-2)}`;
}

type Config = Record<string, unknown>;
const str = (v: unknown) => (typeof v === 'string' ? v : '');
const pairs = (v: unknown) => (Array.isArray(v) ? (v as Array<{ key?: unknown; value?: unknown }>) : []);

/** A provider's key (PagerDuty's routing key, Opsgenie's API key) shows as the mask alone. */
function maskedKeys(config: Config, keys: readonly string[], mask: string): Config {
  return Object.fromEntries(keys.filter((k) => config[k] !== undefined).map((k) => [k, mask]));
}

/** The config as shown: masked unless revealed. */
export function maskConfig(type: string, config: Config, revealed: boolean, mask = MASK): Config {
  if (revealed) return config;
  switch (type) {
    case 'CHAT':
      return {
        ...config,
        url: maskUrl(str(config['url']), mask),
        ...(config['botToken'] !== undefined ? { botToken: maskSecret(str(config['botToken']), mask) } : {}),
      };
    case 'WEBHOOK':
      return {
        ...config,
        url: maskUrl(str(config['url']), mask),
        headers: pairs(config['headers']).map((h) => ({ key: str(h.key), value: mask })),
        queryParameters: pairs(config['queryParameters']).map((q) => ({ key: str(q.key), value: mask })),
        ...maskedKeys(config, ['routingKey', 'apiKey'], mask),
      };
    case 'SMS':
    case 'PHONE':
      return { ...config, number: maskPhone(str(config['number']), mask) };
    default:
      return config;
  }
}

/** One line naming where the channel delivers. */
export function channelTarget(type: string, config: Config): string {
  switch (type) {
    case 'EMAIL':
      return str(config['address']);
    case 'CHAT': {
      // A Telegram channel is named by its chat: its URL is the API's, its token a secret.
      if (config['service'] === 'telegram') return `${str(config['url'])} chat ${str(config['chatId'])}`;
      return `${str(config['url'])}${config['channel'] ? ` ${str(config['channel'])}` : ''}`;
    }
    case 'WEBHOOK': {
      const extras = [
        pairs(config['headers']).map((h) => `${str(h.key)}: ${str(h.value)}`),
        pairs(config['queryParameters']).map((q) => `${str(q.key)}=${str(q.value)}`),
      ].flat();
      return `${str(config['method'])} ${str(config['url'])}${extras.length ? ` (${extras.join(', ')})` : ''}`;
    }
    case 'SMS':
    case 'PHONE':
      return `${str(config['number'])} (${str(config['name'])})`;
    default:
      return JSON.stringify(config);
  }
}

/** A signing secret after its creation: recognisable by its last characters, never usable. */
export function maskSecret(secret: string, mask = MASK): string {
  const prefix = secret.startsWith('whsec_') ? 'whsec_' : '';
  return `${prefix}${mask}${secret.slice(-4)}`;
}

/**
 * A channel's config as revealed, a line for each part: the whole target, then
 * each header and query parameter on a line of its own (a one-line target cut to
 * the column hides exactly what revealing is for).
 */
export function channelDetailLines(type: string, config: Config): Array<{ label: string; value: string }> {
  switch (type) {
    case 'CHAT':
      return [
        ...(config['service'] ? [{ label: 'Service', value: str(config['service']) }] : []),
        { label: 'URL', value: str(config['url']) },
        ...(config['channel'] ? [{ label: 'Channel', value: str(config['channel']) }] : []),
        ...(config['botToken'] ? [{ label: 'Bot token', value: str(config['botToken']) }] : []),
        ...(config['chatId'] ? [{ label: 'Chat id', value: str(config['chatId']) }] : []),
      ];
    case 'WEBHOOK':
      return [
        { label: 'URL', value: `${str(config['method'])} ${str(config['url'])}` },
        ...pairs(config['headers']).map((h) => ({
          label: 'Header',
          value: `${str(h.key)}: ${str(h.value)}`,
        })),
        ...pairs(config['queryParameters']).map((q) => ({
          label: 'Query',
          value: `${str(q.key)}=${str(q.value)}`,
        })),
      ];
    default:
      return [{ label: 'Target', value: channelTarget(type, config) }];
  }
}

/** Request header names whose values are credentials: masked in stored results and in copies. */
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie']);
export function isSecretHeaderName(name: string): boolean {
  const lower = name.toLowerCase();
  return SECRET_HEADERS.has(lower) || /token|secret|key|pass/i.test(lower);
}

/** Headers with every credential's value replaced by the mask (names kept: they say what was sent). */
export function maskHeaders(headers: Record<string, string>, mask = MASK): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name] = isSecretHeaderName(name) ? mask : value;
  return out;
}

/** `url` without a user and password (`https://user:pass@host/` as `https://host/`). */
export function withoutCredentials(url: string): string {
  if (!url.includes('@')) return url;
  try {
    const parsed = new URL(url);
    if (parsed.username === '' && parsed.password === '') return url;
    parsed.username = '';
    parsed.password = '';
    return parsed.href;
  } catch {
    return url;
  }
}

interface MaskedParts {
  request: { url: string; headers: Record<string, string> };
  redirects?: Array<{ url: string }> | undefined;
}

/**
 * A result as stored and served (docs/security.md): its request's credential headers
 * masked, and no URL it names (its request's, its redirects') with a user and password.
 * The runner leaves them out already; a result stored by an earlier version, or sent by
 * a remote runner of one, may still carry them.
 */
export function maskResultRequest<R extends MaskedParts>(result: R): R {
  const { headers, url } = result.request;
  const secretHeaders = Object.keys(headers).some(isSecretHeaderName);
  const urlAsIs = withoutCredentials(url) === url;
  const hopsAsIs = result.redirects?.every((r) => withoutCredentials(r.url) === r.url) ?? true;
  if (!secretHeaders && urlAsIs && hopsAsIs) return result;
  return {
    ...result,
    request: {
      ...result.request,
      url: withoutCredentials(url),
      ...(secretHeaders ? { headers: maskHeaders(headers) } : {}),
    },
    ...(hopsAsIs
      ? {}
      : { redirects: result.redirects!.map((r) => ({ ...r, url: withoutCredentials(r.url) })) }),
  };
}
