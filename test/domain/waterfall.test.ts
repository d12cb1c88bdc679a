// Where a failed run stopped, for the timing bars (issue 13): every kind of check and error.
import { describe, expect, it } from 'vitest';
import { stoppedAt, type Stop } from '../../src/domain/waterfall.js';

const run = (checkType: string, url: string, timing: Record<string, number>, error?: string) => ({
  checkType,
  request: { url },
  timing: { total: 0, ...timing },
  ...(error ? { error: { name: error } } : {}),
});

describe('stoppedAt', () => {
  it.each<[string, ReturnType<typeof run>, Stop | null]>([
    ['a run without an error', run('api', 'http://a/', { dns: 1, total: 5 }), null],
    [
      'refused on plain HTTP',
      run('api', 'http://a/', { dns: 1, total: 5 }, 'ConnectionRefusedError'),
      { phase: 'tcp', ms: 4, what: 'refused' },
    ],
    [
      'a name that does not resolve',
      run('url', 'http://x.invalid/', { total: 12 }, 'DNSError'),
      { phase: 'dns', ms: 12, what: 'not found' },
    ],
    [
      'a TLS failure on HTTPS',
      run('api', 'https://a/', { dns: 1, tcp: 2, total: 9 }, 'TLSError'),
      { phase: 'tls', ms: 6, what: 'failed' },
    ],
    [
      'no first byte in time on plain HTTP (no TLS phase)',
      run('api', 'http://a/', { dns: 1, tcp: 2, total: 1_003 }, 'TimeoutError'),
      { phase: 'firstByte', ms: 1_000, what: 'timed out' },
    ],
    [
      'a reset while downloading',
      run('api', 'http://a/', { dns: 1, tcp: 2, firstByte: 3, total: 10 }, 'ConnectionResetError'),
      { phase: 'download', ms: 4, what: 'reset' },
    ],
    [
      'a TCP check refused',
      run('tcp', '127.0.0.1:9', { dns: 0, total: 4 }, 'ConnectionRefusedError'),
      { phase: 'tcp', ms: 4, what: 'refused' },
    ],
    [
      'every phase done, failed on what came back',
      run('tcp', '127.0.0.1:9', { dns: 0, tcp: 1, total: 4 }, 'UnexpectedReply'),
      null,
    ],
    ['a heartbeat has no phases', run('heartbeat', 'hb', { total: 0 }, 'MissedHeartbeat'), null],
    ['nor has a browser check', run('browser', 'https://a/', { total: 50 }, 'Error'), null],
  ])('%s', (_name, r, stop) => {
    expect(stoppedAt(r)).toEqual(stop);
  });
});
