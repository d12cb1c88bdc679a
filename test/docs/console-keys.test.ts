// docs/console.md lists every key by the scope it is bound in; the keymap is the
// truth. Every key of every binding appears in the doc's table for its scope, and
// every key the doc lists is bound there, so neither drifts from the other.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { KEYMAP } from '../../src/ui/keymap.js';

const doc = readFileSync(new URL('../../docs/console.md', import.meta.url), 'utf8');

/** The `## Keys` section: from its heading to the next heading of its level or above. */
function keysSection(markdown: string): string {
  const lines = markdown.split(/\r?\n/);
  const start = lines.findIndex((l) => /^##\s+Keys\s*$/.test(l));
  if (start < 0) return '';
  const end = lines.findIndex((l, i) => i > start && /^#{1,2}\s/.test(l));
  return lines.slice(start + 1, end < 0 ? undefined : end).join('\n');
}

/** The cells of a table row, `\|` kept as a character of its cell. */
const cells = (row: string): string[] =>
  row
    .trim()
    .replace(/^\||\|$/g, '')
    .split(/(?<!\\)\|/)
    .map((c) => c.trim().replace(/\\\|/g, '|'));

const isSeparator = (row: string) => cells(row).every((c) => /^:?-{3,}:?$/.test(c));

/**
 * `scope key` for every key in the section's tables: a table belongs to the scope
 * named last in backticks in the heading above it; its keys are the backticked
 * spans of the first column of each row under a header whose first cell is "Keys".
 */
function documentedKeys(section: string): { keys: Set<string>; problems: string[] } {
  const keys = new Set<string>();
  const problems: string[] = [];
  let scope: string | null = null;
  let inTable = false;
  for (const line of section.split('\n')) {
    const heading = /^#{3,6}\s+(.*)$/.exec(line);
    if (heading) {
      scope = [...heading[1]!.matchAll(/`([^`]+)`/g)].pop()?.[1] ?? null;
      inTable = false;
      continue;
    }
    if (!line.trim().startsWith('|')) {
      inTable = false;
      continue;
    }
    if (isSeparator(line)) continue;
    const first = cells(line)[0] ?? '';
    if (/^keys?$/i.test(first)) {
      inTable = true;
      if (!scope) problems.push(`a key table under no scope heading: ${line}`);
      continue;
    }
    if (!inTable || !scope) continue;
    const spans = [...first.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
    if (spans.length === 0) problems.push(`a row of ${scope} without a key in backticks: ${line}`);
    for (const key of spans) keys.add(`${scope} ${key}`);
  }
  return { keys, problems };
}

describe('the keys in docs/console.md', () => {
  const { keys: documented, problems } = documentedKeys(keysSection(doc));
  const bound = new Set(KEYMAP.flatMap((b) => b.keys.map((k) => `${b.scope} ${k}`)));

  it('are tables the test can read', () => {
    expect(problems).toEqual([]);
    expect(documented.size).toBeGreaterThan(0);
  });

  it('list every key of the keymap under its scope', () => {
    expect([...bound].filter((k) => !documented.has(k))).toEqual([]);
  });

  it('list no key the keymap does not bind there', () => {
    expect([...documented].filter((k) => !bound.has(k))).toEqual([]);
  });
});
