// Three V8 settings that keep the console's resident memory down (issue 13: at
// most 150 MB at 10,000 checks), both set while the program runs, as the console
// has no say in node's own command line (NODE_OPTIONS, the shebang's flags).
//
// The young generation stays at the size it starts with (two 1 MB semi-spaces).
// V8 doubles the semi-spaces whenever a scavenge sees many survivors, up to 16 MB
// each, as loading the program and the first poll of 10,000 statuses make it
// do, and keeps them: some 25 MB for a young generation whose garbage (a frame's
// strings, a poll's messages) dies young at any size. `--max-semi-space-size` is
// read only at start-up, but the growth factor is read each time the young
// generation would grow, so a factor of 1 set before anything grows does the same.
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
import { setFlagsFromString } from 'node:v8';

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
