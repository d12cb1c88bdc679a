// What may be said of a postgres:// URL: its host, port and database, never its password.
// No pg import here: `checkwall serve` on SQLite names its database without loading pg.

/** host:port/database of a postgres:// URL, for messages and the start-up line. */
export function describePgUrl(url: string): string {
  try {
    const u = new URL(url);
    const database = decodeURIComponent(u.pathname.slice(1)) || '(default database)';
    return `${u.hostname || 'localhost'}:${u.port || '5432'}/${database}`;
  } catch {
    return 'a PostgreSQL URL that cannot be parsed';
  }
}

/** `text` in one line, with the URL's password masked should a driver ever echo it. */
export function hidePassword(text: string, url: string): string {
  let password = '';
  try {
    password = decodeURIComponent(new URL(url).password);
  } catch {
    // an unparsable URL: pg refuses it before it could echo anything
  }
  const masked = password ? text.split(password).join('***') : text;
  return masked.replace(/\s+/g, ' ').trim();
}
