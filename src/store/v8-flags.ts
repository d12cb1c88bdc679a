// Three V8 settings that keep the console's resident memory down (docs/console.md: at
// most 150 MB at 10,000 checks), all set while the program runs, as the console
// has no say in node's own command line (NODE_OPTIONS, the shebang's flags).
//
// The young generation stays at the size it starts with (two 1 MB semi-spaces)
// through the first load, and then grows to two 4 MB ones at most
// (`letYoungGenerationGrow`). V8 doubles the semi-spaces whenever as many bytes
// survived scavenges as they hold, up to 16 MB each, as loading the program and
// the first poll of 10,000 statuses make it do, and keeps them: some 25 MB for a
// young generation whose garbage (a frame's strings, a poll's messages) dies
// young. `--max-semi-space-size` is read only at start-up, but the growth factor
// is read each time the young generation would grow, so a factor of 1 stops it.
//
// WebAssembly stays in Liftoff, V8's baseline compiler. Ink lays frames out with
// yoga compiled to WebAssembly, and V8 recompiles its hot functions with TurboFan
// on background threads; yoga's layout function is large, and compiling it took
// about 30 MB of malloc'd memory at its peak, which the C library kept (freed, but
// not given back to the system) for the life of the process.
//
// The old generation is collected when it has grown by a fifth over what the
// last full collection kept (at least V8's own step of a few megabytes), not by
// V8's own factor of up to 4: with a small young generation, more of each key
// press's frame outlives a scavenge, and at 10,000 checks 80 presses grew the old
// space from about 40 MB to 86 MB before a full collection came.
//
// V8 puts its flags' lower bounds back (the growth factor to 2) whenever an
// isolate is created, so they are set again once the poll worker is up.
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

const FLAGS = ['--semi-space-growth-factor=1', '--liftoff-only', '--heap-growing-percent=20'];

/**
 * Called with the command line by bin/checkwall.js and the single executable
 * before they load the program (`serve`, the service, keeps V8's defaults), and
 * without when the poll worker has started (store/poll-worker/spawn.ts).
 */
export function setConsoleV8Flags(argv: readonly string[] = []): void {
  if (argv[0] === 'serve') return;
  for (const flag of FLAGS) setFlagsFromString(flag);
}

// Both semi-spaces together, at most: 4 MB each (V8's default lets them reach 16 MB).
const YOUNG_MOST = 8 * 2 ** 20;
const WATCH_MS = 250;
let growing = false;

/**
 * Called once the first poll is in (store/poll-worker/spawn.ts). What the first load
 * makes lives long, so a small young generation costs it nothing; what a key press
 * or a poll makes afterwards dies young, and a 1 MB young generation promoted
 * much of a frame's work to the old one: at 10,000 checks a key press took 18 ms of
 * CPU frozen at 1 MB and 14 ms free to grow. From here the young generation may
 * grow again, in steps of a doubling (each after as many bytes survived as it
 * holds, so slowly in steady state), until it reaches YOUNG_MOST; then it is
 * frozen again.
 */
export function letYoungGenerationGrow(): void {
  if (growing) return;
  growing = true;
  setFlagsFromString('--semi-space-growth-factor=2');
  const timer = setInterval(() => {
    const young = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
    if (!young || young.space_size < YOUNG_MOST) return;
    setFlagsFromString('--semi-space-growth-factor=1');
    clearInterval(timer);
  }, WATCH_MS);
  timer.unref();
}
