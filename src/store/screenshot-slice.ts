// The screenshot of the result on screen: fetched when the user asks to see
// or save it (never polled), held for that one result, drawn by the result
// view and saved to a file by the screenshot feed.
import type { StateCreator } from 'zustand/vanilla';
import type { ConsoleState } from './state.js';
import type { ErrorInfo, Remote } from './types.js';

export type ScreenshotWish = 'show' | 'save';

export interface Screenshot {
  checkId: string | null;
  resultId: string | null;
  png: Remote<Uint8Array>;
  /** What the user asked for that the feed still owes: a fetch to show, or a save. */
  pending: ScreenshotWish | null;
  /** The picture replaces the result's text while true. */
  shown: boolean;
  /** The last save: where the file went, or why it did not. */
  saved: { ok: true; path: string } | { ok: false; message: string } | null;
}

export interface ScreenshotSlice {
  screenshot: Screenshot;
  /** `show` toggles the picture; `save` writes the PNG to a file (both fetch it first if needed). */
  askScreenshot(checkId: string, resultId: string, wish: ScreenshotWish): void;
  screenshotLoaded(resultId: string, png: Uint8Array, at: number): void;
  screenshotFailed(resultId: string, error: ErrorInfo): void;
  screenshotSaved(resultId: string, outcome: NonNullable<Screenshot['saved']>): void;
}

const none: Screenshot = {
  checkId: null,
  resultId: null,
  png: { state: 'idle' },
  pending: null,
  shown: false,
  saved: null,
};

export const createScreenshotSlice: StateCreator<ConsoleState, [], [], ScreenshotSlice> = (set, get) => {
  // Answers for a result the user has left are dropped.
  const patch = (resultId: string, p: Partial<Screenshot>) => {
    if (get().screenshot.resultId === resultId) set({ screenshot: { ...get().screenshot, ...p } });
  };
  return {
    screenshot: none,
    askScreenshot(checkId, resultId, wish) {
      const held = get().screenshot;
      const s = held.resultId === resultId ? held : { ...none, checkId, resultId };
      const have = s.png.state === 'ok';
      const png: Remote<Uint8Array> = have ? s.png : { state: 'loading' };
      if (wish === 'save') return set({ screenshot: { ...s, png, pending: 'save', saved: null } });
      const shown = !s.shown;
      set({ screenshot: { ...s, png: shown ? png : s.png, shown, pending: shown && !have ? 'show' : null } });
    },
    screenshotLoaded: (resultId, png, at) =>
      patch(resultId, {
        png: { state: 'ok', data: png, at },
        pending: get().screenshot.pending === 'save' ? 'save' : null,
      }),
    screenshotFailed: (resultId, error) =>
      patch(resultId, {
        png: { state: 'error', error },
        pending: null,
        saved: get().screenshot.pending === 'save' ? { ok: false, message: error.message } : null,
      }),
    screenshotSaved: (resultId, saved) => patch(resultId, { pending: null, saved }),
  };
};
