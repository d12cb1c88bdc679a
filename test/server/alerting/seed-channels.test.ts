// The config's channels are made once even when two instances sharing a database start
// together and both found the account empty (alerting/seed-channels.ts): two of a channel
// sent every page twice (bench:scale, two instances, one location failing).
import { afterEach, describe, expect, it } from 'vitest';
import { seedChannels } from '../../../src/server/alerting/seed-channels.js';
import { ServiceConfigSchema } from '../../../src/server/config/schema.js';
import { openSqliteStorage } from '../../../src/server/storage/sqlite/index.js';
import type { Storage } from '../../../src/server/storage/types.js';

const ACCOUNT = '9b0be000-7c1e-4d8a-9f2b-3c4d5e6f7a8b';
const config = ServiceConfigSchema.parse({
  accounts: [
    {
      id: ACCOUNT,
      apiKeys: ['cw_seed_test_0123456789abcdef0123'],
      locations: [{ id: 'here', name: 'Here', region: 'loopback' }],
      checks: [],
      alertChannels: [
        { type: 'WEBHOOK', name: 'pager', config: { url: 'https://hooks.example.com/a', method: 'POST' } },
        { type: 'EMAIL', name: 'team', config: { address: 'oncall@example.com' } },
      ],
    },
  ],
});

let storage: Storage | undefined;
afterEach(async () => storage?.close());

describe('seedChannels', () => {
  it('makes each channel once, on an empty account', async () => {
    storage = openSqliteStorage(':memory:');
    await seedChannels(config, storage, 1_000);
    await seedChannels(config, storage, 2_000);
    const { items } = await storage.listChannels(ACCOUNT, 0, 10);
    expect(items.map((c) => c.name)).toEqual(['pager', 'team']);
  });

  it('makes none twice when another instance seeded after this one found the account empty', async () => {
    storage = openSqliteStorage(':memory:');
    const other = storage;
    await seedChannels(config, other, 1_000);
    // This instance's look at the account came before the other's channels were committed.
    const stale: Pick<Storage, 'countChannels' | 'createChannel'> = {
      countChannels: () => Promise.resolve(0),
      createChannel: (...args) => other.createChannel(...args),
    };
    await seedChannels(config, stale, 1_001);
    const { items } = await storage.listChannels(ACCOUNT, 0, 10);
    expect(items.map((c) => c.name)).toEqual(['pager', 'team']);
  });
});
