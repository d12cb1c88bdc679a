// Dependencies between checks: what a config declares (a group's parents shared by
// its checks), its errors named by path (unknown ids, cycles), and which parent holds
// a dependent at a location (per location; anywhere when the parent does not run there).
import { describe, expect, it } from 'vitest';
import {
  dependencyErrors,
  heldByParent,
  parentChecks,
  type DependentCheck,
} from '../../src/domain/dependencies.js';

const check = (id: string, over: Partial<DependentCheck> = {}): DependentCheck => ({
  id,
  locations: ['fra', 'sin'],
  ...over,
});

describe('a config of dependencies', () => {
  it("gives each check its own parents and its group's, a group parent expanded to its checks", () => {
    const checks = [
      check('db1', { group: 'db' }),
      check('db2', { group: 'db' }),
      check('api', { group: 'web', dependsOn: ['cache'] }),
      check('cache'),
      check('home', { group: 'web' }),
    ];
    const parents = parentChecks(checks, [{ id: 'web', dependsOn: ['group:db'] }, { id: 'db' }]);
    expect(parents.get('api')).toEqual(['cache', 'db1', 'db2']);
    expect(parents.get('home')).toEqual(['db1', 'db2']);
    expect(parents.get('db1')).toEqual([]);
  });

  it('names an unknown check or group by its path', () => {
    const errors = dependencyErrors(
      [check('a', { dependsOn: ['nope', 'group:ghosts'] })],
      [{ id: 'g', dependsOn: ['b'] }],
    );
    expect(errors).toEqual([
      { path: ['checks', 0, 'dependsOn', 0], message: 'no check "nope" in this account to depend on' },
      { path: ['checks', 0, 'dependsOn', 1], message: 'no group "ghosts" in this account to depend on' },
      { path: ['groups', 0, 'dependsOn', 0], message: 'no check "b" in this account to depend on' },
    ]);
  });

  it('names a cycle by its path, through a group too', () => {
    expect(
      dependencyErrors(
        [
          check('a', { dependsOn: ['b'] }),
          check('b', { dependsOn: ['c'] }),
          check('c', { dependsOn: ['a'] }),
        ],
        [],
      ),
    ).toEqual([{ path: ['checks', 0, 'dependsOn'], message: 'dependency cycle: a → b → c → a' }]);
    const viaGroup = dependencyErrors(
      [check('a', { group: 'g' }), check('b', { dependsOn: ['group:g'] })],
      [{ id: 'g', dependsOn: ['b'] }],
    );
    expect(viaGroup.map((e) => e.message)).toEqual(['dependency cycle: a → b → a']);
  });

  it('a group depending on itself: never on the check itself, but its checks on each other, a cycle', () => {
    expect(
      dependencyErrors(
        [check('a', { group: 'g' }), check('b', { group: 'g' })],
        [{ id: 'g', dependsOn: ['group:g'] }],
      ),
    ).toEqual([{ path: ['checks', 0, 'dependsOn'], message: 'dependency cycle: a → b → a' }]);
  });
});

describe('a parent holding a dependent', () => {
  const runsAt = (id: string) => (id === 'regional' ? ['sin'] : ['fra', 'sin']);
  const since = (entries: Array<[string, number]>) => new Map(entries);

  it('holds at the location the parent fails at, and nowhere else', () => {
    const failing = new Map([['db', since([['sin', 100]])]]);
    expect(heldByParent(['db'], 'sin', runsAt, failing)).toEqual({
      parent: 'db',
      location: 'sin',
      since: 100,
    });
    expect(heldByParent(['db'], 'fra', runsAt, failing)).toBeNull();
  });

  it('a parent that does not run at the location holds while it fails anywhere', () => {
    const failing = new Map([['regional', since([['sin', 50]])]]);
    expect(heldByParent(['regional'], 'fra', runsAt, failing)).toEqual({
      parent: 'regional',
      location: null,
      since: 50,
    });
  });

  it('names the earliest failure among the parents that hold', () => {
    const failing = new Map([
      ['db', since([['fra', 300]])],
      ['cache', since([['fra', 200]])],
    ]);
    expect(heldByParent(['db', 'cache'], 'fra', runsAt, failing)?.parent).toBe('cache');
    expect(heldByParent(['db', 'cache'], 'fra', runsAt, new Map())).toBeNull();
  });
});
