// What each command of the keymap does. Handlers call store actions, or the
// console's own actions (quit, poll now, pause) handed in by the wiring layer.
import type { Key } from 'ink';
import type { ConsoleStore } from '../store/create-store.js';
import { selectView } from '../store/selectors.js';
import { VIEW_NAMES, type ViewName } from '../store/types.js';
import { CHECK_HANDLERS, openMetrics } from './check-commands.js';
import { matchCommand, TEXT_SCOPES, type Scope } from './keymap.js';

export interface ConsoleActions {
  quit(): void;
  pollNow(): void;
  togglePause(): void;
}

export interface CommandContext {
  store: ConsoleStore;
  actions: ConsoleActions;
  /** Rows of the visible list, for page moves. */
  pageSize: number;
}

type Handler = (ctx: CommandContext) => void;

/** Views reachable from `:`. */
export const JUMP_TARGETS: readonly ViewName[] = ['board', 'metrics', 'dashboards', 'channels', 'wall'];

const state = (ctx: CommandContext) => ctx.store.getState();

export const HANDLERS: Record<string, Handler> = {
  'app.quit': (ctx) => ctx.actions.quit(),
  'app.help': (ctx) => state(ctx).setOverlay(state(ctx).overlay === 'help' ? null : 'help'),
  'app.back': (ctx) => state(ctx).popView(),
  'app.prompt': (ctx) => state(ctx).setOverlay('prompt'),
  'app.refresh': (ctx) => ctx.actions.pollNow(),
  'app.pause': (ctx) => ctx.actions.togglePause(),
  'list.down': (ctx) => move(ctx, 1),
  'list.up': (ctx) => move(ctx, -1),
  'list.pageDown': (ctx) => move(ctx, Math.max(1, ctx.pageSize - 1)),
  'list.pageUp': (ctx) => move(ctx, -Math.max(1, ctx.pageSize - 1)),
  'list.first': (ctx) => move(ctx, 'first'),
  'list.last': (ctx) => move(ctx, 'last'),
  'board.open': (ctx) => openSelected(ctx, false),
  'board.openFailed': (ctx) => openSelected(ctx, true),
  'board.metrics': (ctx) => openMetrics(ctx, state(ctx).selectedId),
  ...CHECK_HANDLERS,
  'wall.board': (ctx) => state(ctx).replaceView('board'),
  'board.filter': (ctx) => state(ctx).openFilter(),
  'board.nextFailing': (ctx) => state(ctx).nextFailing(),
  'board.sort': (ctx) => state(ctx).cycleSort(),
  'board.reverse': (ctx) => state(ctx).reverseSort(),
  'board.group': (ctx) => state(ctx).toggleGrouping(),
  'filter.apply': (ctx) => state(ctx).closeFilter(false),
  'filter.clear': (ctx) => state(ctx).closeFilter(true),
  'filter.erase': (ctx) => state(ctx).setFilter(state(ctx).filterText.slice(0, -1)),
  'prompt.go': (ctx) => jump(ctx),
  'prompt.cancel': (ctx) => state(ctx).setOverlay(null),
  'prompt.erase': (ctx) => state(ctx).setPrompt(state(ctx).promptText.slice(0, -1)),
  'help.close': (ctx) => state(ctx).setOverlay(null),
};

function move(ctx: CommandContext, delta: number | 'first' | 'last') {
  if (selectView(state(ctx)).name === 'check') state(ctx).moveResult(delta);
  else state(ctx).moveSelection(delta);
}

function openSelected(ctx: CommandContext, failed: boolean) {
  const id = state(ctx).selectedId;
  if (id) state(ctx).openCheck(id, failed);
}

function jump(ctx: CommandContext) {
  const s = state(ctx);
  const wanted = s.promptText.trim().toLowerCase();
  const target = JUMP_TARGETS.find((v) => v === wanted || (wanted.length > 0 && v.startsWith(wanted)));
  if (!target) {
    s.setPrompt(s.promptText, `no view "${wanted}": try ${JUMP_TARGETS.join(', ')}`);
    return;
  }
  s.setOverlay(null);
  if (target === 'board') {
    while (ctx.store.getState().stack.length > 1) ctx.store.getState().popView();
    return;
  }
  if (target === 'metrics') return openMetrics(ctx, null);
  if (selectView(s).name !== target) s.pushView(target);
}

const isNewline = (ch: string) => ch === '\r' || ch === '\n';
// eslint-disable-next-line no-control-regex -- control characters are not text
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * One chunk of input from the terminal. Keys typed faster than a frame is drawn
 * (or sent together over SSH, or pasted) come as one chunk, "/search" or "jj":
 * Ink hands it over whole, and as one key it matched nothing and was lost. It is
 * taken a key at a time, as if typed slowly; text for the filter or the prompt
 * goes in as one run (one filter pass, not one per letter), and an Enter ends the
 * chunk, so pasted lines never turn into commands.
 */
export function dispatchInput(context: () => CommandContext, scopes: () => Scope[], input: string, key: Key) {
  if ([...input].length <= 1 || key.ctrl || key.meta || input.includes('\u001b')) {
    return dispatchKey(context(), scopes(), input, key);
  }
  const chars = [...input];
  for (let i = 0; i < chars.length; i++) {
    const active = scopes();
    const textScope = active.find((s) => TEXT_SCOPES.has(s));
    if (textScope === 'filter' || textScope === 'prompt') {
      let run = '';
      while (i < chars.length && !isNewline(chars[i]!)) run += chars[i++];
      typeText(context(), textScope, run);
      if (i < chars.length) HANDLERS[textScope === 'filter' ? 'filter.apply' : 'prompt.go']?.(context());
      return;
    }
    const ch = chars[i]!;
    if (isNewline(ch)) return dispatchKey(context(), active, '', { ...key, return: true });
    if (!CONTROL.test(ch)) dispatchKey(context(), active, ch, key);
  }
}

function dispatchKey(ctx: CommandContext, active: Scope[], input: string, key: Key) {
  const command = matchCommand(input, key, active);
  if (command) return HANDLERS[command]?.(ctx);
  const textScope = active.find((s) => TEXT_SCOPES.has(s));
  if (textScope === 'filter' || textScope === 'prompt') typeText(ctx, textScope, input);
}

/** Text typed into the filter or the prompt. */
export function typeText(ctx: CommandContext, scope: 'filter' | 'prompt', input: string) {
  const s = state(ctx);
  // Pasted text arrives as one string; keep only printable characters.
  // eslint-disable-next-line no-control-regex -- dropping control characters from typed text
  const clean = input.replace(/[\u0000-\u001f\u007f]/g, '');
  if (!clean) return;
  if (scope === 'filter') s.setFilter(s.filterText + clean);
  else s.setPrompt(s.promptText + clean);
}

export const isViewName = (name: string): name is ViewName =>
  (VIEW_NAMES as readonly string[]).includes(name);
