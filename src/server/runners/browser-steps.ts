// The steps of a multistep check, run in order in one page. Steps that need an
// element or a text wait for it (polling) until the run's time is up; a step
// that fails names itself in the run's error.
import type { StepConfig } from '../config-schema.js';
import type { PageWatch } from './browser-page.js';
import type { Page } from './browser-pool.js';
import { namedError } from './result.js';

/** Where a run is, so a timeout can say what it was waiting for. */
export interface Progress {
  step?: { index: number; of: number; text: string };
  waitingFor: string;
}

export interface StepContext {
  page: Page;
  watch: PageWatch;
  signal: AbortSignal;
  progress: Progress;
}

const POLL_MS = 100;
/** assertText looks again for this long before it fails: text revealed by a click may lag a frame. */
const ASSERT_GRACE_MS = 2_000;
/** How long a failed assertText may take to read what the page shows instead. */
const TEXT_READ_MS = 1_000;

export function describeStep(step: StepConfig): string {
  switch (step.action) {
    case 'goto':
      return `goto ${step.url}`;
    case 'click':
      return `click ${JSON.stringify(step.selector)}`;
    case 'type':
      return `type into ${JSON.stringify(step.selector)}`;
    case 'waitFor':
      return step.selector !== undefined
        ? `waitFor ${JSON.stringify(step.selector)}`
        : `waitFor text ${JSON.stringify(step.text)}`;
    case 'assertText':
      return `assertText ${JSON.stringify(step.contains)}${step.selector ? ` in ${JSON.stringify(step.selector)}` : ''}`;
  }
}

export async function runSteps(steps: readonly StepConfig[], ctx: StepContext): Promise<void> {
  for (const [index, step] of steps.entries()) {
    ctx.progress.step = { index, of: steps.length, text: describeStep(step) };
    try {
      await runStep(step, ctx);
    } catch (error) {
      if (ctx.signal.aborted) throw error; // the runner words timeouts, with the progress above
      throw namedError('StepFailed', `${stepLabel(ctx.progress)}: ${(error as Error).message}`);
    }
  }
  delete ctx.progress.step;
}

export function stepLabel(progress: Progress): string {
  const s = progress.step;
  return s ? `step ${s.index + 1} of ${s.of} (${s.text})` : '';
}

async function runStep(step: StepConfig, ctx: StepContext): Promise<void> {
  switch (step.action) {
    case 'goto': {
      const url = new URL(step.url, await ctx.watch.evaluate<string>('location.href')).href;
      ctx.progress.waitingFor = `${url} did not finish loading`;
      const nav = await ctx.watch.navigate(url, ctx.signal);
      const status = nav.response?.status ?? 0;
      if (status >= 400) throw new Error(`the server answered ${status} for ${url}`);
      return;
    }
    case 'click':
      return click(await element(step.selector, ctx), ctx.page);
    case 'type': {
      await click(await element(step.selector, ctx), ctx.page);
      for (const key of step.text) {
        await ctx.page.send('Input.dispatchKeyEvent', {
          type: 'keyDown',
          key,
          text: key,
          unmodifiedText: key,
        });
        await ctx.page.send('Input.dispatchKeyEvent', { type: 'keyUp', key });
      }
      return;
    }
    case 'waitFor':
      if (step.selector !== undefined) await element(step.selector, ctx);
      else await textShown(step.text ?? '', undefined, ctx, ctx.signal);
      return;
    case 'assertText': {
      const grace = AbortSignal.any([ctx.signal, AbortSignal.timeout(ASSERT_GRACE_MS)]);
      const found = await textShown(step.contains, step.selector, ctx, grace).catch(() => null);
      if (found !== null) return;
      if (ctx.signal.aborted) throw ctx.signal.reason as Error;
      // What the page shows, for the message: worth a short wait, not the rest of the run.
      const look = AbortSignal.any([ctx.signal, AbortSignal.timeout(TEXT_READ_MS)]);
      const seen = await until(look, ctx.watch.evaluate<string | null>(textOf(step.selector))).catch(
        () => null,
      );
      if (ctx.signal.aborted) throw ctx.signal.reason as Error;
      throw new Error(
        seen === null
          ? `no element matches ${JSON.stringify(step.selector)}`
          : `expected text containing ${JSON.stringify(step.contains)}, found ${JSON.stringify(clip(seen))}`,
      );
    }
  }
}

type Point = { x: number; y: number };

/** A visible element's centre, scrolled into view; waits until there is one. */
function element(selector: string, ctx: StepContext): Promise<Point> {
  ctx.progress.waitingFor = `no visible element matches ${JSON.stringify(selector)}`;
  return poll(
    ctx,
    ctx.signal,
    `(() => {
    const el = document.querySelector(${JSON.stringify(selector)});
    if (!el) return null;
    el.scrollIntoView({ block: 'center', inline: 'center' });
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0 || getComputedStyle(el).visibility === 'hidden') return null;
    return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
  })()`,
  );
}

function textShown(text: string, selector: string | undefined, ctx: StepContext, signal: AbortSignal) {
  ctx.progress.waitingFor = `the text ${JSON.stringify(text)} did not appear`;
  return poll<boolean>(ctx, signal, `(${textOf(selector)} ?? '').includes(${JSON.stringify(text)}) || null`);
}

const textOf = (selector: string | undefined) =>
  selector === undefined
    ? `(document.body ? document.body.innerText : '')`
    : `(document.querySelector(${JSON.stringify(selector)})?.innerText ?? null)`;

/** Evaluates `expression` until it is not null. A page navigating in between is simply asked again. */
async function poll<T>(ctx: StepContext, signal: AbortSignal, expression: string): Promise<T> {
  for (;;) {
    if (signal.aborted) throw signal.reason as Error;
    // One evaluation can stall (a renderer starved of CPU): the wait still ends when its signal does.
    const value = await until(signal, ctx.watch.evaluate<T | null>(expression)).catch((error: Error) => {
      if (signal.aborted) throw signal.reason as Error;
      if (/is not a valid selector/.test(error.message)) throw new Error(firstLine(error.message));
      return null;
    });
    if (value !== null && value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

async function click(at: Point, page: Page): Promise<void> {
  const mouse = { x: at.x, y: at.y, button: 'left', clickCount: 1 };
  await page.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x: at.x, y: at.y });
  await page.send('Input.dispatchMouseEvent', { type: 'mousePressed', ...mouse });
  await page.send('Input.dispatchMouseEvent', { type: 'mouseReleased', ...mouse });
}

const clip = (text: string) => (text.length > 120 ? `${text.slice(0, 117)}...` : text).replace(/\s+/g, ' ');
const firstLine = (text: string) => text.split('\n')[0] ?? text;

/** `work`, or the signal's reason as soon as it aborts (the work is left to finish on its own). */
function until<T>(signal: AbortSignal, work: Promise<T>): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(signal.reason as Error);
    signal.addEventListener('abort', stop, { once: true });
    void work.then(resolve, reject).finally(() => signal.removeEventListener('abort', stop));
  });
}
