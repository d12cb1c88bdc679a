import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { colorWanted, enterAlternateScreen, type GuardedProcess } from '../../src/commands/terminal.js';

describe('colorWanted', () => {
  it.each<[string, boolean | undefined, NodeJS.ProcessEnv, boolean, boolean]>([
    ['a terminal', undefined, {}, true, true],
    ['not a terminal', undefined, {}, false, false],
    ['--no-color', false, {}, true, false],
    ['NO_COLOR set to anything', undefined, { NO_COLOR: '' }, true, false],
    ['NO_COLOR=1', undefined, { NO_COLOR: '1' }, true, false],
    ['FORCE_COLOR=0', undefined, { FORCE_COLOR: '0' }, true, false],
    ['FORCE_COLOR=false', undefined, { FORCE_COLOR: 'false' }, true, false],
    ['FORCE_COLOR=1 into a pipe', undefined, { FORCE_COLOR: '1' }, false, true],
    ['NO_COLOR beats FORCE_COLOR', undefined, { NO_COLOR: '1', FORCE_COLOR: '1' }, false, false],
  ])('%s', (_name, flag, env, tty, wanted) => {
    expect(colorWanted(flag, env, tty)).toBe(wanted);
  });
});

describe("the terminal guard while a command of the user's has the terminal", () => {
  // A stand-in process: emitting a signal's event is what Node does when the signal comes.
  function guarded() {
    const exits: number[] = [];
    const proc = Object.assign(new EventEmitter(), {
      pid: 0,
      stderr: { write: () => true },
      exit: (code: number) => void exits.push(code),
      kill: () => true,
    });
    const stdout = Object.assign(new EventEmitter(), { isTTY: true, write: () => true });
    const guard = enterAlternateScreen(stdout as never, proc as unknown as GuardedProcess);
    return { proc, exits, guard };
  }

  it('leaves Ctrl-C and Ctrl-\\ to the command (the console stays), and quits on Ctrl-C once back', () => {
    const { proc, exits, guard } = guarded();
    guard.leave();
    // Ctrl-C in cooked mode signals the command and the console alike; the console hears it after.
    proc.emit('SIGINT', 'SIGINT');
    expect(exits).toEqual([]);
    // A SIGQUIT with no listener would end Node (its default action): one is there while away.
    expect(proc.listenerCount('SIGQUIT')).toBe(1);
    guard.enter();
    expect(proc.listenerCount('SIGQUIT')).toBe(0);
    proc.emit('SIGINT', 'SIGINT');
    expect(exits).toEqual([130]);
  });
});
