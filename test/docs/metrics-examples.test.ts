// The examples docs/metrics.md points to: the alerting rules pass `promtool check
// rules`, and every query of the Grafana dashboard is valid PromQL (Grafana is not
// here: each panel's expression is wrapped as a recording rule and put through
// promtool), naming only families the service serves.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasPromtool, PROMTOOL, promtool } from '../helpers/prometheus.js';

const RULES = 'docs/prometheus-rules.yml';
const DASHBOARD = 'docs/grafana-dashboard.json';

interface Panel {
  title: string;
  targets?: Array<{ expr: string }>;
}

/** What Grafana puts in for its own variables before it sends a query (`$account` sits in a quoted matcher). */
const grafanaVariables = (expr: string) => expr.replace(/\$__(rate_interval|interval|range)/g, '5m');

describe.skipIf(!hasPromtool)(`the example Prometheus files (needs ${PROMTOOL})`, () => {
  it('the alerting rules pass promtool check rules', () => {
    const { code, output } = promtool(['check', 'rules', RULES]);
    expect(output).toContain('SUCCESS');
    expect(code).toBe(0);
  });

  it('every panel query of the Grafana dashboard is valid PromQL over families the service serves', () => {
    const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as { panels: Panel[] };
    const exprs = dashboard.panels.flatMap((p) =>
      (p.targets ?? []).map((t) => ({ panel: p.title, expr: t.expr })),
    );
    expect(exprs.length).toBeGreaterThanOrEqual(dashboard.panels.length);
    for (const { expr } of exprs) expect(expr).toMatch(/checkwall_|process_/);
    const dir = mkdtempSync(join(tmpdir(), 'checkwall-dashboard-'));
    try {
      const file = join(dir, 'dashboard-rules.yml');
      // JSON is YAML: each query becomes a recording rule promtool parses and checks.
      const rules = exprs.map((e, i) => ({ record: `dashboard:panel_${i}`, expr: grafanaVariables(e.expr) }));
      writeFileSync(file, JSON.stringify({ groups: [{ name: 'grafana-dashboard', rules }] }));
      const { code, output } = promtool(['check', 'rules', file]);
      expect(output).toContain(`SUCCESS: ${exprs.length} rules found`);
      expect(code).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
