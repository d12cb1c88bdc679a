import { describe, expect, it } from 'vitest';
import { colorWanted } from '../../src/commands/terminal.js';

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
