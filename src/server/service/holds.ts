// People's hands on the schedule: pauses of checks and maintenance windows. Both are read
// from the database (shared by every instance) and tell what moved through listeners,
// which the service registers before the first read.
import type { ServiceConfig } from '../config/schema.js';
import { createMaintenance, type Maintenance } from '../maintenance/windows.js';
import { createPauses, type Pauses } from '../schedule/pauses.js';
import type { Base } from './base.js';

export interface Holds {
  pauses: Pauses;
  maintenance: Maintenance;
  /** The config as the scheduler runs it: checks paused by a person or by a window in pause mode disabled. */
  scheduled(config: ServiceConfig): ServiceConfig;
}

export function createHolds({ storage, clock, live, log }: Base): Holds {
  const pauses = createPauses({ storage, clock });
  const maintenance = createMaintenance({ storage, clock, config: live.config, log });
  return { pauses, maintenance, scheduled: (config) => pauses.scheduled(maintenance.scheduled(config)) };
}
