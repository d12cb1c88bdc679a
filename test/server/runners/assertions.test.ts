// Every assertion source against every comparison, at the assertion module:
// what each one reads, how it compares, and the `actual` a failed one keeps.
import { describe, expect, it } from 'vitest';
import {
  evaluateAssertions,
  jsonPath,
  MAX_ACTUAL_CHARS,
  type Observed,
} from '../../../src/server/runners/assertions.js';
import type { AssertionConfig } from '../../../src/server/config/schema.js';

const seen: Observed = {
  statusCode: 200,
  headers: { 'content-type': 'application/json; charset=utf-8', 'x-app': 'demo', 'x-empty': '' },
  body: JSON.stringify({
    status: 'ok',
    items: [1, 2],
    nested: { a: { b: 'deep' } },
    empty: [],
    none: {},
    blank: '',
    n: 42,
    flag: false,
  }),
  responseTime: 120,
};

type Row = [AssertionConfig['source'], string, AssertionConfig['comparison'], string, boolean, string?];

describe('evaluateAssertions', () => {
  it.each<Row>([
    // STATUS_CODE
    ['STATUS_CODE', '', 'EQUALS', '200', true],
    ['STATUS_CODE', '', 'EQUALS', '201', false, '200'],
    ['STATUS_CODE', '', 'NOT_EQUALS', '500', true],
    ['STATUS_CODE', '', 'NOT_EQUALS', '200', false, '200'],
    ['STATUS_CODE', '', 'LESS_THAN', '300', true],
    ['STATUS_CODE', '', 'LESS_THAN', '200', false, '200'],
    ['STATUS_CODE', '', 'GREATER_THAN', '199', true],
    ['STATUS_CODE', '', 'GREATER_THAN', '200', false, '200'],
    ['STATUS_CODE', '', 'CONTAINS', '20', true],
    ['STATUS_CODE', '', 'NOT_CONTAINS', '5', true],
    // JSON_BODY: a JSON path; strings as they are, anything else as JSON text
    ['JSON_BODY', '$.status', 'EQUALS', 'ok', true],
    ['JSON_BODY', '$.status', 'EQUALS', 'down', false, 'ok'],
    ['JSON_BODY', '$.items[1]', 'EQUALS', '2', true],
    ['JSON_BODY', '$.items', 'EQUALS', '[1,2]', true],
    ['JSON_BODY', '$.nested.a.b', 'EQUALS', 'deep', true],
    ['JSON_BODY', '$.flag', 'EQUALS', 'false', true],
    ['JSON_BODY', '$.missing', 'EQUALS', 'x', false, '(absent)'],
    ['JSON_BODY', '$.status', 'NOT_EQUALS', 'down', true],
    ['JSON_BODY', '$.status', 'NOT_EQUALS', 'ok', false, 'ok'],
    ['JSON_BODY', '$.nested', 'CONTAINS', 'deep', true],
    ['JSON_BODY', '$.status', 'CONTAINS', 'error', false, 'ok'],
    ['JSON_BODY', '$.status', 'NOT_CONTAINS', 'error', true],
    ['JSON_BODY', '$.status', 'NOT_CONTAINS', 'o', false, 'ok'],
    ['JSON_BODY', '$.n', 'LESS_THAN', '43', true],
    ['JSON_BODY', '$.n', 'LESS_THAN', '42', false, '42'],
    ['JSON_BODY', '$.n', 'GREATER_THAN', '41', true],
    ['JSON_BODY', '$.n', 'GREATER_THAN', '42', false, '42'],
    ['JSON_BODY', '$.status', 'GREATER_THAN', '1', false, 'ok'],
    ['JSON_BODY', '$.empty', 'IS_EMPTY', '', true],
    ['JSON_BODY', '$.none', 'IS_EMPTY', '', true],
    ['JSON_BODY', '$.blank', 'IS_EMPTY', '', true],
    ['JSON_BODY', '$.missing', 'IS_EMPTY', '', true],
    ['JSON_BODY', '$.items', 'IS_EMPTY', '', false, '[1,2]'],
    ['JSON_BODY', '$.items', 'NOT_EMPTY', '', true],
    ['JSON_BODY', '$.empty', 'NOT_EMPTY', '', false, '[]'],
    ['JSON_BODY', '$.missing', 'NOT_EMPTY', '', false, '(absent)'],
    // HEADERS: the property names the header, in any case
    ['HEADERS', 'X-App', 'EQUALS', 'demo', true],
    ['HEADERS', 'x-app', 'EQUALS', 'prod', false, 'demo'],
    ['HEADERS', 'x-app', 'NOT_EQUALS', 'prod', true],
    ['HEADERS', 'Content-Type', 'CONTAINS', 'json', true],
    ['HEADERS', 'content-type', 'CONTAINS', 'xml', false, 'application/json; charset=utf-8'],
    ['HEADERS', 'content-type', 'NOT_CONTAINS', 'xml', true],
    ['HEADERS', 'x-empty', 'IS_EMPTY', '', true],
    ['HEADERS', 'x-missing', 'IS_EMPTY', '', true],
    ['HEADERS', 'x-missing', 'NOT_EMPTY', '', false, '(absent)'],
    ['HEADERS', 'x-app', 'NOT_EMPTY', '', true],
    // TEXT_BODY: the body as text
    ['TEXT_BODY', '', 'CONTAINS', '"status":"ok"', true],
    ['TEXT_BODY', '', 'CONTAINS', 'error', false, seen.body],
    ['TEXT_BODY', '', 'NOT_CONTAINS', 'error', true],
    ['TEXT_BODY', '', 'EQUALS', seen.body, true],
    ['TEXT_BODY', '', 'NOT_EQUALS', '', true],
    ['TEXT_BODY', '', 'IS_EMPTY', '', false, seen.body],
    ['TEXT_BODY', '', 'NOT_EMPTY', '', true],
    // RESPONSE_TIME: milliseconds, compared as numbers
    ['RESPONSE_TIME', '', 'LESS_THAN', '121', true],
    ['RESPONSE_TIME', '', 'LESS_THAN', '120', false, '120'],
    ['RESPONSE_TIME', '', 'LESS_THAN', '1000', true],
    ['RESPONSE_TIME', '', 'GREATER_THAN', '119', true],
    ['RESPONSE_TIME', '', 'GREATER_THAN', '120', false, '120'],
    ['RESPONSE_TIME', '', 'EQUALS', '120', true],
    ['RESPONSE_TIME', '', 'NOT_EQUALS', '120', false, '120'],
  ])('%s %s %s %j passes: %s', (source, property, comparison, target, passed, actual) => {
    const [result] = evaluateAssertions([{ source, property, comparison, target }], seen);
    expect(result).toEqual({
      source,
      property,
      comparison,
      target,
      passed,
      ...(passed ? {} : { actual }),
    });
  });

  it('keeps the order of the assertions and judges each on its own', () => {
    const out = evaluateAssertions(
      [
        { source: 'STATUS_CODE', property: '', comparison: 'EQUALS', target: '200' },
        { source: 'JSON_BODY', property: '$.status', comparison: 'EQUALS', target: 'down' },
      ],
      seen,
    );
    expect(out.map((a) => a.passed)).toEqual([true, false]);
  });

  it('clips a long actual value', () => {
    const body = 'x'.repeat(MAX_ACTUAL_CHARS * 5);
    const [a] = evaluateAssertions(
      [{ source: 'TEXT_BODY', property: '', comparison: 'CONTAINS', target: 'y' }],
      { ...seen, body },
    );
    expect(a!.actual).toBe(`${'x'.repeat(MAX_ACTUAL_CHARS)}…`);
  });

  it('reads a JSON path of a body that is not JSON as absent', () => {
    const [a] = evaluateAssertions(
      [{ source: 'JSON_BODY', property: '$.status', comparison: 'EQUALS', target: 'ok' }],
      { ...seen, body: '<html>' },
    );
    expect(a).toMatchObject({ passed: false, actual: '(absent)' });
  });
});

describe('jsonPath', () => {
  it.each([
    ['$', '{"a":1}', '{"a":1}'],
    ['$.a', '{"a":1}', '1'],
    ['a', '{"a":1}', '1'],
    ['$.a[0].b', '{"a":[{"b":"x"}]}', 'x'],
    ['$[1]', '[5,6]', '6'],
    ['$.a.b', '{"a":null}', undefined],
    ['$.a', '{"a":null}', 'null'],
    ['$.a', 'not json', undefined],
  ])('%s of %s is %j', (path, body, expected) => {
    expect(jsonPath(body, path)).toBe(expected);
  });
});
