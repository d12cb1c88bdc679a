// Lint: type-aware typescript-eslint, react-hooks, and the import boundaries of
// ../shared/STYLE.md (ui -> store -> api -> domain; server -> api/schemas + domain).
import js from '@eslint/js';
import importPlugin from 'eslint-plugin-import';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

import { BOUNDARY_ZONES, DOMAIN_TYPES_ONLY, IMPORT_SETTINGS, SQL_OWNER } from './eslint-boundaries.js';
import { SIZE_LIMITS } from './eslint-size.js';

export default tseslint.config(
  { ignores: ['dist/**', 'dist-bench/**', 'node_modules/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { 'react-hooks': reactHooks, import: importPlugin },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'import/no-cycle': ['error', { disableScc: true }],
      'import/no-restricted-paths': ['error', { zones: BOUNDARY_ZONES }],
    },
    settings: IMPORT_SETTINGS,
  },
  SQL_OWNER,
  DOMAIN_TYPES_ONLY,
  ...SIZE_LIMITS,
  {
    files: ['test/**', 'bench/**'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { globals: globals.node },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: globals.node },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
