// Secrets at rest: the database (webhook URLs with tokens, signing secrets) is
// made for its owner only, and an existing one others can read gets one warning;
// a service config or console profile holding a key that others can read gets
// one warning naming it, as ssh does; the answer showing a signing secret once
// is never cached.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configFileWarning } from '../../src/server/config/load.js';
import { openSqliteStorage } from '../../src/server/storage/sqlite/index.js';
import {
  alertConfig,
  AUTH,
  closedAfterEach,
  startAlertService,
  startReceivers,
} from '../helpers/alerting.js';
import { runCli } from '../helpers/cli.js';
import { closedPortUrl } from '../helpers/fixture.js';
import { testConfig } from '../helpers/service.js';

const mode = (path: string) => statSync(path).mode & 0o777;
const held = closedAfterEach();

describe('the database at rest', () => {
  it('is created owner-only: directory 0700, database, -wal and -shm 0600', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'checkwall-perm-')), 'data');
    const path = join(dir, 'checkwall.db');
    const warnings: string[] = [];
    const storage = openSqliteStorage(path, { warn: (line) => warnings.push(line) });
    try {
      expect(mode(dir)).toBe(0o700);
      for (const file of [path, `${path}-wal`, `${path}-shm`]) {
        expect(existsSync(file)).toBe(true);
        expect(mode(file)).toBe(0o600);
      }
      expect(warnings).toEqual([]);
    } finally {
      await storage.close();
    }
  });

  it('warns once, naming the path, when an existing database is open to others', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'checkwall-perm-')), 'checkwall.db');
    await openSqliteStorage(path).close();
    chmodSync(path, 0o644);
    const warnings: string[] = [];
    const storage = openSqliteStorage(path, { warn: (line) => warnings.push(line) });
    await storage.close();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(`the database ${path} is readable by other users`);
    expect(mode(path)).toBe(0o644); // said, not changed: the operator decides
    chmodSync(path, 0o600);
    const quiet: string[] = [];
    await openSqliteStorage(path, { warn: (line) => quiet.push(line) }).close();
    expect(quiet).toEqual([]);
  });
});

describe('files that hold a key', () => {
  it('a service config readable by others gets one warning naming it', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'checkwall-cfg-')), 'checkwall.json');
    writeFileSync(path, '{}');
    chmodSync(path, 0o644);
    expect(configFileWarning(path, testConfig())).toBe(
      `warning: ${path} holds API keys and is readable by other users: chmod 600 ${path}`,
    );
    chmodSync(path, 0o600);
    expect(configFileWarning(path, testConfig())).toBeNull();
  });

  it('a console profile readable by others gets one warning naming it', async () => {
    const home = mkdtempSync(join(tmpdir(), 'checkwall-profile-'));
    mkdirSync(join(home, 'checkwall'));
    const path = join(home, 'checkwall', 'config.json');
    const profile = {
      baseUrl: await closedPortUrl(),
      apiKey: 'cw_profile_0123456789abcdef',
      accountId: 'acc',
    };
    writeFileSync(path, JSON.stringify({ defaultProfile: 'p', profiles: { p: profile } }));
    chmodSync(path, 0o644);
    const open = await runCli(['status'], { XDG_CONFIG_HOME: home });
    const said = open.stderr.split('\n').filter((l) => l.includes('readable by other users'));
    expect(said).toEqual([
      `checkwall: warning: ${path} holds an API key and is readable by other users: chmod 600 ${path}`,
    ]);
    chmodSync(path, 0o600);
    expect((await runCli(['status'], { XDG_CONFIG_HOME: home })).stderr).not.toContain(
      'readable by other users',
    );
  });
});

describe('the signing secret shown once', () => {
  it('comes with Cache-Control: no-store', async () => {
    const r = (held.receivers = await startReceivers());
    const svc = (held.svc = await startAlertService(alertConfig(r, { channels: [] })));
    const res = await fetch(`${svc.url}/v1/alert-channels`, {
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body: JSON.stringify({
        type: 'WEBHOOK',
        name: 'hook',
        config: { url: `${r.hook.url}/x`, method: 'POST' },
      }),
    });
    expect(res.status).toBe(201);
    expect(((await res.json()) as { signingSecret: string }).signingSecret).toMatch(/^whsec_/);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });
});
