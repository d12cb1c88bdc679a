import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Tests run React's production build (as the program does); its JSX runtime has no jsxDEV.
  oxc: { jsx: { runtime: 'automatic', development: false } },
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    environment: 'node',
    // Real servers and real terminals: give slow CI machines room, never sleep in tests.
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    env: { NODE_ENV: 'production', FORCE_COLOR: '1' },
  },
});
