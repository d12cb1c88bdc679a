// What the service keeps of a result a remote runner posts (http/runner-routes.ts): a
// runner is another machine, so the fields that are the service's come from the service.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { claimJobs, remoteConfig, RUNNER_TOKEN } from '../../helpers/runner.js';
import { sampleResult } from '../../helpers/samples.js';
import { startTestService, TEST_ACCOUNT, TEST_KEY, type TestService } from '../../helpers/service.js';

let service: TestService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

describe("a remote runner's result", () => {
  it('cannot give its check a runbook, links, a screenshot it did not send or a field of its own', async () => {
    service = await startTestService({
      config: remoteConfig('http://127.0.0.1:9', [{ id: 'c1', frequency: '1h' }]),
    });
    const s = service;
    const now = Date.now();
    await s.storage.offerRun({ accountId: TEST_ACCOUNT, checkId: 'c1', locationId: 'far', dueAt: now }, now);
    const [job] = await claimJobs(s.url, { runnerId: 'r', waitSeconds: 0 });
    const at = new Date().toISOString();
    const result = {
      ...sampleResult(job!.runId, { location: { id: 'far', name: 'Far Away', region: 'elsewhere' } }),
      startedAt: at,
      finishedAt: at,
      duration: 0,
      runbook: 'https://runbook.evil.example/sign-in',
      links: [{ name: 'Dashboard', url: 'https://evil.example/' }],
      hasScreenshot: true,
      ownedByTheService: 'a field no result has',
    };
    const posted = await fetch(`${s.url}/v1/runner/results`, {
      method: 'POST',
      headers: { authorization: `Bearer ${RUNNER_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ results: [{ runId: job!.runId, claimToken: job!.claimToken, result }] }),
    });
    expect(posted.status).toBe(200);
    const list = await fetch(`${s.url}/v1/check-results/c1?period=1h`, {
      headers: { authorization: `Bearer ${TEST_KEY}`, 'x-service-account': TEST_ACCOUNT },
    });
    const { data } = (await list.json()) as { data: Array<Record<string, unknown>> };
    expect(data.map((r) => r['id'])).toEqual([job!.runId]);
    expect(data[0]).not.toHaveProperty('runbook');
    expect(data[0]).not.toHaveProperty('links');
    expect(data[0]!['hasScreenshot']).not.toBe(true);
    expect(data[0]).not.toHaveProperty('ownedByTheService');
  });

  it("names a run it could not store in the service's log without the runner's escape sequences", async () => {
    service = await startTestService({
      config: remoteConfig('http://127.0.0.1:9', [{ id: 'c1', frequency: '1h' }]),
    });
    const s = service;
    s.storage.findRun = () => Promise.reject(new Error('the database is away'));
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const runId = 'run-\u001b]0;owned\u0007\u001b[2J';
      const posted = await fetch(`${s.url}/v1/runner/results`, {
        method: 'POST',
        headers: { authorization: `Bearer ${RUNNER_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ results: [{ runId, claimToken: 'r:x', result: sampleResult('x') }] }),
      });
      expect(posted.status).toBe(200);
      const lines = logged.mock.calls.map((call) => String(call[0]));
      expect(lines.some((l) => l.includes('cannot store the result of run'))).toBe(true);
      expect(lines.join('\n')).not.toContain('\u001b');
      expect(lines.join('\n')).not.toContain('\u0007');
    } finally {
      logged.mockRestore();
    }
  });
});
