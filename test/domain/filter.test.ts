import { describe, expect, it } from 'vitest';
import { matchesFilter, parseFilter, filterToQuery } from '../../src/domain/filter.js';
import { sampleStatus } from '../helpers/samples.js';

describe('filter tokens', () => {
  const api = sampleStatus('a', {
    checkName: 'Payments API',
    status: 'failing',
    tags: ['prod', 'money'],
    group: { id: 'commerce', name: 'Commerce' },
  });
  const tcp = sampleStatus('b', { checkName: 'Cache', checkType: 'tcp', tags: ['infra'] });
  const run = (text: string) =>
    [api, tcp].filter((c) => matchesFilter(c, parseFilter(text).filter)).map((c) => c.checkId);

  it.each([
    ['', ['a', 'b']],
    ['pay', ['a']],
    ['status:failing', ['a']],
    ['s:failing,passing', ['a', 'b']],
    ['type:tcp', ['b']],
    ['tag:money', ['a']],
    ['group:comm', ['a']],
    ['-tag:money', ['b']],
    ['location:frank', ['a', 'b']],
    ['incident:no', ['a', 'b']],
    ['pay tag:infra', []],
  ])('%j selects %j', (text, ids) => {
    expect(run(text)).toEqual(ids);
  });

  it('names what it does not understand and applies the rest', () => {
    const { filter, errors } = parseFilter('colour:red status:broken type:api');
    expect(errors).toHaveLength(2);
    expect(errors[0]).toContain('colour');
    expect(errors[1]).toContain('broken');
    expect(filter.terms).toHaveLength(1);
  });

  it('passes what the API can filter to the query', () => {
    expect(filterToQuery(parseFilter('status:failing type:api tag:x').filter)).toEqual({
      status: 'failing',
      checkType: 'api',
    });
  });
});
