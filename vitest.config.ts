import { defineConfig } from 'vitest/config';

/**
 * Files that measure real time against tight bounds (a run's phases, Chromium's steps,
 * instances sharing a queue): they run after the rest, one at a
 * time, with the machine to themselves, as they always have. Everything else runs two
 * files at once: most of the suite waits on real servers, terminals and browsers, not on
 * the CPU, and the service's scheduled runs are on the fake clock.
 */
const ALONE = ['test/server/runners/**/*.test.ts', 'test/server/schedule/shared-queue.test.ts'];

const shared = {
  environment: 'node',
  // Real servers and real terminals: give slow CI machines room, never sleep in tests.
  testTimeout: 20_000,
  hookTimeout: 30_000,
  pool: 'forks',
  env: { NODE_ENV: 'production', FORCE_COLOR: '1' },
} as const;

export default defineConfig({
  // Tests run React's production build (as the program does); its JSX runtime has no jsxDEV.
  oxc: { jsx: { runtime: 'automatic', development: false } },
  test: {
    // The projects' own counts apply within this one (the default would be cores - 1: one).
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          ...shared,
          name: 'together',
          include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
          exclude: ALONE,
          maxWorkers: 2,
          // One module graph per worker, not per file: importing the service, Ink and zod
          // again for every file cost more than the tests themselves.
          isolate: false,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          ...shared,
          name: 'alone',
          include: ALONE,
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
