// What a channel of the config file must be beyond its shape: a WEBHOOK's format
// and its keys agree (api/schemas/channels.ts), and a template names only the
// documented variables and renders what its content type says
// (src/domain/webhook-template.ts). POST /v1/alert-channels asks the same.
import type { z } from 'zod';
import { refineWebhookFormat } from '../../api/schemas/index.js';
import { templateProblems } from '../../domain/webhook-template.js';

/** The problems of a WEBHOOK template, as [path under the channel, message]; [] when none. */
export function channelTemplateProblems(channel: {
  type: string;
  config: unknown;
}): Array<[string[], string]> {
  if (channel.type !== 'WEBHOOK') return [];
  const config = channel.config as { format?: string; template?: string; contentType?: string };
  if (config.format !== 'template' || config.template === undefined) return [];
  return templateProblems(config.template, config.contentType).map((m) => [['config', 'template'], m]);
}

export function refineChannel(channel: { type: string; config: unknown }, ctx: z.RefinementCtx): void {
  refineWebhookFormat(channel, ctx);
  for (const [path, message] of channelTemplateProblems(channel))
    ctx.addIssue({ code: 'custom', path, message });
}
