import type { Key } from 'ink';
import { describe, expect, it } from 'vitest';
import { HANDLERS, JUMP_TARGETS } from '../../src/ui/commands/index.js';
import {
  bindingOf,
  KEYMAP,
  matchCommand,
  scopeChain,
  TEXT_SCOPES,
  type CommandId,
  type Scope,
} from '../../src/ui/keymap.js';
import { keyOf } from '../../src/ui/input.js';

/** A Key with no flag set (what Ink reports for a plain character), plus the given ones. */
const key = (over: Partial<Key> = {}): Key => ({ ...keyOf(''), ...over });

describe('keymap', () => {
  it('names every view : reaches in the help of :', () => {
    const help = bindingOf('app.prompt').help;
    for (const target of JUMP_TARGETS) expect(help, target).toMatch(new RegExp(`\\b${target}\\b`));
  });

  it('gives every command help text and a handler', () => {
    for (const b of KEYMAP) {
      expect(b.help.length, b.command).toBeGreaterThan(3);
      expect(HANDLERS[b.command], b.command).toBeTypeOf('function');
    }
  });

  it('knows its commands by type: a misspelt one does not compile', () => {
    // @ts-expect-error -- not a command of the keymap (tsc fails if this ever compiles)
    const misspelt: CommandId = 'board.opne';
    expect(KEYMAP.some((b) => b.command === misspelt)).toBe(false);
    expect(Object.keys(HANDLERS).sort()).toEqual([...new Set(KEYMAP.map((b) => b.command))].sort());
  });

  it('needs one role for every binding of one command, so its first binding speaks for all', () => {
    for (const b of KEYMAP) expect(b.role, `${b.command} in ${b.scope}`).toBe(bindingOf(b.command).role);
  });

  it('binds no key twice in one scope, counting the global keys every non-text scope inherits', () => {
    const scopes = [...new Set(KEYMAP.map((b) => b.scope))].filter((s) => s !== 'global');
    for (const scope of scopes) {
      const chain = scopeChain([scope as Scope]);
      const seen = new Map<string, string>();
      for (const s of chain) {
        for (const b of KEYMAP.filter((x) => x.scope === s)) {
          for (const k of b.keys) {
            // A view's binding may deliberately override a global one (esc, q in help); same scope twice may not.
            const prior = seen.get(`${s}:${k}`);
            expect(prior, `${k} in ${s}: ${prior} and ${b.command}`).toBeUndefined();
            seen.set(`${s}:${k}`, b.command);
          }
        }
      }
    }
  });

  it('matches arrows, vim keys and specials, most specific scope first', () => {
    expect(matchCommand('j', key(), ['board', 'list'])).toBe('list.down');
    expect(matchCommand('', key({ downArrow: true }), ['board', 'list'])).toBe('list.down');
    expect(matchCommand('G', key({ shift: true }), ['board', 'list'])).toBe('list.last');
    expect(matchCommand('', key({ return: true }), ['board', 'list'])).toBe('board.open');
    expect(matchCommand('q', key(), ['board', 'list'])).toBe('app.quit');
    expect(matchCommand('c', key({ ctrl: true }), ['filter'])).toBe('app.quit');
  });

  it('binds the actions on a check (ctrl+r, z) on the board, the check and the result, clashing with nothing there', () => {
    for (const scopes of [['board', 'list'], ['check', 'list'], ['result']] as Scope[][]) {
      expect(matchCommand('r', key({ ctrl: true }), scopes), scopes[0]).toBe('act.runNow');
      expect(matchCommand('z', key(), scopes), scopes[0]).toBe('act.pause');
      // ctrl+r is not r (poll now), nor R (the check view's response-time floor).
      expect(matchCommand('r', key(), scopes)).toBe('app.refresh');
      const chain = scopeChain(scopes);
      for (const k of ['ctrl+r', 'z']) {
        const bound = KEYMAP.filter((b) => chain.includes(b.scope) && b.keys.includes(k));
        expect(
          bound.map((b) => b.command),
          `${k} in ${scopes[0]}`,
        ).toEqual([k === 'z' ? 'act.pause' : 'act.runNow']);
      }
    }
    // Nowhere else: not in the wall, the metrics, the lists of dashboards or channels, nor any form.
    const elsewhere = KEYMAP.filter(
      (b) => b.command.startsWith('act.') && !['board', 'check', 'result'].includes(b.scope),
    );
    expect(elsewhere).toEqual([]);
  });

  it('treats printable keys as text in the filter and the prompt', () => {
    for (const scope of TEXT_SCOPES) {
      expect(matchCommand('q', key(), [scope])).toBeUndefined();
      expect(matchCommand('j', key(), [scope])).toBeUndefined();
    }
    expect(matchCommand('', key({ escape: true }), ['filter'])).toBe('filter.clear');
  });
});
