// How the console's link to the service is doing, for the header and banners.
import type { StateCreator } from 'zustand/vanilla';
import type { ConsoleState } from './state.js';
import type { ErrorInfo } from './types.js';

export type Phase = 'connecting' | 'live' | 'retrying' | 'paused';

export interface ConnectionSlice {
  phase: Phase;
  lastSuccessAt: number | null;
  lastError: ErrorInfo | null;
  nextRetryAt: number | null;
  polling: boolean;
  connected(at: number): void;
  failed(error: ErrorInfo, nextRetryAt: number): void;
  setPolling(polling: boolean): void;
  setPaused(paused: boolean): void;
}

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
