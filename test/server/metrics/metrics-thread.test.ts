// The per-check text of /metrics written on the metrics thread (metrics-thread.ts)
// is the text the same renderer writes in process; a family that did not move keeps
// its compressed piece; a thread that fails to start is logged and the text is written in
// process, with no scrape lost.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { constants, inflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { VALUES_PER_CHECK, VALUE, type CheckRows } from '../../../src/server/metrics/check-rows.js';
import { createMetricsThread } from '../../../src/server/metrics/metrics-thread.js';
import { metricsWorkerEntry } from '../../helpers/run-worker.js';

function rows(runs: number): CheckRows {
  const values = new Float64Array(2 * VALUES_PER_CHECK).fill(NaN);
  const set = (check: number, at: number, value: number) => (values[check * VALUES_PER_CHECK + at] = value);
  // c1 passing (index 0), 99.5 % over 24 h, `runs` successes; c2 failing, never a run timed.
  set(0, VALUE.status, 0);
  set(0, VALUE.availability, 0.995);
  set(0, VALUE.avg, 0.12);
  set(0, VALUE.p95, 0.3);
  set(0, VALUE.succeeded, runs);
  set(0, VALUE.failed, 0);
  set(0, VALUE.maintenance, 0);
  set(1, VALUE.status, 1);
  set(1, VALUE.succeeded, 0);
  set(1, VALUE.failed, 3);
  set(1, VALUE.certificateExpiry, 1_800_000_000);
  set(1, VALUE.maintenance, 1);
  return {
    labels: ['acct', 'c1', 'Home "page"', 'api', 'edge', 'acct', 'c2', 'Login\\n', 'browser', ''],
    values,
    locations: [{ account: 'acct', location: 'far', runners: 2, seen: 1_700_000_000 }],
  };
}

const inflate = (deflate: Buffer) =>
  inflateRawSync(deflate, { finishFlush: constants.Z_SYNC_FLUSH }).toString('utf8');
const nowhere = new URL('file:///nonexistent/metrics-worker.js');

describe('the metrics thread', () => {
  it('writes on its thread the text the renderer writes in process', async () => {
    const thread = createMetricsThread(await metricsWorkerEntry());
    const here = createMetricsThread(nowhere);
    try {
      const [away, local] = await Promise.all([thread.render('acct', rows(5)), here.render('acct', rows(5))]);
      const text = inflate(away.deflate);
      expect(text).toBe(inflate(local.deflate));
      expect(text).toContain(
        'checkwall_check_up{account="acct",check_id="c1",check_name="Home \\"page\\"",check_type="api",group="edge"} 1',
      );
      expect(text).toContain('checkwall_check_status{account="acct",check_id="c2",check_name="Login\\\\n"');
      expect(text).toContain('status="failing"} 1');
      expect(text).toContain('checkwall_check_runs_total{account="acct",check_id="c1"');
      expect(text).toMatch(
        /checkwall_check_certificate_expiry_timestamp_seconds\{[^}]*check_id="c2"[^}]*\} 1800000000/,
      );
      expect(text).not.toMatch(/checkwall_check_availability_ratio\{[^}]*check_id="c2"/);
      expect(text).toContain('checkwall_location_runners{account="acct",location="far"} 2');
      expect(text.endsWith('\n')).toBe(true);
      expect(text).not.toContain('\n\n\n');
    } finally {
      await thread.close();
      await here.close();
    }
  });

  it('keeps the compressed piece of a family that did not move, and writes the one that did', async () => {
    const thread = createMetricsThread(await metricsWorkerEntry());
    try {
      const first = (await thread.render('acct', rows(5))).deflate;
      const second = (await thread.render('acct', rows(6))).deflate;
      expect(inflate(second)).toContain('result="success"} 6');
      // The pieces of the families before checkwall_check_runs_total (nothing moved there) are the same
      // bytes: what the two have in common inflates to those four families, and no further.
      let common = 0;
      while (common < first.length && first[common] === second[common]) common++;
      const kept = inflate(first.subarray(0, common));
      expect(kept).toContain('# TYPE checkwall_check_response_time_seconds gauge');
      expect(kept).toContain('stat="p95"} 0.3');
      expect(kept).not.toContain('checkwall_check_runs_total{');
      expect(second.equals(first)).toBe(false);
    } finally {
      await thread.close();
    }
  });

  it('writes in process, and says so, when its thread fails', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'checkwall-metrics-thread-'));
    const broken = join(dir, 'metrics-worker.mjs');
    writeFileSync(broken, "throw new Error('no renderer here');\n");
    const lines: string[] = [];
    const thread = createMetricsThread(pathToFileURL(broken), (line) => lines.push(line));
    try {
      const rendered = await thread.render('acct', rows(1));
      expect(inflate(rendered.deflate)).toContain('checkwall_check_up{account="acct",check_id="c1"');
      expect(lines.join('\n')).toContain('the metrics thread failed (no renderer here)');
      // And from then on.
      expect(inflate((await thread.render('acct', rows(2))).deflate)).toContain('result="success"} 2');
    } finally {
      await thread.close();
    }
  });
});
