import { describe, expect, it } from 'vitest';
import { parsePublicUrl } from '../../src/domain/public-url.js';

describe('parsePublicUrl', () => {
  it.each([
    ['http://127.0.0.1:8787/v1/public/dashboards/status', 'http://127.0.0.1:8787', 'status'],
    ['https://mon.example.com/v1/public/dashboards/status/', 'https://mon.example.com', 'status'],
    [
      'https://example.com/monitoring/v1/public/dashboards/ops-board',
      'https://example.com/monitoring',
      'ops-board',
    ],
    ['http://h/v1/public/dashboards/a%20b', 'http://h', 'a b'],
  ])('%s is %s + %s', (url, baseUrl, slug) => {
    expect(parsePublicUrl(url)).toEqual({ baseUrl, slug });
  });

  it.each([
    ['status', /URL like http\(s\):\/\/host\[:port\]\/v1\/public\/dashboards\/SLUG/],
    ['ftp://h/v1/public/dashboards/x', /http:\/\/ or https:\/\//],
    ['http://h/v1/dashboards/x', /URL like/],
    ['http://h/v1/public/dashboards/', /URL like/],
    ['http://h/v1/public/dashboards/a/b', /URL like/],
    ['http://h/v1/public/dashboards/x?key=1', /URL like/],
    ['http://u:p@h/v1/public/dashboards/x', /without credentials/],
  ])('%s is refused', (url, reason) => {
    const got = parsePublicUrl(url);
    expect('error' in got && got.error).toMatch(reason);
  });
});
