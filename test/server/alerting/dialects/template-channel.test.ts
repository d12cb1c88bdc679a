// A WEBHOOK template channel: refused at config load and at POST /v1/alert-channels
// with the path and the name; a good one delivers its rendered body. GET still shows
// only the spec's five types.
import { describe, expect, it } from 'vitest';
import { ServiceConfigSchema } from '../../../../src/server/config/schema.js';
import {
  alertConfig,
  closedAfterEach,
  get,
  post,
  runner,
  startAlertService,
  startReceivers,
} from '../../../helpers/alerting.js';

const held = closedAfterEach();

const templateChannel = (url: string, template: string) => ({
  type: 'WEBHOOK',
  name: 'templ',
  subscriptions: { checks: ['c1'] },
  config: { url, method: 'POST', format: 'template', template },
});

describe('a template channel', () => {
  it('is refused at load and at POST naming the path and the variable; a good one renders', async () => {
    const r = (held.receivers = await startReceivers());
    const bad = alertConfig(r);
    const raw = {
      ...bad,
      accounts: [
        {
          ...bad.accounts[0]!,
          alertChannels: [templateChannel(`${r.hook.url}/t`, '{"x": "{{chek.name}}"}')],
        },
      ],
    };
    const parsed = ServiceConfigSchema.safeParse(raw);
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues.map((i) => `${i.path.join('.')}: ${i.message}`)).toEqual([
      'accounts.0.alertChannels.0.config.template: unknown variable "chek.name" (docs/alerts.md, "Template variables")',
    ]);
    const good = '{"text": "{{check.name}} {{event.kind}}", "runbook": "{{runbook}}"}';
    const s = (held.svc = await startAlertService(
      alertConfig(r, { channels: [templateChannel(`${r.hook.url}/t`, good)] }),
    ));
    const refused = await post(
      s,
      '/v1/alert-channels',
      templateChannel(`${r.hook.url}/t`, '{"x": {{check.name}}}'),
    );
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain(
      'config.template: rendered for a failure event, the body is not valid JSON',
    );
    await runner(s)('c1', ['failed', 'failed']);
    await expect.poll(() => r.hook.seen.length).toBe(1);
    expect(JSON.parse(r.hook.seen[0]!.body)).toEqual({ text: 'Check 0001 failure', runbook: '' });
    expect(r.hook.seen[0]!.headers['content-type']).toBe('application/json');
    const list = (await get(s, '/v1/alert-channels')).body as { data: Array<{ type: string }> };
    expect(list.data.every((c) => ['EMAIL', 'CHAT', 'WEBHOOK', 'SMS', 'PHONE'].includes(c.type))).toBe(true);
  });
});
