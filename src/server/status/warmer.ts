// Keeps the default period's statuses computed ahead of the requests that list them:
// each turn, for a small budget of the main thread, the checks due a look (a silent
// check turning unknown past its `until`, a slow part to read again, a check never
// read), each within a second of its moment (warm-pass.ts).
import type { Clock } from '../../domain/clock.js';
import { repeat, type Repeating } from '../../domain/repeat.js';
import type { ServiceConfig } from '../config/schema.js';
import { logFailure } from '../storage/observed.js';
import type { Pair } from './warm-pass.js';

// A turn a second, not four: at a few runs a second the three extra turns were
// three wake-ups of the main thread a second, 2 ms of its CPU a second on the
// bench machine (BENCHMARKS.md, "bench:threads, fewer wake-ups at a few runs a
// second").
const WARM_EVERY_MS = 1_000;
const WARM_BUDGET_MS = 80;

type Pairs = readonly Pair[];

export interface Warmer {
  /** The checks it looks at change with the config. */
  reload(config: ServiceConfig): void;
  start(): void;
  stop(): Promise<void>;
}

export function createWarmer(deps: {
  engine: { warm(pairs: Pairs, budgetMs: number): Promise<number> };
  clock: Clock;
  config: ServiceConfig;
}): Warmer {
  let pairs = checkPairs(deps.config);
  let job: Repeating | undefined;
  return {
    reload: (config) => void (pairs = checkPairs(config)),
    start() {
      job = repeat(
        deps.clock,
        WARM_EVERY_MS,
        () => deps.engine.warm(pairs, WARM_BUDGET_MS),
        (error) => logFailure('checkwall: warming statuses failed', error),
      );
    },
    stop: async () => job?.stop(),
  };
}

const checkPairs = (config: ServiceConfig): Pairs =>
  config.accounts.flatMap((account) => account.checks.map((check) => ({ account, check })));
