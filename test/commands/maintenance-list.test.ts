// `checkwall maintenance list`'s table: one row a window, what the service sent
// sanitised (a name cannot retitle the terminal).
import { describe, expect, it } from 'vitest';
import type { MaintenanceWindow } from '../../src/api/schemas/maintenance.js';
import { listLines } from '../../src/commands/maintenance.js';
import { sampleWindow } from '../helpers/samples.js';

const NOW = Date.parse('2026-11-27T10:00:00.000Z');
const w = (over: Partial<MaintenanceWindow>): MaintenanceWindow =>
  sampleWindow(
    'mw-1',
    {
      reason: 'rolling deploy',
      createdBy: 'deployer',
      scope: { checks: ['api', 'web'] },
      endsAt: '2026-11-27T10:25:00.000Z',
      ...over,
    },
    Date.parse('2026-11-27T09:51:00.000Z'),
  );

describe('listLines', () => {
  it('lines up the windows: when an active one ends, when a scheduled one starts', () => {
    const lines = listLines(
      [
        w({ coveredChecks: ['api', 'web'] }),
        w({
          id: 'nightly',
          coveredChecks: [],
          state: 'scheduled',
          mode: 'pause',
          name: 'vacuum\u001b]0;owned\u0007',
          scope: { tags: ['db'] },
          createdBy: 'config',
          occurrence: { startsAt: '2026-11-28T02:00:00.000Z', endsAt: '2026-11-28T03:00:00.000Z' },
        }),
      ],
      NOW,
    );
    expect(lines).toEqual([
      'ID       STATE      MODE     WHEN           SCOPE     COVERS   BY        NAME: REASON',
      'mw-1     active     silence  ends in 25m    2 checks  api,web  deployer  deploy 4.2: rolling deploy',
      'nightly  scheduled  pause    starts in 16h  tag db    none     config    vacuum: rolling deploy',
    ]);
  });

  it('says a name that defaulted to the reason once, not "deploy 4.2: deploy 4.2"', () => {
    const lines = listLines([w({ name: 'deploy 4.2', reason: 'deploy 4.2' })], NOW);
    expect(lines[1]).toMatch(/deployer {2}deploy 4\.2$/);
  });

  it('cuts the covered checks after five, and says - when an older service does not list them', () => {
    const many = w({ coveredChecks: ['a', 'b', 'c', 'd', 'e', 'f', 'g'] });
    expect(listLines([many], NOW)[1]).toContain('a,b,c,d,e +2');
    expect(listLines([w({})], NOW)[1]).toMatch(/2 checks {2}- {2}/);
  });

  it('says when there is none', () => {
    expect(listLines([], NOW)).toEqual(['no active or scheduled maintenance windows']);
  });
});
