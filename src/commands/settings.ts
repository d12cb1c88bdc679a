// Connection settings for every command that talks to a service: flags first,
// then the environment, then a profile in the user's config file.
import { readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { isSea } from 'node:sea';
import { z } from 'zod';
import { createClient, type MonitoringClient } from '../api/client.js';
import { describeIssues } from '../api/schemas/index.js';
import { parseProblem } from '../domain/parse-problem.js';
import { USER_SCOPES, type UserCommand } from '../domain/user-commands.js';

export interface ConnectionSettings {
  baseUrl: string;
  apiKey: string;
  accountId: string;
  /** The profile name, or where the settings came from, for the header line. */
  label: string;
}

export interface SettingsFlags {
  'base-url'?: string | undefined;
  'api-key'?: string | undefined;
  account?: string | undefined;
  profile?: string | undefined;
}

const ProfileSchema = z.object({
  baseUrl: z.url().optional(),
  apiKey: z.string().min(1).optional(),
  accountId: z.string().min(1).optional(),
});
/** One of the engineer's own commands (docs/console.md, "Your own commands"). */
const UserCommandSchema = z.object({
  key: z.string().min(1),
  name: z.string().min(1),
  scope: z.enum(USER_SCOPES),
  run: z.array(z.string()).min(1),
  confirm: z.boolean().optional(),
  needs: z.literal('operate').optional(),
  shell: z.boolean().optional(),
});
export const UserConfigSchema = z.object({
  defaultProfile: z.string().optional(),
  profiles: z.record(z.string(), ProfileSchema).default({}),
  commands: z.array(UserCommandSchema).default([]),
});
export type UserConfig = z.infer<typeof UserConfigSchema>;

export function userConfigPath(env: NodeJS.ProcessEnv = process.env): string {
  const base = env['XDG_CONFIG_HOME'] || join(homedir(), '.config');
  return join(base, 'checkwall', 'config.json');
}

export class SettingsError extends Error {
  override readonly name = 'SettingsError';
}

function readUserConfig(path: string, warn = true): UserConfig | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined; // no config file is fine: flags and environment may suffice
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new SettingsError(
      `${path} is not valid JSON: ${parseProblem((error as Error).message, text, true)}`,
    );
  }
  const parsed = UserConfigSchema.safeParse(json);
  if (!parsed.success) {
    throw new SettingsError(`${path}: ${describeIssues(parsed.error, { limit: 1, root: '', dotted: true })}`);
  }
  if (warn) warnIfReadable(path, parsed.data);
  return parsed.data;
}

/** As ssh says of a key file: a profile file with an API key that others can read gets one warning. */
function warnIfReadable(path: string, config: UserConfig): void {
  const holdsKey = Object.values(config.profiles).some((p) => p.apiKey !== undefined);
  if (holdsKey && (statSync(path).mode & 0o044) !== 0)
    process.stderr.write(
      `checkwall: warning: ${path} holds an API key and is readable by other users: chmod 600 ${path}\n`,
    );
}

/** Resolves the three settings or throws a SettingsError that says what is missing and how to set it. */
export function resolveSettings(
  flags: SettingsFlags,
  env: NodeJS.ProcessEnv = process.env,
): ConnectionSettings {
  const path = userConfigPath(env);
  const config = readUserConfig(path);
  const profileName = flags.profile ?? config?.defaultProfile;
  const profile = profileName ? config?.profiles[profileName] : undefined;
  if (flags.profile && !profile) {
    throw new SettingsError(`no profile "${flags.profile}" in ${path}`);
  }
  const baseUrl = flags['base-url'] ?? env['CHECKWALL_BASE_URL'] ?? profile?.baseUrl;
  const apiKey = flags['api-key'] ?? env['CHECKWALL_API_KEY'] ?? profile?.apiKey;
  const accountId = flags.account ?? env['CHECKWALL_ACCOUNT_ID'] ?? profile?.accountId;
  const missing = [
    baseUrl ? null : 'the service address (--base-url or CHECKWALL_BASE_URL)',
    apiKey ? null : 'the API key (--api-key or CHECKWALL_API_KEY)',
    accountId ? null : 'the account id (--account or CHECKWALL_ACCOUNT_ID)',
  ].filter((m): m is string => m !== null);
  if (!baseUrl || !apiKey || !accountId) {
    throw new SettingsError(
      `missing ${missing.join(', ')}.\n` +
        `Set them with flags, environment variables, or a profile in ${path}, e.g.\n` +
        `  {"defaultProfile":"prod","profiles":{"prod":{"baseUrl":"https://…","apiKey":"…","accountId":"…"}}}` +
        // The single executable has no embedded service (src/cli.ts): no demo to suggest.
        (isSea() ? '' : `\nOr try the embedded service: checkwall demo`),
    );
  }
  if (!/^https?:\/\//.test(baseUrl)) {
    throw new SettingsError(`the service address must start with http:// or https:// (got "${baseUrl}")`);
  }
  return { baseUrl, apiKey, accountId, label: profileName ?? shortAccount(accountId) };
}

/** The config file's `commands`; a SettingsError when the file is not valid. */
export function readUserCommands(env: NodeJS.ProcessEnv = process.env): UserCommand[] {
  return readUserConfig(userConfigPath(env), false)?.commands ?? [];
}

function shortAccount(accountId: string): string {
  return `account ${accountId.slice(0, 8)}`;
}

/** The flags every connecting command takes, for node:util parseArgs. */
export const CONNECTION_OPTIONS = {
  'base-url': { type: 'string' },
  'api-key': { type: 'string' },
  account: { type: 'string' },
  profile: { type: 'string' },
} as const;

export const CONNECTION_HELP = `Connection (flags, then CHECKWALL_BASE_URL / CHECKWALL_API_KEY / CHECKWALL_ACCOUNT_ID,
then a profile in $XDG_CONFIG_HOME/checkwall/config.json):
  --base-url URL       the service, e.g. http://127.0.0.1:8787
  --api-key KEY        API key (sent as Authorization: Bearer; never printed)
  --account UUID       account id (sent as X-Service-Account)
  --profile NAME       a profile of the config file`;

/**
 * The one path from settings to a client, for every command that reads an
 * account: the client and the header's label, or null once the reason was
 * written to stderr as `who: reason` (the command then exits 2).
 */
export function clientFromSettings(
  flags: SettingsFlags,
  who: string,
  env: NodeJS.ProcessEnv = process.env,
): { client: MonitoringClient; label: string } | null {
  let settings: ConnectionSettings;
  try {
    settings = resolveSettings(flags, env);
  } catch (error) {
    if (!(error instanceof SettingsError)) throw error;
    process.stderr.write(`${who}: ${error.message}\n`);
    return null;
  }
  const { baseUrl, apiKey, accountId, label } = settings;
  return { client: createClient({ baseUrl, apiKey, accountId }), label };
}

/**
 * The client of a script command (`checkwall run`, `checkwall maintenance`) from its
 * flags and the environment; null after saying on stderr what is wrong with them.
 */
export function scriptClient(
  who: string,
  flags: SettingsFlags,
  env: NodeJS.ProcessEnv,
  stderr: (text: string) => void,
): MonitoringClient | null {
  try {
    const { baseUrl, apiKey, accountId } = resolveSettings(flags, env);
    return createClient({ baseUrl, apiKey, accountId });
  } catch (error) {
    if (!(error instanceof SettingsError)) throw error;
    stderr(`${who}: ${error.message}\n`);
    return null;
  }
}
