// The screenshot of the result on screen: fetched when the user asks to see
// or save it (never polled), held for that one result, drawn by the result
// view and saved to a file by the screenshot feed.
import type { StateCreator } from 'zustand/vanilla';
import type { ConsoleState, Screenshot, ScreenshotSlice } from './state.js';
import type { Remote } from './types.js';

export type { ScreenshotWish, Screenshot, ScreenshotSlice } from './state.js';

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
