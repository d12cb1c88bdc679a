// WEBHOOK format `template`: the user's body, rendered by src/domain/webhook-template.ts
// and sent with its content type; an output beyond 64 KB is refused, never cut.
import {
  DEFAULT_CONTENT_TYPE,
  renderTemplate,
  TEMPLATE_OUTPUT_MAX_BYTES,
} from '../../../domain/webhook-template.js';
import type { Dialect } from './types.js';

export const templateDialect: Dialect = (delivery, config) => {
  const contentType = config.contentType ?? DEFAULT_CONTENT_TYPE;
  const body = renderTemplate(config.template ?? '', contentType, delivery.payload, delivery.id);
  const size = Buffer.byteLength(body);
  if (size > TEMPLATE_OUTPUT_MAX_BYTES)
    return { refuse: `the template rendered ${Math.ceil(size / 1024)} KB, more than the 64 KB allowed` };
  return { method: config.method, url: config.url, headers: { 'content-type': contentType }, body };
};
