// The steps of a multistep check, run in order in one page with Playwright's
// locators and auto-waiting. Nothing here has a timeout of its own: a step
// waits until the run's time is up (the runner's signal), so a timeout names
// the step and what it waited for. A step that fails names itself in the error.
import type { Locator, Page } from 'playwright-core';
import type { StepConfig } from '../config/schema.js';
import type { PageWatch } from './browser-page.js';
import { namedError } from './result.js';
import { deadline } from '../../domain/deadline.js';

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
/** Assertions look again for this long before they fail: what a click reveals may lag a frame. */
const ASSERT_GRACE_MS = 2_000;
/** How long a failed assertText may take to read what the page shows instead. */
const TEXT_READ_MS = 1_000;
/** Playwright's "no timeout": the run's signal is the only clock. */
const NO_TIMEOUT = { timeout: 0 };

const q = JSON.stringify;

export function describeStep(step: StepConfig): string {
  switch (step.action) {
    case 'goto':
      return `goto ${step.url}`;
    case 'click':
      return `click ${q(step.selector)}`;
    case 'fill':
      return `fill ${q(step.selector)}`;
    case 'type':
      return `type into ${q(step.selector)}`;
    case 'press':
      return `press ${step.key}${step.selector ? ` in ${q(step.selector)}` : ''}`;
    case 'select':
      return `select ${q(step.option)} in ${q(step.selector)}`;
    case 'waitFor':
      return step.selector !== undefined ? `waitFor ${q(step.selector)}` : `waitFor text ${q(step.text)}`;
    case 'assertText':
      return `assertText ${q(step.contains)}${step.selector ? ` in ${q(step.selector)}` : ''}`;
    case 'assertVisible':
      return `assertVisible ${q(step.selector)}`;
    case 'assertUrl':
      return `assertUrl ${q(step.contains)}`;
  }
}

export async function runSteps(steps: readonly StepConfig[], ctx: StepContext): Promise<void> {
  for (const [index, step] of steps.entries()) {
    ctx.progress.step = { index, of: steps.length, text: describeStep(step) };
    try {
      await runStep(step, ctx);
    } catch (error) {
      if (ctx.signal.aborted) throw error; // the runner words timeouts, with the progress above
      throw namedError('StepFailed', `${stepLabel(ctx.progress)}: ${playwrightMessage(error as Error)}`);
    }
  }
  delete ctx.progress.step;
}

export function stepLabel(progress: Progress): string {
  const s = progress.step;
  return s ? `step ${s.index + 1} of ${s.of} (${s.text})` : '';
}

async function runStep(step: StepConfig, ctx: StepContext): Promise<void> {
  const { page } = ctx;
  switch (step.action) {
    case 'goto': {
      const url = new URL(step.url, page.url()).href;
      ctx.progress.waitingFor = `${url} did not finish loading`;
      const nav = await ctx.watch.navigate(url);
      const status = nav.response?.status ?? 0;
      if (status >= 400) throw new Error(`the server answered ${status} for ${url}`);
      return;
    }
    case 'click':
      return element(step.selector, ctx).click(NO_TIMEOUT);
    case 'fill':
      return element(step.selector, ctx).fill(step.text, NO_TIMEOUT);
    case 'type':
      return element(step.selector, ctx).pressSequentially(step.text, NO_TIMEOUT);
    case 'press':
      if (step.selector === undefined) return page.keyboard.press(step.key);
      return element(step.selector, ctx).press(step.key, NO_TIMEOUT);
    case 'select': {
      const select = element(step.selector, ctx);
      // Playwright waits for the option too: a timeout should say which one never came.
      ctx.progress.waitingFor = `no option ${q(step.option)} in ${q(step.selector)}`;
      await select.selectOption(step.option, NO_TIMEOUT);
      return;
    }
    case 'waitFor':
      if (step.selector !== undefined) return element(step.selector, ctx).waitFor(NO_TIMEOUT);
      return textShown(step.text ?? '', undefined, ctx, ctx.signal);
    case 'assertText':
      return assertText(step.contains, step.selector, ctx);
    case 'assertVisible':
      return assertVisible(step.selector, ctx);
    case 'assertUrl':
      ctx.progress.waitingFor = `the address did not contain ${q(step.contains)}`;
      if (await withGrace(ctx, (signal) => eventually(() => page.url().includes(step.contains), signal)))
        return;
      throw new Error(`expected the address to contain ${q(step.contains)}, it is ${q(page.url())}`);
  }
}

/** The first element `selector` matches; its actions wait until it is visible (and enabled, for input). */
function element(selector: string, ctx: StepContext): Locator {
  ctx.progress.waitingFor = `no visible element matches ${q(selector)}`;
  return ctx.page.locator(selector).first();
}

async function assertText(contains: string, selector: string | undefined, ctx: StepContext): Promise<void> {
  const found = await withGrace(ctx, (signal) => textShown(contains, selector, ctx, signal)).then(
    () => true,
    () => false,
  );
  if (found) return;
  if (ctx.signal.aborted) throw ctx.signal.reason as Error;
  // What the page shows, for the message: worth a short wait, not the rest of the run.
  const seen = await textOf(ctx.page, selector, TEXT_READ_MS);
  if (ctx.signal.aborted) throw ctx.signal.reason as Error;
  throw new Error(
    seen === null
      ? `no element matches ${q(selector)}`
      : `expected text containing ${q(contains)}, found ${q(clip(seen))}`,
  );
}

async function assertVisible(selector: string, ctx: StepContext): Promise<void> {
  const shown = await element(selector, ctx)
    .waitFor({ timeout: ASSERT_GRACE_MS })
    .then(
      () => true,
      (error: Error) => {
        if (isSelectorError(error)) throw error;
        return false;
      },
    );
  if (shown) return;
  const count = await ctx.page.locator(selector).count();
  throw new Error(
    count === 0
      ? `no element matches ${q(selector)}`
      : `${q(selector)} matches ${count}, none of them visible`,
  );
}

/** `work` under the run's signal and the assertions' grace (domain/deadline.ts: not AbortSignal.any). */
async function withGrace<T>(ctx: StepContext, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const grace = deadline(ctx.signal, ASSERT_GRACE_MS);
  try {
    return await work(grace.signal);
  } finally {
    grace.done();
  }
}

/** Waits until the rendered text (of the page, or of the first match of `selector`) contains `text`. */
async function textShown(text: string, selector: string | undefined, ctx: StepContext, signal: AbortSignal) {
  ctx.progress.waitingFor = `the text ${q(text)} did not appear`;
  const shown = async () => (await textOf(ctx.page, selector, POLL_MS))?.includes(text) === true;
  if (!(await eventually(shown, signal))) throw signal.reason as Error;
}

/** What a visitor reads: innerText, or null when nothing matches (yet). */
async function textOf(page: Page, selector: string | undefined, timeout: number): Promise<string | null> {
  const target = page.locator(selector ?? 'body').first();
  return target.innerText({ timeout }).catch((error: Error) => {
    if (isSelectorError(error)) throw error;
    return null;
  });
}

/** True as soon as `ready()` holds; false when the signal aborts first. */
async function eventually(ready: () => boolean | Promise<boolean>, signal: AbortSignal): Promise<boolean> {
  while (!signal.aborted) {
    if (await ready()) return true;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return false;
}

const isSelectorError = (error: Error) =>
  /while parsing|Unexpected token|Unknown engine/i.test(error.message);

/** Playwright's first line, without its "locator.click: " prefix; a bad selector said plainly. */
function playwrightMessage(error: Error): string {
  const line = (error.message.split('\n')[0] ?? error.message).replace(/^[\w.]+: /, '');
  return isSelectorError(error) ? `not a valid selector: ${line}` : line;
}

const clip = (text: string) => (text.length > 120 ? `${text.slice(0, 117)}...` : text).replace(/\s+/g, ' ');
