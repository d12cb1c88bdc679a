// An independent reader of Telegram's MarkdownV2 rules
// (https://core.telegram.org/bots/api#markdownv2-style, as quoted at
// https://doc.botboom.ru/nyuansy/telegram-markdown): outside entities each of
// _*[]()~`>#+-=|{}.!\ must follow a backslash; inside a pre block only ` and \
// must; inside a link's (...) only ) and \ must. Answers the first violation, or null.
const SPECIAL = '_*[]()~`>#+-=|{}.!\\';

export function markdownV2Violation(text: string): string | null {
  let i = 0;
  let bold = false;
  let linkText = false;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === '\\') {
      const next = text.charCodeAt(i + 1);
      if (!(next >= 1 && next <= 126)) return `a backslash before ${text[i + 1]} at ${i}`;
      i += 2;
    } else if (text.startsWith('```', i)) {
      const end = preEnd(text, i + 3);
      if (typeof end === 'string') return end;
      i = end;
    } else if (ch === '*') {
      bold = !bold;
      i++;
    } else if (ch === '[' && !linkText) {
      linkText = true;
      i++;
    } else if (ch === ']' && linkText && text[i + 1] === '(') {
      linkText = false;
      const end = linkEnd(text, i + 2);
      if (typeof end === 'string') return end;
      i = end;
    } else if (SPECIAL.includes(ch)) {
      return `an unescaped ${ch} at ${i}: …${text.slice(Math.max(0, i - 20), i + 20)}…`;
    } else i++;
  }
  return bold || linkText ? 'an entity left open' : null;
}

function preEnd(text: string, from: number): number | string {
  for (let i = from; i < text.length; i++) {
    if (text.startsWith('```', i)) return i + 3;
    if (text[i] === '\\') i++;
    else if (text[i] === '`') return `an unescaped \` inside a code block at ${i}`;
  }
  return 'a code block left open';
}

function linkEnd(text: string, from: number): number | string {
  for (let i = from; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === ')') return i + 1;
  }
  return "a link's address left open";
}

/**
 * How long Telegram counts a valid MarkdownV2 text, "after entities parsing": each escaped
 * character one, a link's address and the markers (*, [, ], the code fences) none; inside a
 * code block every character but an escape's backslash.
 */
export function markdownV2Length(text: string): number {
  let n = 0;
  let code = false;
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === '\\') {
      n++;
      i += 2;
    } else if (text.startsWith('```', i)) {
      code = !code;
      i += 3;
    } else if (!code && ch === ']' && text[i + 1] === '(') i = linkEnd(text, i + 2) as number;
    else if (!code && (ch === '*' || ch === '[')) i++;
    else {
      n++;
      i++;
    }
  }
  return n;
}
