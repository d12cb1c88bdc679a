import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readUserCommands, resolveSettings, SettingsError } from '../../src/commands/settings.js';

function configHome(config: unknown): string {
  const home = mkdtempSync(join(tmpdir(), 'checkwall-cfg-'));
  mkdirSync(join(home, 'checkwall'));
  writeFileSync(join(home, 'checkwall', 'config.json'), JSON.stringify(config));
  return home;
}

const profiles = {
  defaultProfile: 'prod',
  profiles: {
    prod: { baseUrl: 'https://prod.example.com', apiKey: 'prod-key', accountId: 'prod-account' },
    staging: { baseUrl: 'https://staging.example.com', apiKey: 'staging-key', accountId: 'staging-account' },
  },
};

describe('connection settings', () => {
  it('takes flags over the environment over the profile', () => {
    const env = { XDG_CONFIG_HOME: configHome(profiles), CHECKWALL_API_KEY: 'env-key' };
    const s = resolveSettings({ account: 'flag-account' }, env);
    expect(s).toEqual({
      baseUrl: 'https://prod.example.com',
      apiKey: 'env-key',
      accountId: 'flag-account',
      label: 'prod',
    });
  });

  it('chooses a profile by name', () => {
    const s = resolveSettings({ profile: 'staging' }, { XDG_CONFIG_HOME: configHome(profiles) });
    expect(s.baseUrl).toBe('https://staging.example.com');
    expect(s.label).toBe('staging');
  });

  it('says what is missing and how to set it, without printing a key', () => {
    const attempt = () =>
      resolveSettings({ 'api-key': 'secret-key-123' }, { XDG_CONFIG_HOME: '/nonexistent' });
    expect(attempt).toThrow(SettingsError);
    expect(attempt).toThrow(/CHECKWALL_BASE_URL/);
    expect(attempt).toThrow(/CHECKWALL_ACCOUNT_ID/);
    try {
      attempt();
    } catch (error) {
      expect((error as Error).message).not.toContain('secret-key-123');
    }
  });

  it('names an unknown profile and a broken config file', () => {
    expect(() => resolveSettings({ profile: 'nope' }, { XDG_CONFIG_HOME: configHome(profiles) })).toThrow(
      /no profile "nope"/,
    );
    expect(() =>
      resolveSettings({}, { XDG_CONFIG_HOME: configHome({ profiles: { x: { baseUrl: 'not a url' } } }) }),
    ).toThrow(/profiles\.x\.baseUrl/);
  });

  it('names where a config file that is not JSON breaks, never quoting the key on that line', () => {
    const home = configHome({});
    writeFileSync(join(home, 'checkwall', 'config.json'), '{"profiles":{"p":{"apiKey":cw_live_0123456789}}}');
    expect(() => resolveSettings({}, { XDG_CONFIG_HOME: home })).toThrow(SettingsError);
    try {
      resolveSettings({}, { XDG_CONFIG_HOME: home });
    } catch (error) {
      expect((error as Error).message).toMatch(/config\.json is not valid JSON: Unexpected token 'c'$/);
      expect((error as Error).message).not.toContain('cw_live');
    }
  });
});

describe('the config file’s own commands', () => {
  it('reads them, and names the field of a bad one', () => {
    const good = { key: 'V', name: 'logs', scope: 'check', run: ['lnav', '{check.id}'] };
    expect(readUserCommands({ XDG_CONFIG_HOME: configHome({ ...profiles, commands: [good] }) })).toEqual([
      good,
    ]);
    expect(readUserCommands({ XDG_CONFIG_HOME: configHome(profiles) })).toEqual([]);
    const bad = configHome({ commands: [good, { ...good, scope: 'wall' }] });
    expect(() => readUserCommands({ XDG_CONFIG_HOME: bad })).toThrow(SettingsError);
    expect(() => readUserCommands({ XDG_CONFIG_HOME: bad })).toThrow(/commands\.1\.scope/);
  });
});
