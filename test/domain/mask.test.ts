import { describe, expect, it } from 'vitest';
import { channelDetailLines, channelTarget, maskConfig, maskPhone, maskUrl } from '../../src/domain/mask.js';

describe('masking alert channel secrets', () => {
  it.each([
    ['https://chat.example.com/hooks/T0/B0/secret', 'https://chat.example.com/•••'],
    ['https://example.com', 'https://example.com'],
    ['https://example.com/?key=abc', 'https://example.com/•••'],
    ['not a url', '•••'],
  ])('URL %s shows as %s', (url, shown) => {
    expect(maskUrl(url)).toBe(shown);
  });

  it.each([
    ['+14155550123', '+•••23'],
    ['+1', '•••'],
  ])('number %s shows as %s', (number, shown) => {
    expect(maskPhone(number)).toBe(shown);
  });

  it('hides header and query values of a webhook unless revealed, never the keys', () => {
    const config = {
      url: 'https://bot.example.com/incidents?key=abc123',
      method: 'POST',
      headers: [{ key: 'Authorization', value: 'Bearer s3cr3t' }],
      queryParameters: [{ key: 'team', value: 'sre' }],
    };
    const masked = channelTarget('WEBHOOK', maskConfig('WEBHOOK', config, false));
    expect(masked).toBe('POST https://bot.example.com/••• (Authorization: •••, team=•••)');
    expect(masked).not.toMatch(/s3cr3t|abc123|sre/);
    expect(channelTarget('WEBHOOK', maskConfig('WEBHOOK', config, true))).toContain('Bearer s3cr3t');
    expect(channelTarget('EMAIL', maskConfig('EMAIL', { address: 'a@b.co' }, false))).toBe('a@b.co');
    expect(channelTarget('SMS', maskConfig('SMS', { number: '+4915112345678', name: 'Pager' }, false))).toBe(
      '+•••78 (Pager)',
    );
  });

  it("masks a telegram channel's bot token and names it by its chat", () => {
    const token = '123456789:AAEhBOweik6ad9r_QXMENQjcrGbqCr4K-ra';
    const config = {
      service: 'telegram',
      url: 'https://api.telegram.org',
      botToken: token,
      chatId: '-100123',
    };
    const masked = maskConfig('CHAT', config, false);
    expect(masked['botToken']).toBe('•••K-ra');
    expect(channelTarget('CHAT', masked)).toBe('https://api.telegram.org chat -100123');
    expect(JSON.stringify(masked)).not.toContain(token);
    expect(channelDetailLines('CHAT', config)).toContainEqual({ label: 'Bot token', value: token });
  });
});
