// Who may import whom (../shared/STYLE.md): ui -> store -> api -> domain;
// server -> api/schemas/ + domain; src/commands wires everything together.
// Shared by eslint.config.js and the test that proves the rule bites.
import { fileURLToPath } from 'node:url';

/** `except`: paths inside `from` that stay allowed (relative to `from`). */
const zone = (target, from, message, except) => ({ target, from, message, ...(except ? { except } : {}) });

/**
 * Inside the service, one direction (docs/architecture.md): each folder may use only
 * the folders named here; `http` may use all of them; nothing but service/ (the
 * wiring) imports `http`, and no folder imports service/.
 */
export const SERVER_USES = {
  config: [],
  storage: [],
  runners: ['config'],
  status: ['storage', 'config'],
  schedule: ['runners', 'storage', 'config'],
  alerting: ['storage', 'config'],
  metrics: ['schedule', 'storage', 'config'],
  demo: ['config'],
  maintenance: ['storage', 'config'],
  outages: ['alerting', 'storage', 'config'],
};
const SERVER_FOLDERS = [...Object.keys(SERVER_USES), 'http'];

// Whole folders are forbidden; a file inside one is allowed only by name in `except`.
export const BOUNDARY_ZONES = [
  zone('./src/ui', './src/api', 'ui reads the store; only the store talks to the api'),
  zone('./src/ui', './src/server', 'ui never imports the service'),
  zone('./src/ui', './src/commands', 'ui never imports the wiring'),
  zone('./src/store', './src/ui', 'the store is plain TypeScript, tested without React'),
  zone('./src/store', './src/server', 'the store never imports the service'),
  zone('./src/store', './src/commands', 'the store never imports the wiring'),
  zone('./src/api', './src/server', 'api and server never import each other'),
  zone('./src/api', './src/store', 'api is below the store'),
  zone('./src/api', './src/ui', 'api is below the ui'),
  zone('./src/api', './src/commands', 'api is below the wiring'),
  zone('./src/server', './src/api', 'the service shares the schemas only, not the client', ['./schemas']),
  zone('./src/server', './src/store', 'the service never imports the console'),
  zone('./src/server', './src/ui', 'the service never imports the console'),
  zone('./src/server', './src/commands', 'the service never imports the console wiring'),
  zone('./src/domain', './src/api', 'domain is pure: types of the schemas only, no I/O', ['./schemas']),
  zone('./src/domain', './src/store', 'domain is pure'),
  zone('./src/domain', './src/ui', 'domain is pure'),
  zone('./src/domain', './src/server', 'domain is pure'),
  zone('./src/domain', './src/commands', 'domain is pure'),
  ...serverZones(),
];

function serverZones() {
  const zones = [];
  for (const [folder, uses] of Object.entries(SERVER_USES)) {
    const message = `server/${folder} uses ${uses.length ? uses.join(', ') : 'no other folder of the service'}`;
    for (const other of SERVER_FOLDERS)
      if (other !== folder && !uses.includes(other))
        zones.push(zone(`./src/server/${folder}`, `./src/server/${other}`, message));
    zones.push(zone(`./src/server/${folder}`, './src/server/service', 'only the commands import service/'));
  }
  zones.push(zone('./src/server/http', './src/server/service', 'only the commands import service/'));
  zones.push(zone('./src/commands', './src/server/http', 'nothing but service/ imports http'));
  return zones;
}

/** Domain may name the wire's types, never run the schemas' code (zod and all). */
export const DOMAIN_TYPES_ONLY = {
  files: ['src/domain/**/*.ts'],
  rules: {
    '@typescript-eslint/no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            group: ['**/api/*', '**/api/schemas/*'],
            allowTypeImports: true,
            message: 'domain imports only types from api/schemas/ (import type)',
          },
        ],
      },
    ],
  },
};

/** eslint-plugin-import settings: our resolver of `./x.js` imports to `./x.ts` sources. */
export const IMPORT_SETTINGS = {
  'import/resolver': { [fileURLToPath(new URL('./eslint-resolver.cjs', import.meta.url))]: {} },
  'import/extensions': ['.ts', '.tsx', '.js'],
  'import/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
};

/** One storage module owns all SQL: nothing else in src/ may reach the database driver. */
export const SQL_OWNER = {
  files: ['src/**/*.ts', 'src/**/*.tsx'],
  ignores: ['src/server/storage/**'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        paths: [
          { name: 'better-sqlite3', message: 'all SQL lives in src/server/storage/' },
          { name: 'pg', message: 'all SQL lives in src/server/storage/' },
        ],
      },
    ],
  },
};
