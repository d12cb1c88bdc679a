// The chat dialects by service (docs/alerts.md "Chat services").
import type { ChatService } from '../../../api/schemas/index.js';
import { discord } from './discord.js';
import { googlechat } from './googlechat.js';
import { mattermost } from './mattermost.js';
import { msteams } from './msteams.js';
import { ntfy } from './ntfy.js';
import { slack } from './slack.js';
import { telegram } from './telegram.js';
import type { ChatDialect } from './types.js';

export const CHAT_DIALECTS: Record<ChatService, ChatDialect> = {
  slack,
  mattermost,
  msteams,
  discord,
  googlechat,
  telegram,
  ntfy,
};

export type { ChatConfig, ChatDialect, ChatRequest } from './types.js';
