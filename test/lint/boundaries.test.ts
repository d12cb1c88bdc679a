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
  './src/server': 'server/config/schema.js',
  './src/server/config': 'server/config/schema.js',
  './src/server/storage': 'server/storage/open.js',
  './src/server/runners': 'server/runners/index.js',
  './src/server/status': 'server/status/engine.js',
  './src/server/schedule': 'server/schedule/scheduler.js',
  './src/server/alerting': 'server/alerting/index.js',
  './src/server/demo': 'server/demo/index.js',
  './src/server/metrics': 'server/metrics/scrape.js',
  './src/server/maintenance': 'server/maintenance/windows.js',
  './src/server/outages': 'server/outages/index.js',
  './src/server/http': 'server/http/app.js',
  './src/server/service': 'server/service/index.js',
  './src/store': 'store/create-store.js',
  './src/ui': 'ui/app.js',
  './src/commands': 'commands/settings.js',
};

/** A probe in `target` importing `path` (from src/). */
const probe = (target: string, path: string): [string, string] => {
  const up = '../'.repeat(target.split('/').length - 2);
  return [`${target.slice(2)}/probe.ts`, `import { x } from '${up}${path}';`];
};

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
      // A folder is allowed whole: its index stands for it.
      const inside = except.endsWith('.ts') ? except.slice(2, -'.ts'.length) : `${except.slice(2)}/index`;
      const path = `${z.from.slice('./src/'.length)}/${inside}.js`;
      const [file, source] = probe(z.target, path);
      const found = await violations(file, source.replace('import {', 'import type {'));
      expect(found).toEqual([]);
    }
  });

  it('domain imports only types from the schemas', async () => {
    const value = await violations(
      'src/domain/probe.ts',
      "import { CheckStatusSchema } from '../api/schemas/index.js';",
    );
    expect(value.some((m) => m.includes('only types'))).toBe(true);
    expect(
      await violations('src/domain/probe.ts', "import type { CheckStatus } from '../api/schemas/index.js';"),
    ).toEqual([]);
  });
});

describe('import boundaries', () => {
  it.each([
    ['src/ui/probe.ts', "import { createClient } from '../api/client.js';"],
    ['src/ui/probe.ts', "import { CheckStatusSchema } from '../api/schemas/index.js';"],
    ['src/ui/probe.ts', "import { ServiceConfigSchema } from '../server/config/schema.js';"],
    ['src/api/probe.ts', "import { ServiceConfigSchema } from '../server/config/schema.js';"],
    ['src/server/status/probe.ts', "import { createScheduler } from '../schedule/scheduler.js';"],
    ['src/server/alerting/probe.ts', "import type { StatusEngine } from '../status/engine.js';"],
    ['src/server/config/probe.ts', "import type { Service } from '../service/index.js';"],
    ['src/server/schedule/probe.ts', "import { buildApp } from '../http/app.js';"],
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
    ['src/server/probe.ts', "import { CheckStatusSchema } from '../api/schemas/index.js';"],
    ['src/ui/probe.ts', "import { sanitize } from '../domain/status-types.js';"],
    ['src/commands/probe.ts', "import { createClient } from '../api/client.js';"],
    ['src/server/http/probe.ts', "import { createScheduler } from '../schedule/scheduler.js';"],
    ['src/server/schedule/probe.ts', "import { createRunner } from '../runners/index.js';"],
    ['src/server/status/probe.ts', "import type { Storage } from '../storage/types.js';"],
    ['src/server/probe.ts', "import { buildApp } from './http/app.js';"],
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
