// A channel made in the console can page someone (issue 36): a new WEBHOOK's
// signing secret is shown once, whole, and saved on o to a file only its owner
// reads; the new channel is on screen and selected, even below a long list.
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type MonitoringClient } from '../../src/api/client.js';
import { secretFileName } from '../../src/store/channels-slice.js';
import { createConsoleStore, type ConsoleStore } from '../../src/store/create-store.js';
import { createChannelSecretFeed } from '../../src/store/feeds/channel-secret-feed.js';
import { ACCOUNT_FEEDS } from '../../src/store/feeds/index.js';
import { mountConsole, type MountedConsole } from '../helpers/console.js';
import { startTestService, type TestService } from '../helpers/service.js';

let svc: TestService;
let client: MonitoringClient;
let store: ConsoleStore;
let mounted: MountedConsole;
const dir = mkdtempSync(join(tmpdir(), 'checkwall-secrets-'));
// eslint-disable-next-line no-control-regex -- reading the text without colour codes
const plain = () => (mounted.view.lastFrame() ?? '').replace(/\u001b\[[0-9;]*m/g, '');
const top = () => store.getState().stack.at(-1)?.name;
const keys = (...chunks: string[]) => chunks.forEach((c) => mounted.view.stdin.write(c));
const selectedLine = () =>
  plain()
    .split('\n')
    .find((l) => l.startsWith('›'));

beforeAll(async () => {
  svc = await startTestService({ checks: 2 });
  client = createClient({ baseUrl: svc.url, ...svc.credentials });
  // More channels than the table has rows at 80x14 (the plan allows 10): the new one lands below them.
  for (let i = 1; i <= 8; i++)
    await client.createAlertChannel({
      type: 'EMAIL',
      name: `Mail ${i}`,
      config: { address: `m${i}@example.com` },
    });
  store = createConsoleStore({ refreshMs: 60_000, label: 'test', host: 'svc' });
  store.getState().setSize(80, 14);
  const feeds = ACCOUNT_FEEDS.map((f) =>
    f.key === 'channel-secret' ? createChannelSecretFeed(() => [dir]) : f,
  );
  mounted = mountConsole(store, client, feeds);
});
afterAll(async () => {
  await mounted.close();
  await svc.close();
});

describe('a WEBHOOK created in the console', () => {
  it('shows its signing secret once, whole, selected and on screen below a long list', async () => {
    keys(':', 'channels', '\r');
    await expect.poll(plain).toContain('Mail 1');
    keys('n');
    await expect.poll(plain).toContain('Choose a type');
    keys('j', 'j', '\r');
    await expect.poll(plain).toContain('New alert channel: WEBHOOK');
    keys('Pager hook', '\t', '\t', 'https://hooks.example.com/page', '\r');
    await expect.poll(top).toBe('channels');
    await expect.poll(plain).toContain('it will not be shown again');
    const secret = /whsec_[A-Za-z0-9_-]{43}/.exec(plain())?.[0];
    expect(secret).toBeDefined();
    await expect.poll(() => selectedLine() ?? '').toContain('Pager hook');
    expect(plain().split('\n').length).toBeLessThanOrEqual(14);
    expect(plain()).toContain(`o saves it (mode 0600) to ./${secretFileName(9)}`);

    keys('o');
    const path = join(dir, secretFileName(9));
    await expect.poll(plain).toContain(`saved to ${path} (mode 0600)`);
    expect(readFileSync(path, 'utf8')).toBe(`${secret}\n`);
    expect(statSync(path).mode & 0o777).toBe(0o600);

    // Shown once: the service masks it in every later answer, and leaving forgets it.
    const listed = await client.alertChannels({ page: 1, limit: 100 });
    expect(listed.data.find((c) => c.id === 9)?.signingSecret).not.toBe(secret);
    keys('n');
    await expect.poll(top).toBe('channel-form');
    keys('\u001b');
    await expect.poll(top).toBe('channels');
    expect(plain()).not.toContain(secret!);
    expect(store.getState().createdSecret).toBeNull();
  });

  it('reveals a channel at 80 columns whole, wrapped, headers and query parameters on lines of their own', async () => {
    const url = `http://127.0.0.1:35741/hooks/${'x'.repeat(70)}/end`;
    await client.createAlertChannel({
      type: 'WEBHOOK',
      name: 'Long hook',
      config: {
        url,
        method: 'POST',
        headers: [
          { key: 'Authorization', value: 'Bearer s3cr3t' },
          { key: 'X-Team', value: 'ops' },
        ],
        queryParameters: [{ key: 'token', value: 'abc123' }],
      },
    });
    store.getState().setSize(80, 30);
    store.getState().reloadList('channels');
    await expect.poll(plain).toContain('Long hook');
    keys('G');
    await expect.poll(() => selectedLine() ?? '').toContain('Long hook');
    keys('v');
    await expect.poll(plain).toContain('Header  Authorization: Bearer s3cr3t');
    const frame = plain();
    expect(frame.split('\n').every((l) => l.length <= 80)).toBe(true);
    expect(frame).toMatch(/^\s*Header\s+X-Team: ops$/m);
    expect(frame).toMatch(/^\s*Query\s+token=abc123$/m);
    // The URL wraps rather than being cut: joined again, the lines hold it whole.
    expect(frame.replace(/\n/g, '')).toContain(url.slice(0, 60));
    expect(frame.replace(/\n/g, '')).toContain('x'.repeat(20) + '/end');
  });
});
