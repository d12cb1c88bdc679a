// Keeps the default period's statuses computed ahead of the requests that list them:
// a slice of the checks each turn, for a small budget of the main thread, so every
// status is looked at once a cycle (a silent check turning unknown past its `until`
// is derived again within a cycle of it). Looking at all of them every turn, to find
// the few due, costs the main thread dearly: see BENCHMARKS.md, bench:service honesty, "the warmer's walk".
import type { Clock } from '../../domain/clock.js';
import { repeat, type Repeating } from '../../domain/repeat.js';
import type { AccountConfig, CheckConfig, ServiceConfig } from '../config/schema.js';
import { logFailure } from '../storage/observed.js';

// A turn a second, not four: at a few runs a second the three extra turns were
// three wake-ups of the main thread a second, 2 ms of its CPU a second on the
// bench machine (BENCHMARKS.md, "bench:threads, fewer wake-ups at a few runs a
// second"). The cycle and the budget per second stay as they were.
const WARM_EVERY_MS = 1_000;
const WARM_BUDGET_MS = 80;
const WARM_CYCLE_MS = 8_000;

type Pairs = ReadonlyArray<{ account: AccountConfig; check: CheckConfig }>;

export interface Warmer {
  /** The checks it looks at change with the config. */
  reload(config: ServiceConfig): void;
  start(): void;
  stop(): Promise<void>;
}

export function createWarmer(deps: {
  engine: { warm(pairs: Pairs, budgetMs: number, share: number): Promise<number> };
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
        () => deps.engine.warm(pairs, WARM_BUDGET_MS, WARM_EVERY_MS / WARM_CYCLE_MS),
        (error) => logFailure('checkwall: warming statuses failed', error),
      );
    },
    stop: async () => job?.stop(),
  };
}

const checkPairs = (config: ServiceConfig): Pairs =>
  config.accounts.flatMap((account) => account.checks.map((check) => ({ account, check })));
