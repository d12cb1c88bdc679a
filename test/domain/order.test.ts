import { describe, expect, it } from 'vitest';
import { compareChecks } from '../../src/domain/order.js';
import { sampleStatus } from '../helpers/samples.js';

describe('order', () => {
  it('puts the worst first, then names, with no data last', () => {
    const checks = [
      sampleStatus('p', { checkName: 'b', status: 'passing' }),
      sampleStatus('u', { checkName: 'a', status: 'unknown' }),
      sampleStatus('f', { checkName: 'z', status: 'failing' }),
      sampleStatus('d', { checkName: 'y', status: 'degraded' }),
    ];
    expect([...checks].sort((a, b) => compareChecks(a, b, 'status')).map((c) => c.checkId)).toEqual([
      'f',
      'd',
      'u',
      'p',
    ]);
    const avail = [
      sampleStatus('x', { availability: { percentage: null, period: '24h' } }),
      sampleStatus('y', { availability: { percentage: 50, period: '24h' } }),
    ];
    expect(avail.sort((a, b) => compareChecks(a, b, 'availability', true)).map((c) => c.checkId)).toEqual([
      'y',
      'x',
    ]);
  });
});
