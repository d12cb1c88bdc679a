// The /metrics side port answers every account's series with no key, so a DNS
// rebinding page on the operator's workstation must not reach it: it applies
// http.allowedHosts, and without it answers localhost and IP literals only
// (docs/metrics.md), logging each refused Host once.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpConfigSchema, ServiceConfigSchema } from '../../../src/server/config/schema.js';
import { startTestService, testConfig, type TestService } from '../../helpers/service.js';

let svc: TestService;
const lines: string[] = [];
const config = (allowedHosts?: string[]) =>
  ServiceConfigSchema.parse({
    ...testConfig(2),
    metrics: { port: 0, host: '127.0.0.1' },
    http: HttpConfigSchema.parse(allowedHosts ? { allowedHosts } : {}),
  });

beforeAll(async () => {
  svc = await startTestService({ config: config(), log: (line) => lines.push(line) });
});
afterAll(() => svc.close());

/** The status of GET /metrics on the side port naming `host` (fetch may not set Host). */
function scrapeAs(host: string): Promise<number> {
  const url = new URL(svc.metricsUrl!);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, path: '/metrics', headers: { host } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('the /metrics side port', () => {
  it('answers localhost and IP literals, refuses names, and logs each refused one once, sanitised', async () => {
    for (const host of [
      'localhost:9090',
      '127.0.0.1',
      '127.0.0.1:1234',
      '[::1]:9090',
      '10.1.2.3',
      'LOCALHOST',
    ])
      expect([host, await scrapeAs(host)]).toEqual([host, 200]);
    for (const host of ['rebind.attacker.example', 'rebind.attacker.example', 'evil\u009b2J.example:80'])
      expect([host, await scrapeAs(host)]).toEqual([host, 421]);
    const refused = lines.filter((l) => l.includes('metrics port refused'));
    expect(refused).toHaveLength(2);
    expect(refused.join('\n')).not.toContain('\u009b');
  });

  it('applies http.allowedHosts when the config lists them, from a reload on', async () => {
    await svc.reload(config(['prom.internal']));
    expect(await scrapeAs('prom.internal:9090')).toBe(200);
    expect(await scrapeAs('localhost')).toBe(421);
    expect(await scrapeAs('127.0.0.1')).toBe(421);
  });
});
