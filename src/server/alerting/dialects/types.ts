// A chat dialect renders one notification as the request its service takes.
import type { AlertPayload, ChatService } from '../../../api/schemas/index.js';

export interface ChatConfig {
  url: string;
  channel?: string;
  service?: ChatService;
  botToken?: string;
  chatId?: string;
}

export interface ChatRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export type ChatDialect = (p: AlertPayload, config: ChatConfig) => ChatRequest;

export const JSON_HEADERS = { 'content-type': 'application/json' } as const;
