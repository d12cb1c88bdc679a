import { defineConfig } from 'vitest/config';

export default defineConfig({
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
