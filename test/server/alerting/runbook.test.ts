// A check's runbook and links (docs/alerts.md, "Runbook and links"): config keys on
// checks and groups, a check taking its group's when it has none, and shown on the
// alert payload, the status and the results.
import { describe, expect, it } from 'vitest';
import { CheckResultListSchema } from '../../../src/api/schemas/index.js';
import { runbookOf } from '../../../src/server/config/runbook-keys.js';
import { ServiceConfigSchema } from '../../../src/server/config/schema.js';
import {
  alertConfig,
  AUTH,
  closedAfterEach,
  hookChannel,
  runner,
  startAlertService,
  startReceivers,
  statusOf,
} from '../../helpers/alerting.js';
import { testConfig } from '../../helpers/service.js';

const held = closedAfterEach();

const GROUP_BOOK = 'https://wiki.example.test/edge';
// testConfig puts c1 in the group edge, c2 in core.
const GROUP_LINKS = [{ name: 'Grafana', url: 'https://grafana.example.test/d/edge' }];

/** testConfig with these keys on its first group (core) and on check c2. */
function withKeys(group: Record<string, unknown>, check: Record<string, unknown>) {
  const base = testConfig(3) as unknown as { accounts: Array<Record<string, unknown>> };
  const account = base.accounts[0]!;
  const groups = account['groups'] as Array<Record<string, unknown>>;
  const checks = account['checks'] as Array<Record<string, unknown>>;
  return ServiceConfigSchema.safeParse({
    ...base,
    accounts: [
      {
        ...account,
        groups: [{ ...groups[0], ...group }, ...groups.slice(1)],
        checks: checks.map((c) => (c['id'] === 'c2' ? { ...c, ...check } : c)),
      },
      ...base.accounts.slice(1),
    ],
  });
}

const pathsOf = (r: ReturnType<typeof withKeys>) =>
  r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);

describe('runbook and links in the config', () => {
  it('take an http(s) runbook of at most 2,000 characters and at most 10 links', () => {
    expect(
      withKeys({ runbook: GROUP_BOOK, links: GROUP_LINKS }, { runbook: 'http://x.test/a' }).success,
    ).toBe(true);
    expect(pathsOf(withKeys({ runbook: 'ftp://wiki/x' }, {}))).toEqual([
      'accounts.0.groups.0.runbook: must be an http:// or https:// address',
    ]);
    const long = `https://wiki.example.test/${'a'.repeat(2000)}`;
    expect(pathsOf(withKeys({}, { runbook: long }))).toEqual([
      'accounts.0.checks.1.runbook: must be at most 2000 characters',
    ]);
    const eleven = Array.from({ length: 11 }, (_, i) => ({ name: `l${i}`, url: 'https://x.test/' }));
    expect(pathsOf(withKeys({}, { links: eleven }))).toEqual([
      'accounts.0.checks.1.links: must have at most 10 links',
    ]);
    expect(pathsOf(withKeys({}, { links: [{ name: 'n'.repeat(81), url: 'https://x.test/' }] }))).toHaveLength(
      1,
    );
    expect(pathsOf(withKeys({}, { links: [{ name: 'n', url: 'javascript:alert(1)' }] }))).toEqual([
      'accounts.0.checks.1.links.0.url: must be an http:// or https:// address',
    ]);
    expect(pathsOf(withKeys({}, { links: [{ name: 'n', url: 'https://x.test/', extra: 1 }] }))).toHaveLength(
      1,
    );
  });

  it("give a check its group's runbook and links where it has none of its own", () => {
    const groups = [{ id: 'g', runbook: GROUP_BOOK, links: GROUP_LINKS }];
    expect(runbookOf({ group: 'g' }, groups)).toEqual({ runbook: GROUP_BOOK, links: GROUP_LINKS });
    expect(runbookOf({ group: 'g', runbook: 'https://own.test/', links: [] }, groups)).toEqual({
      runbook: 'https://own.test/',
      links: [],
    });
    expect(runbookOf({}, groups)).toEqual({ runbook: null, links: [] });
  });
});

describe('runbook and links on the wire', () => {
  it('ride on the alert payload, the status and the results; none is null and []', async () => {
    const r = (held.receivers = await startReceivers());
    const config = alertConfig(r, { channels: [hookChannel(r, { checks: ['c1', 'c2'] })] });
    const account = config.accounts[0]!;
    Object.assign(
      account.groups.find((g) => g.id === 'edge')!,
      { runbook: GROUP_BOOK, links: GROUP_LINKS },
    );
    const s = (held.svc = await startAlertService(config));
    const run = runner(s);
    await run('c1', ['failed', 'failed']);
    await run('c2', ['failed', 'failed']);
    await expect.poll(() => r.hook.seen.length).toBe(2);
    const bodies = r.hook.seen.map((x) => JSON.parse(x.body) as Record<string, unknown>);
    const byCheck = (id: string) => bodies.find((b) => (b['check'] as { id: string }).id === id)!;
    expect(byCheck('c1')).toMatchObject({ runbook: GROUP_BOOK, links: GROUP_LINKS });
    expect(byCheck('c2')).toMatchObject({ runbook: null, links: [] });
    expect(await statusOf(s, 'c1')).toMatchObject({ runbook: GROUP_BOOK, links: GROUP_LINKS });
    expect((await statusOf(s, 'c2')).runbook).toBeUndefined();
    const res = await fetch(`${s.url}/v1/check-results/c1?period=24h&limit=1`, { headers: AUTH });
    const [result] = CheckResultListSchema.parse(await res.json()).data;
    expect(result).toMatchObject({ runbook: GROUP_BOOK, links: GROUP_LINKS });
  });
});
