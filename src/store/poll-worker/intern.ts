// One copy of each string the statuses repeat, on the UI thread. A structured
// clone (how the poll worker's changes cross) makes a string of its own for every
// field of every status: at 10,000 checks, 10,000 "passing", 30,000 location
// names and the same status reason thousands of times, about 5 MB of the UI
// thread's heap. The fields below are names and states shared by many checks;
// ids, check names and timestamps are not (one per check), so they are left as
// they come.
import type { CheckStatus } from '../../api/schemas/index.js';

/** Past this many distinct values the table starts again: a bound on what it can hold. */
const MOST = 5_000;

export interface Interner {
  /** Points the status's repeated strings at one shared copy each (in place) and returns it. */
  status(check: CheckStatus): CheckStatus;
}

export function createInterner(): Interner {
  const table = new Map<string, string>();
  const one = <S extends string>(value: S): S => {
    const known = table.get(value);
    if (known !== undefined) return known as S;
    if (table.size >= MOST) table.clear();
    table.set(value, value);
    return value;
  };
  return {
    status(c) {
      c.checkType = one(c.checkType);
      c.status = one(c.status);
      c.availability.period = one(c.availability.period);
      c.performance.trend = one(c.performance.trend);
      c.schedule.frequency = one(c.schedule.frequency);
      if (c.statusReason !== undefined) c.statusReason = one(c.statusReason);
      if (c.lastExecution) {
        c.lastExecution.status = one(c.lastExecution.status);
        c.lastExecution.location = one(c.lastExecution.location);
        if (c.lastExecution.error !== undefined) c.lastExecution.error = one(c.lastExecution.error);
      }
      for (const l of c.locations) {
        l.id = one(l.id);
        l.name = one(l.name);
        l.status = one(l.status);
      }
      for (let i = 0; i < c.tags.length; i++) c.tags[i] = one(c.tags[i]!);
      if (c.group) {
        c.group.id = one(c.group.id);
        c.group.name = one(c.group.name);
      }
      return c;
    },
  };
}
