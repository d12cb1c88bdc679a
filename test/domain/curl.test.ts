import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { curlCommand, headerVariable, shellQuote } from '../../src/domain/curl.js';
import { MASK } from '../../src/domain/mask.js';

/** The words a POSIX shell reads from `command`, as curl would get them, with `env` exported. */
const wordsOf = (command: string, env: Record<string, string> = {}): string[] =>
  execFileSync('sh', ['-c', `printf '%s\\0' ${command.replace(/^curl /, '')}`], {
    encoding: 'utf8',
    env: { PATH: process.env['PATH'], ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
    .split('\0')
    .slice(0, -1);

const request = {
  method: 'post',
  url: "https://api.example.com/v1/items?q=it's&x=$(id)",
  headers: {
    'Content-Type': 'application/json',
    Authorization: 'Bearer abc',
    Cookie: 'sid=1',
    'Proxy-Authorization': 'Basic x',
    'X-Api-Key': 'k1',
    'X-Auth-Token': 't1',
    'X-Client-Secret': 's1',
    'X-Password': 'p1',
    'X-Trace': '`whoami`',
  },
  body: `{"name":"'; rm -rf ~"}\n$HOME`,
};

const SECRETS = {
  Authorization: 'Bearer abc',
  Cookie: 'sid=1',
  'Proxy-Authorization': 'Basic x',
  'X-Api-Key': 'k1',
  'X-Auth-Token': 't1',
  'X-Client-Secret': 's1',
  'X-Password': 'p1',
};

describe('curlCommand', () => {
  it('quotes every word so the shell reads back exactly the request, the hostile body one argument', () => {
    // The credentials the service masked, given back by the engineer as CHECKWALL_HEADER_* variables.
    const env = Object.fromEntries(Object.entries(SECRETS).map(([k, v]) => [headerVariable(k), v]));
    const words = wordsOf(curlCommand({ ...request, headers: { ...request.headers, ...maskedAll() } }), env);
    expect(words.slice(0, 3)).toEqual(['-X', 'POST', request.url]);
    expect(words).toContain('X-Trace: `whoami`');
    for (const [name, value] of Object.entries(SECRETS)) expect(words).toContain(`${name}: ${value}`);
    expect(words.at(-2)).toBe('--data-raw');
    expect(words.at(-1)).toBe(request.body);
  });

  it('never carries a credential header value: each reads its variable, and the shell stops while it is unset', () => {
    const command = curlCommand(request);
    expect(command).not.toMatch(/abc|sid=1|k1|t1|s1|p1/);
    expect(command).toContain(
      `-H 'X-Api-Key: '"\${CHECKWALL_HEADER_X_API_KEY:?masked by the service: export it}"`,
    );
    expect(wordsOf(curlCommand({ ...request, headers: { 'Content-Type': 'text/plain' } }))).toContain(
      'Content-Type: text/plain',
    );
    expect(() => wordsOf(command)).toThrow(
      /CHECKWALL_HEADER_AUTHORIZATION: masked by the service: export it/,
    );
  });

  it('sends no --data-raw without a body', () => {
    expect(curlCommand({ method: 'GET', url: 'https://e.com/', headers: {}, body: null })).toBe(
      "curl -X 'GET' 'https://e.com/'",
    );
  });

  it("quotes a lone quote as '\\''", () => {
    expect(shellQuote("'")).toBe(`''\\'''`);
    expect(wordsOf(`curl ${shellQuote("a'b")}`)).toEqual(["a'b"]);
  });
});

/** The credential headers as the service serves them: masked. */
function maskedAll(): Record<string, string> {
  return Object.fromEntries(Object.keys(SECRETS).map((k) => [k, MASK]));
}
