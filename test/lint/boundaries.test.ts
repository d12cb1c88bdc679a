// The import boundaries are a lint rule; this proves the rule bites, on
// imagined files in each layer, with the same zones eslint.config.js uses.
import { ESLint } from 'eslint';
import importPlugin from 'eslint-plugin-import';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain .js config module without type declarations
import { BOUNDARY_ZONES, IMPORT_SETTINGS, SQL_OWNER } from '../../eslint-boundaries.js';

const eslint = new ESLint({
  overrideConfigFile: true,
  overrideConfig: [
    {
      files: ['**/*.ts', '**/*.tsx'],
      languageOptions: { parser: tseslint.parser },
      plugins: { import: importPlugin },
      rules: { 'import/no-restricted-paths': ['error', { zones: BOUNDARY_ZONES as unknown[] }] },
      settings: IMPORT_SETTINGS,
    },
    { ...SQL_OWNER, languageOptions: { parser: tseslint.parser } },
  ],
});

async function violations(filePath: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath });
  return (result?.messages ?? []).map((m) => m.message);
}

describe('import boundaries', () => {
  it.each([
    ['src/ui/probe.ts', "import { createClient } from '../api/client.js';"],
    ['src/ui/probe.ts', "import { CheckStatusSchema } from '../api/schemas.js';"],
    ['src/ui/probe.ts', "import { ServiceConfigSchema } from '../server/config-schema.js';"],
    ['src/api/probe.ts', "import { ServiceConfigSchema } from '../server/config-schema.js';"],
    ['src/server/probe.ts', "import { createClient } from '../api/client.js';"],
    ['src/store/probe.ts', "import { resolveSettings } from '../commands/settings.js';"],
    ['src/domain/probe.ts', "import { createClient } from '../api/client.js';"],
  ])('%s may not: %s', async (file, source) => {
    expect(await violations(file, source)).not.toEqual([]);
  });

  it.each([
    ['src/store/probe.ts', "import { createClient } from '../api/client.js';"],
    ['src/server/probe.ts', "import { CheckStatusSchema } from '../api/schemas.js';"],
    ['src/ui/probe.ts', "import { sanitize } from '../domain/status-types.js';"],
    ['src/commands/probe.ts', "import { createClient } from '../api/client.js';"],
  ])('%s may: %s', async (file, source) => {
    expect(await violations(file, source)).toEqual([]);
  });
});

describe('one storage module owns all SQL', () => {
  it.each([
    ['src/server/http/probe.ts', true],
    ['src/server/probe.ts', true],
    ['src/commands/probe.ts', true],
    ['src/server/storage/probe.ts', false],
  ])('%s importing better-sqlite3 is refused: %s', async (file, refused) => {
    const found = await violations(file, "import Database from 'better-sqlite3';");
    expect(found.some((m) => m.includes('src/server/storage/'))).toBe(refused);
  });
});
