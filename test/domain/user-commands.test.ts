import { describe, expect, it } from 'vitest';
import {
  commandArgv,
  commandEnv,
  expandArgs,
  optionFromValue,
  type CommandValues,
} from '../../src/domain/user-commands.js';

const values: CommandValues = {
  checkId: 'api-health',
  checkName: 'API health; rm -rf ~ \u001b[2J\n',
  target: 'https://api.example.com/health?a=1 b',
  location: 'eu-west',
  resultId: 'r-1',
  baseUrl: 'http://127.0.0.1:8787',
};

describe('user commands', () => {
  it('replaces each placeholder whole inside its one argument, never splitting it', () => {
    expect(
      expandArgs(
        ['echo', '{check.name}', 'id={check.id}@{location}', '{target}', '{result.id}', '{baseUrl}'],
        values,
      ),
    ).toEqual([
      'echo',
      'API health; rm -rf ~ [2J',
      'id=api-health@eu-west',
      'https://api.example.com/health?a=1 b',
      'r-1',
      'http://127.0.0.1:8787',
    ]);
  });

  it('leaves unknown braces alone and an empty value empty', () => {
    expect(expandArgs(['{nope}', '{target}'], { ...values, target: '' })).toEqual(['{nope}', '']);
  });

  it('gives the values to a shell only as variables, the text untouched', () => {
    const command = {
      key: 'X',
      name: 'x',
      scope: 'check' as const,
      run: ['echo "$CHECKWALL_CHECK_NAME" {check.id}'],
      shell: true,
    };
    expect(commandArgv(command, values)).toEqual(['sh', '-c', 'echo "$CHECKWALL_CHECK_NAME" {check.id}']);
    expect(commandEnv(values)).toEqual({
      CHECKWALL_CHECK_ID: 'api-health',
      CHECKWALL_CHECK_NAME: 'API health; rm -rf ~ [2J',
      CHECKWALL_TARGET: 'https://api.example.com/health?a=1 b',
      CHECKWALL_LOCATION: 'eu-west',
      CHECKWALL_RESULT_ID: 'r-1',
      CHECKWALL_BASE_URL: 'http://127.0.0.1:8787',
    });
  });

  it.each<[string, string[], Partial<CommandValues>, string | null]>([
    [
      'a value beginning an argument with -',
      ['ssh', '{target}'],
      { target: '-oProxyCommand=x' },
      '-oProxyCommand=x',
    ],
    ['after its control characters go', ['ls', '{check.name}'], { checkName: '\u001b-la' }, '-la'],
    ['made of two values', ['x', '{location}{check.id}'], { location: '', checkId: '-n' }, '-n'],
    ['a value inside an argument', ['lnav', '/var/log/{check.id}.log'], { checkId: '-n' }, null],
    ['an option the config wrote', ['curl', '-sS{target}'], { target: 'x' }, null],
    ['after --', ['grep', '--', '{check.name}'], { checkName: '-v' }, null],
    ['the program itself', ['{check.id}'], { checkId: '-x' }, null],
    ['no dash', ['ssh', '{target}'], {}, null],
  ])('optionFromValue: %s', (_, run, over, want) => {
    expect(optionFromValue(run, { ...values, ...over })).toBe(want);
  });
});
