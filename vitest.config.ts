import { defineConfig } from 'vitest/config';

/**
 * Files that measure real time against tight bounds (a run's phases, a slot's offset,
 * a remote runner's lead): they run after the rest, one at a time, with the machine to
 * themselves, as they always have. Everything else runs two files at once: most of the
 * suite waits on real servers, terminals and browsers, not on the CPU.
 */
const ALONE = [
  'test/server/runners/**/*.test.ts',
  'test/server/schedule/scheduler.test.ts',
  'test/server/schedule/remote-ahead.test.ts',
  'test/server/schedule/offer-share.test.ts',
  'test/server/schedule/shared-queue.test.ts',
  'test/server/schedule/runner-poll-gone.test.ts',
];

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
    projects: [
      {
        extends: true,
        test: {
          ...shared,
          name: 'together',
          include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
          exclude: ALONE,
          maxWorkers: 2,
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
