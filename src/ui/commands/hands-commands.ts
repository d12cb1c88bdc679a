// b, L, y, Y and their menu (docs/console.md, "Runbooks, links and copy"): open
// a link where there is a display, copy through the terminal (OSC 52) where
// there is not, and say what was done; a text past the copy cap is shown whole.
import { clipText, copiedMessage, pasteSafe } from '../../domain/clipboard.js';
import { curlCommand } from '../../domain/curl.js';
import { safeLinkUrl } from '../../domain/links.js';
import type { HandsItem } from '../../store/hands-slice.js';
import type { CheckResult } from '../../store/types.js';
import { handsNoteFits } from '../views/hands/hands-note.js';
import { paneScrollEnd } from '../views/hands/hands-panel.js';
import { state, type CommandContext, type Handlers } from './context.js';
import { handsSubject, linksOf, runbookOf, targetOf, type HandsSubject } from './hands-subject.js';
import { USER_HANDLERS } from './user-commands.js';

/** Copies `text` and says so; past the cap (or when asked), the whole text is shown to select by hand. */
export function copyText(
  ctx: CommandContext,
  text: string,
  what: string,
  also = '',
  showWhole = false,
): void {
  const s = state(ctx);
  const clip = ctx.actions.copy ? clipText(pasteSafe(text)) : null;
  if (clip) ctx.actions.copy?.(clip.sent);
  s.setHandsNote(`${what}: ${clip ? copiedMessage(clip) + also : 'no terminal to copy through'}`);
  if (clip?.cut || showWhole)
    s.openHandsPanel({ kind: 'text', title: `${what} (whole; select it by hand)`, text, at: 0 });
}

/**
 * Opens an http(s) URL, or (no display) copies it and shows it whole: in the note, or where the
 * note would cut it (it holds half the screen), in the pane that scrolls.
 */
export function openUrl(ctx: CommandContext, url: string, what: string): void {
  const safe = safeLinkUrl(url);
  if (!safe) return state(ctx).setHandsNote(`${what}: only http(s) links are opened`);
  if (ctx.actions.open?.(safe)) return state(ctx).setHandsNote(`${what}: opening ${safe}`);
  const named = `${what} ${safe} (no display to open a browser on)`;
  if (handsNoteFits(state(ctx), `${named}: ${copiedMessage(clipText(safe))}`))
    return copyText(ctx, safe, named);
  copyText(ctx, safe, `${what} (no display to open a browser on)`, '', true);
}

/** The error a result or a check's last run ended with, whole. */
function errorText(subject: HandsSubject): string | null {
  const error = subject.result?.error;
  if (error)
    return error.stack.includes(error.message)
      ? error.stack
      : `${error.name}: ${error.message}\n${error.stack}`;
  return subject.where !== 'result' ? (subject.check?.lastExecution?.error ?? null) : null;
}

/** What Y offers to copy here. */
export function copyItems(subject: HandsSubject): HandsItem[] {
  const copy = (label: string, value: string | null | undefined): HandsItem[] =>
    value ? [{ label, value, act: 'copy' }] : [];
  const line = (label: string, value: string | null | undefined) =>
    copy(label, value && pasteSafe(value, true));
  const r = subject.result;
  const items = [
    ...(r && curlable(r) ? copy('the request as curl', curlCommand(r.request)) : []),
    ...line('the check id', subject.checkId),
    ...line('the check name', subject.check?.checkName ?? r?.checkName),
    ...copy('the error, whole', errorText(subject)),
    ...line('the URL', targetOf(subject)),
    ...(r ? line('the result id', r.id) : []),
    ...(r?.response ? copy('the response body', r.response.body) : []),
    ...linksOf(subject).flatMap((l) => copy(`${l.label} link`, l.value)),
  ];
  // One line a value: the target's link is the URL above it.
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = safeLinkUrl(item.value) ?? item.value;
    return seen.has(key) ? false : Boolean(seen.add(key));
  });
}

/** Checks whose failure is a script's step, which a curl of one request does not reproduce. */
const SCRIPTED: ReadonlySet<string> = new Set(['browser', 'multistep']);

/** Whether curl can send the result's request again: an http(s) URL (not a tcp:// or a heartbeat's). */
const curlable = (r: CheckResult): boolean => safeLinkUrl(r.request.url) !== null;

/**
 * What y copies (docs/decisions.md, "46: y on a result"): the error whole when it is the finding
 * (the run got no answer, a script's step failed, or curl cannot send the request); else the
 * request as curl when curl can send it (an answer it got, an error status among them, comes back
 * the same way); else the result's id. Off a result, the check's id.
 */
export function copyChoice(subject: HandsSubject): { text: string; what: string; also?: string } {
  const r = subject.result;
  if (!r) return { text: pasteSafe(subject.checkId, true), what: 'check id' };
  const error = r.error ? errorText(subject) : null;
  const errorIsIt = error && (r.response === null || SCRIPTED.has(r.checkType) || !curlable(r));
  if (errorIsIt)
    return { text: error, what: 'error', ...(curlable(r) ? { also: '; Y copies the request as curl' } : {}) };
  if (curlable(r)) return { text: curlCommand(r.request), what: 'curl' };
  return { text: pasteSafe(r.id, true), what: 'result id' };
}

function whenSubject(ctx: CommandContext, act: (subject: HandsSubject) => void) {
  const subject = handsSubject(state(ctx));
  if (subject) act(subject);
  else state(ctx).setHandsNote('no check selected');
}

/** Acts on the menu's selected item: `act` as asked, or the item's own. */
function chooseItem(ctx: CommandContext, act?: 'copy' | 'open') {
  const panel = state(ctx).handsPanel;
  const item = panel?.kind === 'menu' ? panel.items[panel.at] : undefined;
  if (!item) return;
  state(ctx).closeHandsPanel();
  if ((act ?? item.act) === 'open') openUrl(ctx, item.value, item.label);
  else copyText(ctx, item.value, item.label);
}

export const HANDS_HANDLERS = {
  'hands.open': (ctx) =>
    whenSubject(ctx, (subject) => {
      // By where each comes from, not by label: a link of the check's may be named "target".
      const runbook = safeLinkUrl(runbookOf(subject));
      const target = safeLinkUrl(targetOf(subject));
      if (runbook) openUrl(ctx, runbook, 'runbook');
      else if (target) openUrl(ctx, target, 'target');
      else state(ctx).setHandsNote('b: no runbook, and no http(s) target yet');
    }),
  'hands.links': (ctx) =>
    whenSubject(ctx, (subject) => {
      const items = linksOf(subject);
      if (items.length === 0) return state(ctx).setHandsNote('L: this check has no http(s) links');
      state(ctx).openHandsPanel({ kind: 'menu', title: 'Links: enter opens, y copies', items, at: 0 });
    }),
  'hands.copy': (ctx) =>
    whenSubject(ctx, (subject) => {
      const { text, what, also } = copyChoice(subject);
      copyText(ctx, text, what, also);
    }),
  'hands.copyMenu': (ctx) =>
    whenSubject(ctx, (subject) =>
      state(ctx).openHandsPanel({ kind: 'menu', title: 'Copy', items: copyItems(subject), at: 0 }),
    ),
  'menu.down': (ctx) => state(ctx).moveHandsPanel(1),
  'menu.up': (ctx) => state(ctx).moveHandsPanel(-1),
  'menu.choose': (ctx) => chooseItem(ctx),
  'menu.copy': (ctx) => chooseItem(ctx, 'copy'),
  'menu.open': (ctx) => chooseItem(ctx, 'open'),
  'menu.close': (ctx) => state(ctx).closeHandsPanel(),
  'pane.down': (ctx) => state(ctx).moveHandsPanel(1, paneScrollEnd(state(ctx))),
  'pane.up': (ctx) => state(ctx).moveHandsPanel(-1, paneScrollEnd(state(ctx))),
  'pane.close': (ctx) => state(ctx).closeHandsPanel(),
  ...USER_HANDLERS,
} satisfies Handlers;
