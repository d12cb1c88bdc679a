import type { ServiceConfig } from '../config/schema.js';
import type { Storage } from '../storage/types.js';
import { newSigningSecret } from './signing-secret.js';

/** Channels declared in the config are created once, the first time an account starts empty. */
export async function seedChannels(
  config: ServiceConfig,
  storage: Pick<Storage, 'countChannels' | 'createChannel'>,
  now: number,
): Promise<void> {
  for (const account of config.accounts) {
    if (account.alertChannels.length === 0 || (await storage.countChannels(account.id)) > 0) continue;
    for (const channel of account.alertChannels) {
      const signingSecret =
        channel.type === 'WEBHOOK' ? (channel.signingSecret ?? newSigningSecret()) : undefined;
      await storage.createChannel(account.id, { ...channel, signingSecret }, account.maxAlertChannels, now);
    }
  }
}
