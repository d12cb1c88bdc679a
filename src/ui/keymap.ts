// One table of every key: it drives input, the footer hints and the ? overlay.
// Text-entry scopes (filter, tags, prompt, form) take printable keys as text:
// only their own bindings and Ctrl-C apply there. The commands are this table's
// (CommandId): each needs a handler (commands/index.ts), checked by the compiler.
// A binding that reaches an operate or admin route says so (`role`, as
// docs/roles.md has it): commands/disabled.ts reads it, for every place a key is
// offered or refused.
import type { Key } from 'ink';

export type Scope =
  | 'global'
  | 'board'
  | 'list'
  | 'filter'
  | 'tags'
  | 'prompt'
  | 'help'
  | 'placeholder'
  | 'wall'
  | 'check'
  | 'result'
  | 'metrics'
  | 'dashboards'
  | 'channels'
  | 'confirm'
  | 'discard'
  | 'form-type'
  | 'form'
  | 'form-subs'
  | 'form-choice'
  | 'pick'
  | 'pick-search'
  | 'silence'
  | 'maintenance'
  | 'window-confirm'
  | 'window-extend'
  | 'channel-grouping'
  | 'menu'
  | 'pane'
  | 'ask';

/** The role a binding needs beyond `read` (every key may read). */
export type NeededRole = 'operate' | 'admin';

interface BindingSpec {
  readonly command: string;
  readonly keys: readonly string[];
  readonly scope: Scope;
  readonly help: string;
  /** Shown in the footer of its scope. */
  readonly hint?: string;
  /** The least role of the API key that the route behind this key accepts; absent: read. */
  readonly role?: NeededRole;
}

const BINDINGS = [
  { command: 'app.quit', keys: ['q', 'ctrl+c'], scope: 'global', help: 'quit', hint: 'quit' },
  { command: 'app.help', keys: ['?'], scope: 'global', help: 'show or hide this help', hint: 'help' },
  {
    command: 'app.back',
    keys: ['esc'],
    scope: 'global',
    help: 'back one level (on the board, clear an applied filter first)',
  },
  {
    command: 'app.prompt',
    keys: [':'],
    scope: 'global',
    help: 'jump to a view by name (board, metrics, dashboards, channels, maintenance, locations, wall)',
  },
  { command: 'app.refresh', keys: ['r'], scope: 'global', help: 'poll the service now' },
  { command: 'app.pause', keys: ['p'], scope: 'global', help: 'pause or resume polling' },
  { command: 'list.down', keys: ['j', 'down'], scope: 'list', help: 'next row', hint: 'move' },
  { command: 'list.up', keys: ['k', 'up'], scope: 'list', help: 'previous row' },
  { command: 'list.pageDown', keys: ['pagedown', 'ctrl+d'], scope: 'list', help: 'page down' },
  { command: 'list.pageUp', keys: ['pageup', 'ctrl+u'], scope: 'list', help: 'page up' },
  { command: 'list.first', keys: ['g', 'home'], scope: 'list', help: 'first row' },
  { command: 'list.last', keys: ['G', 'end'], scope: 'list', help: 'last row' },
  { command: 'board.open', keys: ['enter'], scope: 'board', help: 'open the selected check', hint: 'open' },
  {
    command: 'board.filter',
    keys: ['/'],
    scope: 'board',
    help: 'filter: words, status:failing, type:api, tag:x, group:x, location:x',
    hint: 'filter',
  },
  {
    command: 'board.nextFailing',
    keys: ['f'],
    scope: 'board',
    help: 'jump to the next failing check',
    hint: 'next failing',
  },
  { command: 'board.sort', keys: ['s'], scope: 'board', help: 'sort by the next column', hint: 'sort' },
  { command: 'board.reverse', keys: ['S'], scope: 'board', help: 'reverse the sort' },
  {
    command: 'board.group',
    keys: ['t'],
    scope: 'board',
    help: 'group by check group on or off',
    hint: 'group',
  },
  {
    command: 'board.openFailed',
    keys: ['F'],
    scope: 'board',
    help: 'open the latest failed result of the selected check',
    hint: 'latest failure',
  },
  {
    command: 'board.metrics',
    keys: ['m'],
    scope: 'board',
    help: 'metric catalogue, rated for the selected check',
  },
  {
    command: 'board.maintenance',
    keys: ['M'],
    scope: 'board',
    help: 'maintenance: silence the selected check, its group or the checks the filter shows, for a time, with a reason',
    role: 'operate',
  },
  { command: 'check.open', keys: ['enter'], scope: 'check', help: 'open the selected result', hint: 'open' },
  {
    command: 'check.period',
    keys: ['P'],
    scope: 'check',
    help: 'period: 1h, 6h, 24h, 7d, 30d',
    hint: 'period',
  },
  {
    command: 'check.status',
    keys: ['x'],
    scope: 'check',
    help: 'results: all, failed only, successful only',
    hint: 'failed/all',
  },
  {
    command: 'check.location',
    keys: ['l'],
    scope: 'check',
    help: 'results of one location after another, then all',
  },
  { command: 'check.trigger', keys: ['T'], scope: 'check', help: 'triggered by: schedule, api, manual, any' },
  {
    command: 'check.range',
    keys: ['R'],
    scope: 'check',
    help: 'response time at least: any, 200, 500, 1000 ms',
  },
  {
    command: 'check.sort',
    keys: ['o'],
    scope: 'check',
    help: 'sort results by started at, duration, response time',
  },
  { command: 'check.reverse', keys: ['O'], scope: 'check', help: 'reverse the results sort' },
  {
    command: 'check.acknowledge',
    keys: ['a'],
    scope: 'check',
    help: 'acknowledge the check’s open alert: its reminders stop (asks first)',
    hint: 'acknowledge',
    role: 'operate',
  },
  {
    command: 'check.deliveries',
    keys: ['D'],
    scope: 'check',
    help: 'show all the alert deliveries fetched, or only as many as fit',
  },
  {
    command: 'check.maintenance',
    keys: ['M'],
    scope: 'check',
    help: 'maintenance: silence this check or its group, for a time, with a reason',
    role: 'operate',
  },
  { command: 'check.nextPage', keys: [']'], scope: 'check', help: 'next page of results' },
  { command: 'check.prevPage', keys: ['['], scope: 'check', help: 'previous page of results' },
  {
    command: 'check.metrics',
    keys: ['m'],
    scope: 'check',
    help: 'metric catalogue, rated for this check',
    hint: 'metrics',
  },
  { command: 'result.next', keys: ['n'], scope: 'result', help: 'next result of the list', hint: 'next' },
  {
    command: 'result.prev',
    keys: ['p'],
    scope: 'result',
    help: 'previous result of the list',
    hint: 'previous',
  },
  // No footer hint: only browser runs have a picture, and theirs say so under the failure.
  {
    command: 'result.screenshot',
    keys: ['i'],
    scope: 'result',
    help: "show or hide the screenshot of a browser run's page",
  },
  {
    command: 'result.saveScreenshot',
    keys: ['o'],
    scope: 'result',
    help: 'save the screenshot to a PNG file',
  },
  { command: 'result.down', keys: ['j', 'down'], scope: 'result', help: 'scroll down', hint: 'scroll' },
  { command: 'result.up', keys: ['k', 'up'], scope: 'result', help: 'scroll up' },
  { command: 'result.pageDown', keys: ['pagedown', 'space'], scope: 'result', help: 'scroll a page down' },
  { command: 'result.pageUp', keys: ['pageup'], scope: 'result', help: 'scroll a page up' },
  // Acting on a check (docs/actions.md): on the board's selected check, the open check, the open
  // result's check. `R` is the check view's response-time floor, hence ctrl+r. No footer
  // hints: the footer has no room for them on the board.
  ...(['board', 'check', 'result'] as const).flatMap((scope) => [
    {
      command: 'act.runNow',
      keys: ['ctrl+r'],
      scope,
      help: 'run the check now at each of its locations, then follow the runs (asks first)',
      role: 'operate',
    } as const,
    {
      command: 'act.pause',
      keys: ['z'],
      scope,
      help: 'pause the check (it stops running until resumed), or resume it (asks first)',
      role: 'operate',
    } as const,
  ]),
  // Runbooks, links and copy (docs/console.md): on the board's selected check, the open
  // check, the open result. No footer hints on the board and check: no room there.
  ...(['board', 'check', 'result'] as const).flatMap((scope) => [
    {
      command: 'hands.open',
      keys: ['b'],
      scope,
      help: 'open the runbook (or the target) in a browser; without a display, show it whole and copy it',
    } as const,
    {
      command: 'hands.links',
      keys: ['L'],
      scope,
      help: 'the check’s links (runbook, links, target): open or copy one',
    } as const,
    {
      command: 'hands.copy',
      keys: ['y'],
      scope,
      help:
        scope === 'result'
          ? 'copy the error whole (no answer, a script failed), else the request as curl (OSC 52)'
          : 'copy the check’s id, through the terminal (OSC 52)',
      ...(scope === 'result' ? { hint: 'copy' } : {}),
    } as const,
    { command: 'hands.copyMenu', keys: ['Y'], scope, help: 'choose what to copy' } as const,
  ]),
  { command: 'menu.down', keys: ['j', 'down'], scope: 'menu', help: 'next in the menu', hint: 'move' },
  { command: 'menu.up', keys: ['k', 'up'], scope: 'menu', help: 'previous in the menu' },
  {
    command: 'menu.choose',
    keys: ['enter'],
    scope: 'menu',
    help: 'open the link, or copy the text',
    hint: 'choose',
  },
  { command: 'menu.copy', keys: ['y'], scope: 'menu', help: 'copy it', hint: 'copy' },
  { command: 'menu.open', keys: ['o'], scope: 'menu', help: 'open it in a browser (an http(s) link)' },
  { command: 'menu.close', keys: ['esc', 'q'], scope: 'menu', help: 'close the menu', hint: 'close' },
  { command: 'pane.down', keys: ['j', 'down'], scope: 'pane', help: 'scroll down', hint: 'scroll' },
  { command: 'pane.up', keys: ['k', 'up'], scope: 'pane', help: 'scroll up' },
  { command: 'pane.close', keys: ['esc', 'q'], scope: 'pane', help: 'close the text', hint: 'close' },
  { command: 'ask.yes', keys: ['y', 'enter'], scope: 'ask', help: 'yes, run it', hint: 'yes' },
  { command: 'ask.no', keys: ['n', 'esc'], scope: 'ask', help: 'no, leave it', hint: 'no' },
  {
    command: 'metrics.type',
    keys: ['t'],
    scope: 'metrics',
    help: 'catalogue of the next check type',
    hint: 'type',
  },
  {
    command: 'metrics.category',
    keys: ['c'],
    scope: 'metrics',
    help: 'next category (through the API)',
    hint: 'category',
  },
  { command: 'metrics.down', keys: ['j', 'down'], scope: 'metrics', help: 'scroll down', hint: 'scroll' },
  { command: 'metrics.up', keys: ['k', 'up'], scope: 'metrics', help: 'scroll up' },
  {
    command: 'wall.board',
    keys: ['enter'],
    scope: 'wall',
    help: 'switch to the interactive board',
    hint: 'board',
  },
  {
    command: 'dashboards.open',
    keys: ['enter'],
    scope: 'dashboards',
    help: 'open the dashboard: the board scoped to it, with its widgets',
    hint: 'open',
  },
  {
    command: 'dashboards.tags',
    keys: ['/'],
    scope: 'dashboards',
    help: 'filter by tags (asked of the service): words or commas, enter applies',
    hint: 'tags',
  },
  {
    command: 'dashboards.privacy',
    keys: ['x'],
    scope: 'dashboards',
    help: 'privacy: all, private only, public only',
    hint: 'privacy',
  },
  { command: 'dashboards.nextPage', keys: [']'], scope: 'dashboards', help: 'next page of dashboards' },
  { command: 'dashboards.prevPage', keys: ['['], scope: 'dashboards', help: 'previous page of dashboards' },
  {
    command: 'channels.new',
    keys: ['n'],
    scope: 'channels',
    help: 'create an alert channel',
    hint: 'new',
    role: 'admin',
  },
  {
    command: 'channels.reveal',
    keys: ['v'],
    scope: 'channels',
    help: 'reveal the selected channel’s secrets until you move or leave',
    hint: 'reveal',
    // A read key is shown every channel's secrets masked (docs/roles.md): there is nothing to reveal.
    role: 'operate',
  },
  {
    command: 'channels.test',
    keys: ['T'],
    scope: 'channels',
    help: 'send the selected channel a test notification; its outcome shows in the row',
    hint: 'test',
    role: 'admin',
  },
  {
    command: 'channels.grouping',
    keys: ['w'],
    scope: 'channels',
    help: 'change the selected channel’s grouping window (90, 2m, off; blank: its type’s default)',
    hint: 'window',
    role: 'admin',
  },
  {
    command: 'channels.subscriptions',
    keys: ['s'],
    scope: 'channels',
    help: 'change the checks and groups the selected channel serves, chosen from lists',
    hint: 'serves',
    role: 'admin',
  },
  {
    command: 'channelGrouping.apply',
    keys: ['enter'],
    scope: 'channel-grouping',
    help: 'set the window typed',
  },
  { command: 'channelGrouping.cancel', keys: ['esc'], scope: 'channel-grouping', help: 'leave it as it is' },
  {
    command: 'channelGrouping.erase',
    keys: ['backspace'],
    scope: 'channel-grouping',
    help: 'erase a character',
  },
  {
    command: 'channels.saveSecret',
    keys: ['o'],
    scope: 'channels',
    help: 'save the new WEBHOOK’s signing secret (shown once) to a file only you can read',
  },
  { command: 'channels.nextPage', keys: [']'], scope: 'channels', help: 'next page of channels' },
  { command: 'channels.prevPage', keys: ['['], scope: 'channels', help: 'previous page of channels' },
  { command: 'formType.down', keys: ['j', 'down'], scope: 'form-type', help: 'next type', hint: 'move' },
  { command: 'formType.up', keys: ['k', 'up'], scope: 'form-type', help: 'previous type' },
  {
    command: 'formType.choose',
    keys: ['enter'],
    scope: 'form-type',
    help: 'fill in a channel of this type',
    hint: 'choose',
  },
  { command: 'formType.back', keys: ['esc'], scope: 'form-type', help: 'back to the channels', hint: 'back' },
  { command: 'form.next', keys: ['tab', 'down'], scope: 'form', help: 'next field', hint: 'next field' },
  { command: 'form.prev', keys: ['shift+tab', 'up'], scope: 'form', help: 'previous field' },
  {
    command: 'form.submit',
    keys: ['enter'],
    scope: 'form',
    help: 'create the channel (or, after s, save what it serves)',
    hint: 'save',
  },
  {
    command: 'form.escape',
    keys: ['esc'],
    scope: 'form',
    help: 'back to the types (after s, to the list); asks first when something was changed',
    hint: 'back',
  },
  { command: 'form.erase', keys: ['backspace'], scope: 'form', help: 'erase a character' },
  { command: 'form.addHeader', keys: ['ctrl+n'], scope: 'form', help: 'WEBHOOK: add a header row' },
  { command: 'form.addQuery', keys: ['ctrl+p'], scope: 'form', help: 'WEBHOOK: add a query parameter row' },
  { command: 'form.removeRow', keys: ['ctrl+x'], scope: 'form', help: 'WEBHOOK: remove the focused row' },
  {
    command: 'formChoice.next',
    keys: ['right', 'space'],
    scope: 'form-choice',
    help: 'next choice (a CHAT service, a WEBHOOK format, a method)',
    hint: 'choose',
  },
  { command: 'formChoice.prev', keys: ['left'], scope: 'form-choice', help: 'previous choice' },
  {
    command: 'formSubs.pick',
    keys: ['/', 'space'],
    scope: 'form-subs',
    help: 'choose the checks or groups the channel serves from a list',
    hint: 'choose',
  },
  { command: 'pick.down', keys: ['j', 'down'], scope: 'pick', help: 'next in the list', hint: 'move' },
  { command: 'pick.up', keys: ['k', 'up'], scope: 'pick', help: 'previous in the list' },
  {
    command: 'pick.toggle',
    keys: ['space', 'x'],
    scope: 'pick',
    help: 'subscribe or unsubscribe',
    hint: 'toggle',
  },
  { command: 'pick.search', keys: ['/'], scope: 'pick', help: 'search the list', hint: 'search' },
  { command: 'pick.close', keys: ['enter', 'esc'], scope: 'pick', help: 'back to the form', hint: 'done' },
  { command: 'pickSearch.apply', keys: ['enter'], scope: 'pick-search', help: 'keep the search' },
  { command: 'pickSearch.clear', keys: ['esc'], scope: 'pick-search', help: 'clear the search' },
  { command: 'pickSearch.erase', keys: ['backspace'], scope: 'pick-search', help: 'erase a character' },
  {
    command: 'silence.next',
    keys: ['enter'],
    scope: 'silence',
    help: 'maintenance prompt: on to the reason; on the reason, start the window',
  },
  {
    command: 'silence.back',
    keys: ['esc'],
    scope: 'silence',
    help: 'maintenance prompt: back to how long; from there, start nothing',
  },
  {
    command: 'silence.target',
    keys: ['tab'],
    scope: 'silence',
    help: 'maintenance prompt: another target (filtered checks, the check, its group)',
  },
  { command: 'silence.erase', keys: ['backspace'], scope: 'silence', help: 'erase a character' },
  {
    command: 'maintenance.end',
    keys: ['e'],
    scope: 'maintenance',
    help: 'end the selected window now (a scheduled one is cancelled); asks first',
    hint: 'end',
    role: 'operate',
  },
  {
    command: 'maintenance.extend',
    keys: ['+'],
    scope: 'maintenance',
    help: 'extend the selected window by a duration (15m, 1h, 4h…)',
    hint: 'extend',
    role: 'operate',
  },
  {
    command: 'windowConfirm.yes',
    keys: ['y', 'enter'],
    scope: 'window-confirm',
    help: 'yes, end it',
    hint: 'yes',
  },
  {
    command: 'windowConfirm.no',
    keys: ['n', 'esc'],
    scope: 'window-confirm',
    help: 'no, leave it',
    hint: 'no',
  },
  {
    command: 'windowExtend.apply',
    keys: ['enter'],
    scope: 'window-extend',
    help: 'extend by the duration typed',
  },
  { command: 'windowExtend.cancel', keys: ['esc'], scope: 'window-extend', help: 'do not extend' },
  { command: 'windowExtend.erase', keys: ['backspace'], scope: 'window-extend', help: 'erase a character' },
  {
    command: 'filter.apply',
    keys: ['enter'],
    scope: 'filter',
    help: 'keep the filter and go back to the list',
  },
  { command: 'filter.clear', keys: ['esc'], scope: 'filter', help: 'clear the filter' },
  { command: 'filter.erase', keys: ['backspace'], scope: 'filter', help: 'erase a character' },
  {
    command: 'tags.apply',
    keys: ['enter'],
    scope: 'tags',
    help: 'ask the service for dashboards with these tags',
  },
  { command: 'tags.clear', keys: ['esc'], scope: 'tags', help: 'clear the tags' },
  { command: 'tags.erase', keys: ['backspace'], scope: 'tags', help: 'erase a character' },
  { command: 'prompt.go', keys: ['enter'], scope: 'prompt', help: 'go to the view named' },
  { command: 'prompt.cancel', keys: ['esc'], scope: 'prompt', help: 'cancel' },
  { command: 'prompt.erase', keys: ['backspace'], scope: 'prompt', help: 'erase a character' },
  { command: 'help.close', keys: ['esc', '?', 'q'], scope: 'help', help: 'close the help', hint: 'close' },
  { command: 'help.down', keys: ['j', 'down'], scope: 'help', help: 'scroll the help down', hint: 'scroll' },
  { command: 'help.up', keys: ['k', 'up'], scope: 'help', help: 'scroll the help up' },
  { command: 'help.pageDown', keys: ['pagedown', 'ctrl+d', 'space'], scope: 'help', help: 'a page down' },
  { command: 'help.pageUp', keys: ['pageup', 'ctrl+u'], scope: 'help', help: 'a page up' },
  {
    command: 'discard.yes',
    keys: ['y', 'esc'],
    scope: 'discard',
    help: 'discard what you typed and leave the form',
    hint: 'discard',
  },
  { command: 'discard.no', keys: ['n'], scope: 'discard', help: 'keep editing', hint: 'keep' },
  { command: 'confirm.yes', keys: ['y', 'enter'], scope: 'confirm', help: 'yes, do it', hint: 'yes' },
  { command: 'confirm.no', keys: ['n', 'esc'], scope: 'confirm', help: 'no, leave it', hint: 'no' },
] as const satisfies readonly BindingSpec[];

/** Every command there is: the ones the table binds. */
export type CommandId = (typeof BINDINGS)[number]['command'];

export interface Binding extends BindingSpec {
  readonly command: CommandId;
}

export const KEYMAP: readonly Binding[] = BINDINGS;

/** A command's keys as a message names them ("y/enter"), read from its first binding. */
export const keysOf = (command: CommandId): string => bindingOf(command).keys.join('/');

const FIRST_BINDING = new Map<CommandId, Binding>([...KEYMAP].reverse().map((b) => [b.command, b] as const));

/** The first binding of a command: every binding of one command needs the same role (keymap.test.ts). */
export const bindingOf = (command: CommandId): Binding => FIRST_BINDING.get(command)!;

export type TextScope =
  'filter' | 'tags' | 'prompt' | 'form' | 'pick-search' | 'silence' | 'window-extend' | 'channel-grouping';
export const TEXT_SCOPES: ReadonlySet<Scope> = new Set<TextScope>([
  'filter',
  'tags',
  'prompt',
  'form',
  'pick-search',
  'silence',
  'window-extend',
  'channel-grouping',
]);

/** Ink's (input, key) as one name: "j", "G", "enter", "ctrl+c", "pagedown"… */
export function keyName(input: string, key: Key): string {
  if (key.ctrl && input) return `ctrl+${input.toLowerCase()}`;
  if (key.return) return 'enter';
  if (key.escape) return 'esc';
  if (key.upArrow) return 'up';
  if (key.downArrow) return 'down';
  if (key.leftArrow) return 'left';
  if (key.rightArrow) return 'right';
  if (key.pageUp) return 'pageup';
  if (key.pageDown) return 'pagedown';
  if (key.home) return 'home';
  if (key.end) return 'end';
  if (key.tab) return key.shift ? 'shift+tab' : 'tab';
  if (key.backspace || key.delete) return 'backspace';
  if (input === ' ') return 'space';
  return input;
}

/** Scopes that take the keys alone, global ones aside (a menu, a text, a question on top). */
const ALONE: ReadonlySet<Scope> = new Set<Scope>(['menu', 'pane', 'ask']);

/** The scopes searched for a view, most specific first. */
export function scopeChain(scopes: readonly Scope[]): Scope[] {
  if (scopes.some((s) => TEXT_SCOPES.has(s) || ALONE.has(s))) return [...scopes];
  return [...scopes, 'global'];
}

export function matchCommand(input: string, key: Key, scopes: readonly Scope[]): CommandId | undefined {
  const name = keyName(input, key);
  if (name === 'ctrl+c') return 'app.quit';
  for (const scope of scopeChain(scopes)) {
    const hit = KEYMAP.find((b) => b.scope === scope && b.keys.includes(name));
    if (hit) return hit.command;
  }
  return undefined;
}

/** The footer's hints of these scopes: the bindings `offered` (commands/disabled.ts says which are not). */
export function hintsFor(
  scopes: readonly Scope[],
  offered: (b: Binding) => boolean = () => true,
): Array<{ keys: string; hint: string }> {
  return scopeChain(scopes).flatMap((scope) =>
    KEYMAP.filter((b) => b.scope === scope && b.hint && offered(b)).map((b) => ({
      keys: b.keys.slice(0, 2).join('/'),
      hint: b.hint!,
    })),
  );
}
