// The HTTP probe's keys in the config file (docs/service.md, "The probe's rules"): a
// check's tls.ca is read at load, relative to the file, and refused with its key and file
// named when it cannot be; a 3xx status asserted while redirects are followed is warned of.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configWarnings, loadConfigFile } from '../../../src/server/config/load.js';
import { makeChain } from '../../helpers/certificates.js';
import { TEST_ACCOUNT, TEST_KEY } from '../../helpers/configs.js';

/** A config file in a folder of its own, with one api check given these keys. */
function configFile(check: Record<string, unknown>, files: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'checkwall-probe-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const path = join(dir, 'checkwall.json');
  writeFileSync(
    path,
    JSON.stringify({
      accounts: [
        {
          id: TEST_ACCOUNT,
          apiKeys: [TEST_KEY],
          locations: [{ id: 'here', name: 'Here', region: 'r1' }],
          checks: [
            { id: 'c1', name: 'C1', type: 'api', target: 'https://10.0.0.5/', locations: ['here'], ...check },
          ],
        },
      ],
    }),
  );
  return path;
}

const checkOf = (path: string) => loadConfigFile(path).accounts[0]!.checks[0]!;

describe("a check's probe keys", () => {
  it('default to following up to 10 redirects, no private ones, encodings asked, the system roots', () => {
    const check = checkOf(configFile({}));
    expect(check).toMatchObject({ maxRedirects: 10, allowPrivateRedirects: false, acceptEncoding: true });
    expect(check.followRedirects).toBeUndefined();
    expect(check.tls).toBeUndefined();
  });

  it('read tls.ca from a file beside the config, or take the PEM as written', async () => {
    const { root } = await makeChain({ leafDays: 30, intermediateDays: 60, name: 'Private' });
    const fromFile = checkOf(configFile({ tls: { ca: 'ca.pem' } }, { 'ca.pem': root.pem }));
    expect(fromFile.tls?.ca).toBe(root.pem);
    expect(checkOf(configFile({ tls: { ca: root.pem } })).tls?.ca).toBe(root.pem);
  });

  it('refuse a tls.ca that cannot be read or is not a certificate, naming the key and the file', () => {
    const missing = configFile({ tls: { ca: 'nowhere.pem' } });
    expect(() => loadConfigFile(missing)).toThrow(
      /accounts\.0\.checks\.0\.tls\.ca: cannot read .*nowhere\.pem: ENOENT/,
    );
    const notPem = configFile({ tls: { ca: 'ca.pem' } }, { 'ca.pem': 'hello' });
    expect(() => loadConfigFile(notPem)).toThrow(
      /accounts\.0\.checks\.0\.tls\.ca: .*ca\.pem is not a PEM certificate: no "-----BEGIN CERTIFICATE-----" in it/,
    );
    const broken = configFile(
      { tls: { ca: 'ca.pem' } },
      { 'ca.pem': '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n' },
    );
    expect(() => loadConfigFile(broken)).toThrow(/ca\.pem is not a PEM certificate/);
  });

  it('warn of a 3xx status asserted while redirects are followed, unless followRedirects is set', () => {
    const assertions = [{ source: 'STATUS_CODE', comparison: 'EQUALS', target: '301' }];
    expect(configWarnings(loadConfigFile(configFile({ assertions })))).toEqual([
      'accounts.0.checks.0.assertions.0: check "c1" asserts status 301, but redirects are followed and the final ' +
        'answer is asserted; set followRedirects: false to assert the redirect itself',
    ]);
    expect(configWarnings(loadConfigFile(configFile({ assertions, followRedirects: false })))).toEqual([]);
    expect(configWarnings(loadConfigFile(configFile({ assertions, followRedirects: true })))).toEqual([]);
    const ok = [{ source: 'STATUS_CODE', comparison: 'EQUALS', target: '200' }];
    expect(configWarnings(loadConfigFile(configFile({ assertions: ok })))).toEqual([]);
  });
});
