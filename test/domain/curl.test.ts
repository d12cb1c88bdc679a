import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { curlCommand, shellQuote } from '../../src/domain/curl.js';
import { MASK } from '../../src/domain/mask.js';

/** The words a POSIX shell reads from `command`, as curl would get them. */
const wordsOf = (command: string): string[] =>
  execFileSync('sh', ['-c', `printf '%s\\0' ${command.replace(/^curl /, '')}`], { encoding: 'utf8' })
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

describe('curlCommand', () => {
  it('quotes every word so the shell reads back exactly the request, the hostile body one argument', () => {
    const words = wordsOf(curlCommand(request, true));
    expect(words.slice(0, 3)).toEqual(['-X', 'POST', request.url]);
    expect(words).toContain('X-Trace: `whoami`');
    expect(words).toContain('Authorization: Bearer abc');
    expect(words.at(-2)).toBe('--data-raw');
    expect(words.at(-1)).toBe(request.body);
  });

  it('masks credential headers unless revealed, and leaves the others', () => {
    const words = wordsOf(curlCommand(request));
    for (const name of [
      'Authorization',
      'Cookie',
      'Proxy-Authorization',
      'X-Api-Key',
      'X-Auth-Token',
      'X-Client-Secret',
      'X-Password',
    ])
      expect(words).toContain(`${name}: ${MASK}`);
    expect(words).toContain('Content-Type: application/json');
    expect(curlCommand(request)).not.toMatch(/abc|sid=1|k1|t1|s1|p1/);
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
