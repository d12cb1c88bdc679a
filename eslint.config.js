// Lint: type-aware typescript-eslint, react-hooks, and the import boundaries of
// ../shared/STYLE.md (ui -> store -> api -> domain; server -> api/schemas + domain).
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const zone = (target, from, message) => ({ target, from, message });

export default tseslint.config(
  { ignores: ['dist/**', 'dist-bench/**', 'node_modules/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { 'react-hooks': reactHooks, 'import-x': importX },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'import-x/no-cycle': 'error',
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            zone('./src/ui', './src/api', 'ui reads the store; only the store talks to the api'),
            zone('./src/ui', './src/server', 'ui never imports the service'),
            zone('./src/ui', './src/commands', 'ui never imports the wiring'),
            zone('./src/store', './src/ui', 'the store is plain TypeScript, tested without React'),
            zone('./src/store', './src/server', 'the store never imports the service'),
            zone('./src/api', './src/server', 'api and server never import each other'),
            zone('./src/api', './src/store', 'api is below the store'),
            zone('./src/api', './src/ui', 'api is below the ui'),
            zone('./src/server', './src/api/client.ts', 'the service shares schemas, not the client'),
            zone('./src/server', './src/store', 'the service never imports the console'),
            zone('./src/server', './src/ui', 'the service never imports the console'),
            zone('./src/domain', './src/api/client.ts', 'domain is pure: no I/O'),
            zone('./src/domain', './src/store', 'domain is pure'),
            zone('./src/domain', './src/ui', 'domain is pure'),
            zone('./src/domain', './src/server', 'domain is pure'),
          ],
        },
      ],
    },
    settings: { 'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })] },
  },
  {
    files: ['test/**', 'bench/**'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  {
    files: ['**/*.js'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
);
