// Loads the service config (YAML or JSON), validates it, checks that its
// references hold, and applies the account from the environment.
import { X509Certificate } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { describeIssues } from '../../api/schemas/index.js';
import { hostName } from '../../domain/host-name.js';
import { parseProblem } from '../../domain/parse-problem.js';
import { digestOf } from './digest.js';
import { namedTwice } from './named-twice.js';
import { apiKeyDigest, ServiceConfigSchema, type ServiceConfig } from './schema.js';

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

export function loadConfigFile(path: string): ServiceConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(`cannot read ${path}: ${(error as Error).message}`);
  }
  const json = /\.json$/i.test(path);
  let raw: unknown;
  try {
    raw = json ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    throw new ConfigError(
      `${path} is not valid ${json ? 'JSON' : 'YAML'}: ${parseProblem((error as Error).message, text, json)}`,
    );
  }
  return withCaFiles(validateConfig(raw ?? {}, path), dirname(path), path);
}

const PEM_CERTIFICATE = '-----BEGIN CERTIFICATE-----';

/**
 * Each check's `tls.ca` as PEM text, so a run (on a worker thread, or a remote runner
 * given the job) carries the certificates, not a path: a file is read relative to the
 * config file's folder; PEM written in the file stays as it is. Each must hold a
 * certificate Node can read; an error names the key and the file.
 */
function withCaFiles(config: ServiceConfig, dir: string, source: string): ServiceConfig {
  const problems: string[] = [];
  const accounts = config.accounts.map((account, a) => ({
    ...account,
    checks: account.checks.map((check, c) => {
      const ca = check.tls?.ca;
      if (ca === undefined) return check;
      const at = `accounts.${a}.checks.${c}.tls.ca`;
      const file = ca.includes(PEM_CERTIFICATE) ? undefined : resolve(dir, ca);
      let pem: string;
      try {
        pem = file === undefined ? ca : readFileSync(file, 'utf8');
      } catch (error) {
        problems.push(`${at}: cannot read ${file}: ${(error as Error).message}`);
        return check;
      }
      const named = file === undefined ? 'the PEM given' : file;
      try {
        if (!pem.includes(PEM_CERTIFICATE)) throw new Error(`no "${PEM_CERTIFICATE}" in it`);
        new X509Certificate(pem);
      } catch (error) {
        problems.push(`${at}: ${named} is not a PEM certificate: ${(error as Error).message}`);
        return check;
      }
      return { ...check, tls: { ...check.tls, ca: pem } };
    }),
  }));
  if (problems.length > 0)
    throw new ConfigError(
      `${source} is not a valid checkwall config:\n${problems.map((p) => `  ${p}`).join('\n')}`,
    );
  return { ...config, accounts };
}

/**
 * One line when the config file holds a secret (an account's API keys, the SMS
 * provider's token, an SMTP password) and other users may read it, as ssh says of
 * a key file; null otherwise. Said once, at start.
 */
export function configFileWarning(path: string, config: ServiceConfig): string | null {
  const secret =
    config.accounts.length > 0 || config.sms !== undefined || /\/\/[^/@]*@/.test(config.smtp?.url ?? '');
  let mode: number;
  try {
    mode = statSync(path).mode;
  } catch {
    return null;
  }
  if (!secret || (mode & 0o044) === 0) return null;
  return `warning: ${path} holds API keys and is readable by other users: chmod 600 ${path}`;
}

export function validateConfig(raw: unknown, source: string): ServiceConfig {
  const parsed = ServiceConfigSchema.safeParse(raw);
  if (!parsed.success) {
    throw new ConfigError(
      `${source} is not a valid checkwall config:\n  ${describeIssues(parsed.error, {
        separator: '\n  ',
        root: '(top)',
        dotted: true,
        unknownKeyHint: 'a typo, or not a checkwall setting',
      })}`,
    );
  }
  const problems = [...crossReferences(parsed.data), ...namedTwice(parsed.data)];
  if (problems.length > 0)
    throw new ConfigError(
      `${source} is not a valid checkwall config:\n${problems.map((p) => `  ${p}`).join('\n')}`,
    );
  return parsed.data;
}

function crossReferences(config: ServiceConfig): string[] {
  const problems: string[] = [];
  const ids = new Set<string>();
  // A key opens one account as one key (one name, one role): the same key twice, written
  // plainly or as its SHA-256, is refused. The error names where, never the key.
  const keys = new Map<string, string>();
  config.accounts.forEach((account, a) =>
    account.apiKeys.forEach((key, k) => {
      const digest = apiKeyDigest(key).toString('hex');
      const at = `accounts.${a}.apiKeys.${k} (account ${account.id})`;
      const before = keys.get(digest);
      if (before !== undefined)
        problems.push(`${at}: the same key as ${before}; a key belongs to one account, once`);
      else keys.set(digest, at);
    }),
  );
  // A status page is found by its slug or its domain, across all accounts: each names one dashboard.
  const urls = new Map<string, string>();
  const domains = new Map<string, string>();
  config.accounts.forEach((account, a) =>
    account.dashboards.forEach((d, i) => {
      const at = `accounts.${a}.dashboards.${i}`;
      const url = urls.get(d.customUrl);
      if (url) problems.push(`${at}.customUrl: "${d.customUrl}" is already the customUrl of ${url}`);
      else urls.set(d.customUrl, at);
      if (d.customDomain === null) return;
      const host = hostName(d.customDomain);
      const domain = domains.get(host);
      if (domain) problems.push(`${at}.customDomain: "${host}" is already the customDomain of ${domain}`);
      else domains.set(host, at);
    }),
  );
  config.accounts.forEach((account, a) => {
    // X-Service-Account is compared in any case: two ids differing only in case would be one.
    if (ids.has(account.id.toLowerCase())) problems.push(`accounts.${a}.id: "${account.id}" is used twice`);
    ids.add(account.id.toLowerCase());
    const locations = new Set(account.locations.map((l) => l.id));
    const groups = new Set(account.groups.map((g) => g.id));
    const checks = new Set<string>();
    account.checks.forEach((check, c) => {
      const at = `accounts.${a}.checks.${c}`;
      if (checks.has(check.id)) problems.push(`${at}.id: "${check.id}" is used twice`);
      checks.add(check.id);
      check.locations.forEach(
        (l, i) => locations.has(l) || problems.push(`${at}.locations.${i}: no location "${l}"`),
      );
      if (check.group && !groups.has(check.group)) problems.push(`${at}.group: no group "${check.group}"`);
      if (check.type === 'heartbeat' && !check.token)
        problems.push(`${at}.token: a heartbeat check needs a token`);
      if ((check.type === 'api' || check.type === 'url') && !/^https?:\/\//.test(check.target)) {
        problems.push(`${at}.target: must be an http:// or https:// URL`);
      }
      if (check.type === 'tcp' && !/:\d+$/.test(check.target))
        problems.push(`${at}.target: must be host:port`);
    });
    account.dashboards.forEach((d, i) => {
      const at = `accounts.${a}.dashboards.${i}`;
      d.checkIds.forEach((id, j) => checks.has(id) || problems.push(`${at}.checkIds.${j}: no check "${id}"`));
      d.checkGroupIds.forEach(
        (id, j) => groups.has(id) || problems.push(`${at}.checkGroupIds.${j}: no group "${id}"`),
      );
    });
  });
  return problems;
}

/** Heartbeat tokens shorter than this are accepted (8 is the least) but warned of at load. */
export const HEARTBEAT_TOKEN_ADVISED_LENGTH = 16;

/**
 * A public dashboard without a custom domain, and no publicUrl: its feed's links are
 * relative, never built from a request's Host (status-page/links.ts), so say so once.
 */
export function publicUrlWarning(config: ServiceConfig): string[] {
  if (config.publicUrl) return [];
  const bare = config.accounts.flatMap((a) => a.dashboards.filter((d) => !d.isPrivate && !d.customDomain));
  if (bare.length === 0) return [];
  return [
    `publicUrl: not set, so the status page feeds of ${bare.length} public dashboard(s) ` +
      `(e.g. "${bare[0]!.customUrl}") have relative links; set publicUrl to where this service is reached`,
  ];
}

/**
 * What a config allows but should not, one line each: a heartbeat check whose token is
 * short enough to guess (its ping URL is open to anyone who knows it; never the token),
 * and an api/url check that asserts a 3xx status while redirects are followed by default
 * (its assertion sees the final answer; it likely meant the redirect itself).
 */
export function configWarnings(config: ServiceConfig): string[] {
  return config.accounts.flatMap((account, a) =>
    account.checks.flatMap((check, c) => {
      const at = `accounts.${a}.checks.${c}`;
      const lines: string[] = [];
      if (
        check.type === 'heartbeat' &&
        check.token !== undefined &&
        check.token.length < HEARTBEAT_TOKEN_ADVISED_LENGTH
      )
        lines.push(
          `${at}.token: the heartbeat token of check "${check.id}" is ${check.token.length} characters; ` +
            `use ${HEARTBEAT_TOKEN_ADVISED_LENGTH} or more, a short one can be guessed`,
        );
      if ((check.type === 'api' || check.type === 'url') && check.followRedirects === undefined)
        check.assertions.forEach((assertion, i) => {
          if (assertion.source === 'STATUS_CODE' && /^3\d\d$/.test(assertion.target.trim()))
            lines.push(
              `${at}.assertions.${i}: check "${check.id}" asserts status ${assertion.target.trim()}, but redirects ` +
                `are followed and the final answer is asserted; set followRedirects: false to assert the redirect itself`,
            );
        });
      return lines;
    }),
  );
}

/**
 * CHECKWALL_ACCOUNT_ID and CHECKWALL_API_KEY name the account the service
 * accepts: they replace the first account's id and keys (or make one).
 */
export function applyEnvAccount(config: ServiceConfig, env: NodeJS.ProcessEnv): ServiceConfig {
  const id = env['CHECKWALL_ACCOUNT_ID'];
  const key = env['CHECKWALL_API_KEY'];
  if (!id || !key) return config;
  const [first, ...rest] = config.accounts;
  const base = first ?? ServiceConfigSchema.shape.accounts.unwrap().element.parse({ id, apiKeys: [key] });
  return validateConfig(
    { ...config, accounts: [{ ...base, id, apiKeys: [key] }, ...rest] },
    'the environment (CHECKWALL_ACCOUNT_ID / CHECKWALL_API_KEY)',
  );
}

/** The environment variable of a location's runner token: CHECKWALL_RUNNER_TOKEN_EU_WEST for "eu-west". */
export const runnerTokenVariable = (locationId: string) =>
  `CHECKWALL_RUNNER_TOKEN_${locationId.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;

/**
 * Gives each remote location its runner token from the environment (which
 * replaces the file's), then checks them: every remote location has one, no two
 * locations share one, none is an API key (of any account), and a local location has none.
 * Errors name the path; a token itself is never echoed.
 */
export function applyEnvRunnerTokens(config: ServiceConfig, env: NodeJS.ProcessEnv): ServiceConfig {
  const problems: string[] = [];
  const seen = new Map<string, string>();
  // Any account's key, plain or by digest: a runner token that is an API key would open both doors.
  const keys = new Set(
    config.accounts.flatMap((account) => account.apiKeys.map((k) => apiKeyDigest(k).toString('hex'))),
  );
  const accounts = config.accounts.map((account, a) => {
    const locations = account.locations.map((location, l) => {
      const at = `accounts.${a}.locations.${l}.runnerToken`;
      const variable = runnerTokenVariable(location.id);
      const token = location.remote ? (env[variable] ?? location.runnerToken) : location.runnerToken;
      if (!location.remote) {
        if (token !== undefined)
          problems.push(`${at}: only a remote location (remote: true) has a runner token`);
        return location;
      }
      if (token === undefined || token === '')
        problems.push(`${at}: a remote location needs a runner token (here, or in ${variable})`);
      else if (token.length < 16) problems.push(`${at}: must be at least 16 characters (${variable})`);
      else if (keys.has(digestOf(token).toString('hex')))
        problems.push(`${at}: must not be an API key (of any account)`);
      else if (seen.has(token)) problems.push(`${at}: the same token as ${seen.get(token)}`);
      else seen.set(token, at);
      return token === undefined ? location : { ...location, runnerToken: token };
    });
    return { ...account, locations };
  });
  if (problems.length > 0)
    throw new ConfigError(`the runner tokens are not valid:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  return { ...config, accounts };
}
