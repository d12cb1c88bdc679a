// The import boundaries are a lint rule; this proves the rule bites, on
// imagined files in each layer, with the same zones eslint.config.js uses.
import { ESLint } from 'eslint';
import importPlugin from 'eslint-plugin-import';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain .js config module without type declarations
import { BOUNDARY_ZONES, DOMAIN_TYPES_ONLY, IMPORT_SETTINGS, SQL_OWNER } from '../../eslint-boundaries.js';

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
    {
      ...DOMAIN_TYPES_ONLY,
      languageOptions: { parser: tseslint.parser },
      plugins: { '@typescript-eslint': tseslint.plugin },
    },
  ],
});

async function violations(filePath: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath });
  return (result?.messages ?? []).map((m) => m.message);
}

interface Zone {
  target: string;
  from: string;
  message: string;
  except?: string[];
}
const ZONES = BOUNDARY_ZONES as Zone[];

/** A real module of each folder, for a probe to import. */
const MODULE_IN: Record<string, string> = {
  './src/api': 'api/client.js',
  './src/server': 'server/config-schema.js',
  './src/store': 'store/create-store.js',
  './src/ui': 'ui/app.js',
  './src/commands': 'commands/settings.js',
};

/** A probe in `target` importing `path` (from src/). */
const probe = (target: string, path: string): [string, string] => [
  `${target.slice(2)}/probe.ts`,
  `import { x } from '../${path}';`,
];

describe('every zone fires', () => {
  it.each(ZONES.map((z) => [`${z.target} may not import ${z.from}`, z] as const))('%s', async (_, z) => {
    const [file, source] = probe(z.target, MODULE_IN[z.from]!);
    const found = await violations(file, source);
    expect(
      found.some((m) => m.includes(z.message)),
      found.join('; '),
    ).toBe(true);
  });

  it.each(
    ZONES.filter((z) => z.except).map((z) => [`${z.target} may import ${z.except!.join(', ')}`, z] as const),
  )('%s', async (_, z) => {
    for (const except of z.except!) {
      const [file] = probe(z.target, '');
      const path = `${z.from.slice('./src/'.length)}/${except.slice(2).replace(/\.ts$/, '.js')}`;
      const found = await violations(file, `import type { x } from '../${path}';`);
      expect(found).toEqual([]);
    }
  });

  it('domain imports only types from the schemas', async () => {
    const value = await violations(
      'src/domain/probe.ts',
      "import { CheckStatusSchema } from '../api/schemas.js';",
    );
    expect(value.some((m) => m.includes('only types'))).toBe(true);
    expect(
      await violations('src/domain/probe.ts', "import type { CheckStatus } from '../api/schemas.js';"),
    ).toEqual([]);
  });
});

describe('import boundaries', () => {
  it.each([
    ['src/ui/probe.ts', "import { createClient } from '../api/client.js';"],
    ['src/ui/probe.ts', "import { CheckStatusSchema } from '../api/schemas.js';"],
    ['src/ui/probe.ts', "import { ServiceConfigSchema } from '../server/config-schema.js';"],
    ['src/api/probe.ts', "import { ServiceConfigSchema } from '../server/config-schema.js';"],
    ['src/server/probe.ts', "import { createClient } from '../api/client.js';"],
    ['src/store/probe.ts', "import { resolveSettings } from '../commands/settings.js';"],
    ['src/domain/probe.ts', "import { createClient } from '../api/client.js';"],
    ['src/domain/probe.ts', "import { readAllStatuses } from '../api/read-all.js';"],
    ['src/server/probe.ts', "import { withRetry } from '../api/retry.js';"],
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
  ])('%s importing better-sqlite3 or pg is refused: %s', async (file, refused) => {
    for (const source of ["import Database from 'better-sqlite3';", "import pg from 'pg';"]) {
      const found = await violations(file, source);
      expect(found.some((m) => m.includes('src/server/storage/'))).toBe(refused);
    }
  });
});
