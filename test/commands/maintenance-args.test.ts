// `checkwall maintenance`'s arguments: what is sent, and what is refused before
// any request with a sentence that says how to fix it.
import { describe, expect, it } from 'vitest';
import { parseMaintenanceArgs } from '../../src/commands/maintenance-args.js';

const start = (...rest: string[]) => parseMaintenanceArgs(['start', ...rest]);
const errorOf = (r: ReturnType<typeof parseMaintenanceArgs>) => ('error' in r ? r.error : undefined);

describe('checkwall maintenance start', () => {
  it('builds the window: every selector, the duration, the reason as the name by default', () => {
    const r = start(
      '--check',
      'api',
      '--check',
      'web',
      '--group',
      'g1',
      '--tag',
      'deploy',
      '--for',
      '30m',
      '--reason',
      'deploy 4.2',
    );
    expect(r).toMatchObject({
      action: 'start',
      json: false,
      body: {
        name: 'deploy 4.2',
        reason: 'deploy 4.2',
        scope: { checks: ['api', 'web'], groups: ['g1'], tags: ['deploy'] },
        duration: '30m',
        mode: 'silence',
      },
    });
  });

  it('takes --name, --mode pause, --json and the connection flags', () => {
    const r = start(
      '--tag',
      'db',
      '--for',
      '2h',
      '--reason',
      'vacuum',
      '--name',
      'DB night',
      '--mode',
      'pause',
      '--json',
      '--profile',
      'prod',
    );
    expect(r).toMatchObject({
      action: 'start',
      json: true,
      body: { name: 'DB night', mode: 'pause' },
      flags: { profile: 'prod' },
    });
  });

  it('cuts a long reason to the 200 characters a name may have, keeping the reason whole', () => {
    const reason = 'x'.repeat(300);
    const r = start('--check', 'api', '--for', '1h', '--reason', reason);
    expect(r).toMatchObject({ body: { name: 'x'.repeat(200), reason } });
  });

  it.each([
    [['--for', '30m', '--reason', 'r'], /--check ID, --group ID or --tag TAG/],
    [['--check', 'api', '--reason', 'r'], /--for/],
    [['--check', 'api', '--for', '30m'], /--reason/],
    [['--check', 'api', '--for', '30m', '--reason', '   '], /--reason/],
    [
      ['--check', 'api', '--for', '30 minutes', '--reason', 'r'],
      /^--for: a duration is a whole number of m, h or d/,
    ],
    [['--check', 'api', '--for', '0m', '--reason', 'r'], /^--for:/],
    [
      ['--check', 'api', '--for', '30m', '--reason', 'r', '--mode', 'mute'],
      /--mode is silence or pause, not "mute"/,
    ],
    [['--check', 'api', '--for', '30m', '--reason', 'r', '--frobnicate'], /--frobnicate/],
    [['api', '--for', '30m', '--reason', 'r'], /no bare arguments.*--check/],
    [['--check', '--for', '30m'], /--check/],
  ])('refuses %j', (args, message) => {
    expect(errorOf(start(...args))).toMatch(message);
  });
});

describe('checkwall maintenance end and list', () => {
  it('end takes exactly one id', () => {
    expect(parseMaintenanceArgs(['end', 'mw-1'])).toMatchObject({ action: 'end', id: 'mw-1', json: false });
    expect(errorOf(parseMaintenanceArgs(['end']))).toMatch(/one window id/);
    expect(errorOf(parseMaintenanceArgs(['end', 'a', 'b']))).toMatch(/one window id/);
  });

  it('list takes --json and no arguments', () => {
    expect(parseMaintenanceArgs(['list', '--json'])).toMatchObject({ action: 'list', json: true });
    expect(errorOf(parseMaintenanceArgs(['list', 'x']))).toMatch(/no arguments/);
  });

  it('refuses the options of start on end and list, and an unknown action', () => {
    expect(errorOf(parseMaintenanceArgs(['end', 'mw-1', '--for', '1h']))).toMatch(
      /--for is an option of "start"/,
    );
    expect(errorOf(parseMaintenanceArgs(['list', '--reason', 'x']))).toMatch(
      /--reason is an option of "start"/,
    );
    expect(errorOf(parseMaintenanceArgs(['stop']))).toMatch(/unknown action "stop": start, end or list/);
    expect(errorOf(parseMaintenanceArgs([]))).toMatch(/start, end or list/);
  });
});
