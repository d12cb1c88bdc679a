// The incident rule (src/server/status/incident-rule.ts), every status against an
// incident open or not: when one opens, when it closes, and when nothing moves.
import { describe, expect, it } from 'vitest';
import type { CheckStatusValue } from '../../../src/api/schemas/index.js';
import { incidentMove } from '../../../src/server/status/incident-rule.js';

const check = { id: 'api', name: 'Checkout API' };
const AT = Date.parse('2026-11-28T03:12:00Z');
const open = { id: 'inc-1' };
const newId = () => 'inc-2';

describe('the incident rule', () => {
  it.each<[CheckStatusValue, boolean, 'opens' | 'closes' | 'nothing']>([
    ['failing', false, 'opens'],
    ['failing', true, 'nothing'],
    ['passing', true, 'closes'],
    ['degraded', true, 'closes'],
    ['passing', false, 'nothing'],
    ['degraded', false, 'nothing'],
    ['unknown', true, 'nothing'],
    ['unknown', false, 'nothing'],
  ])('a %s check with an incident open: %s → %s', (status, isOpen, outcome) => {
    const move = incidentMove(check, { status, statusReason: 'HTTP 500' }, isOpen ? open : null, AT, newId);
    if (outcome === 'opens')
      expect(move).toEqual({
        openIncident: {
          id: 'inc-2',
          checkId: 'api',
          severity: 'critical',
          title: 'Checkout API is failing: HTTP 500',
          startedAt: AT,
          endedAt: null,
        },
      });
    if (outcome === 'closes') expect(move).toEqual({ closeIncidentAt: AT });
    if (outcome === 'nothing') expect(move).toEqual({});
  });

  it('titles an incident without a reason by the check alone', () => {
    const move = incidentMove(check, { status: 'failing', statusReason: null }, null, AT, newId);
    expect(move.openIncident?.title).toBe('Checkout API is failing:');
  });

  it('opens at the instant given (the result that made it fail), whatever the clock', () => {
    expect(incidentMove(check, { status: 'failing' }, null, AT + 1, newId).openIncident?.startedAt).toBe(
      AT + 1,
    );
    expect(incidentMove(check, { status: 'passing' }, open, AT - 1, newId).closeIncidentAt).toBe(AT - 1);
  });
});
