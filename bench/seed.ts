// One stored run per slot a second ago: a service started on this file runs on
// its steady schedule at once, not catching up on every check's first run (which
// would be a burst, not the rate a bench asks for).
import { randomUUID } from 'node:crypto';
import type { ServiceConfig } from '../src/server/config/schema.js';
import { planSlots } from '../src/server/schedule/plan.js';
import { openStorage } from '../src/server/storage/open.js';
import { sampleResult } from '../test/helpers/samples.js';

export async function seedSteady(db: string, account: string, cfg: ServiceConfig): Promise<void> {
  const storage = await openStorage(db);
  const at = Date.now() - 1_000;
  const results = planSlots(cfg).map((slot) =>
    sampleResult(randomUUID(), {
      checkId: slot.check.id,
      checkName: slot.check.name,
      location: { id: slot.location.id, name: slot.location.name, region: slot.location.region },
      startedAt: new Date(at).toISOString(),
      finishedAt: new Date(at + 1).toISOString(),
    }),
  );
  for (let i = 0; i < results.length; i += 1_000)
    await storage.insertResults(account, results.slice(i, i + 1_000));
  await storage.close();
}
