// How the console's link to the service is doing, for the header and banners.
import type { StateCreator } from 'zustand/vanilla';
import type { ConsoleState, ConnectionSlice } from './state.js';

export type { Phase, ConnectionSlice } from './state.js';

export const createConnectionSlice: StateCreator<ConsoleState, [], [], ConnectionSlice> = (set, get) => ({
  phase: 'connecting',
  lastSuccessAt: null,
  lastError: null,
  nextRetryAt: null,
  polling: false,
  connected: (at) =>
    set({
      phase: get().phase === 'paused' ? 'paused' : 'live',
      lastSuccessAt: at,
      lastError: null,
      nextRetryAt: null,
    }),
  failed: (error, nextRetryAt) =>
    set({
      phase: get().phase === 'paused' ? 'paused' : get().lastSuccessAt === null ? 'connecting' : 'retrying',
      lastError: error,
      nextRetryAt,
    }),
  setPolling: (polling) => set({ polling }),
  setPaused: (paused) =>
    set({
      phase: paused
        ? 'paused'
        : get().lastError
          ? get().lastSuccessAt === null
            ? 'connecting'
            : 'retrying'
          : 'live',
    }),
});
