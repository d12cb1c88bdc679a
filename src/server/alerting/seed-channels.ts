import type { ServiceConfig } from '../config/schema.js';
import type { Storage } from '../storage/types.js';
import { newSigningSecret } from './signing-secret.js';

/**
 * Channels declared in the config are created once, the first time an account starts empty.
 * Instances sharing a database may start together and both find it empty: the i-th channel
 * is created only while the account has fewer than i + 1 (the count and the insert are one
 * step, storage createChannel), so the second seeder's first create is refused and it stops,
 * and no channel is made twice (two made every page go out twice).
 */
export async function seedChannels(
  config: ServiceConfig,
  storage: Pick<Storage, 'countChannels' | 'createChannel'>,
  now: number,
): Promise<void> {
  for (const account of config.accounts) {
    if (account.alertChannels.length === 0 || (await storage.countChannels(account.id)) > 0) continue;
    for (const [i, channel] of account.alertChannels.entries()) {
      const signingSecret =
        channel.type === 'WEBHOOK' ? (channel.signingSecret ?? newSigningSecret()) : undefined;
      const limit = Math.min(i + 1, account.maxAlertChannels);
      const made = await storage.createChannel(account.id, { ...channel, signingSecret }, limit, now);
      if (!made.ok) break;
    }
  }
}
