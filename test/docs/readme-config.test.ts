// The README's one complete config example is what a new user copies first: it must load
// as it stands (with the runner token its remote location names), and say nothing the
// service would warn about.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { applyEnvRunnerTokens, configWarnings, validateConfig } from '../../src/server/config/load.js';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const example = /```yaml\n([\s\S]*?)```/.exec(readme)?.[1];

describe("the README's config example", () => {
  it('loads, with every key it shows, and draws no warning', () => {
    expect(example, 'a ```yaml block in README.md').toBeTruthy();
    const config = applyEnvRunnerTokens(validateConfig(parse(example!), 'README.md'), {
      CHECKWALL_RUNNER_TOKEN_DC_OSLO: 'a-runner-token-of-oslo-0123',
    });
    expect(configWarnings(config)).toEqual([]);
    expect(config.http.rateLimit).toEqual({
      failedAuthPerMinute: 60,
      publicReadsPerSecond: 20,
      holdRefusedSeconds: 10,
    });
    expect(config.accounts[0]!.checks.map((c) => c.id)).toEqual(['api-health', 'db', 'backup', 'checkout']);
  });
});
