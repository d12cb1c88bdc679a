// The console's root: one useInput for every key, the current view, overlays
// and the footer. A frame never grows taller than the terminal.
import { Box, Text, useInput } from 'ink';
import { useStore } from 'zustand';
import { sanitize } from '../domain/sanitize.js';
import type { ConsoleState, ConsoleStore } from '../store/state.js';
import { selectPollCycle, selectView } from '../store/selectors.js';
import { disabledReason } from './commands/disabled.js';
import { JUMP_TARGETS, type ConsoleActions } from './commands/index.js';
import { handleInput } from './input.js';
import { hintsFor, keysOf, type Scope } from './keymap.js';
import { keyScopes } from './scopes.js';
import { selectBodyHeight, selectPausedLine } from './body-height.js';
import { ThemeContext, tint, useTheme, type Theme } from './theme.js';
import { ActionLine, selectActionLineShown } from './views/check-actions/action-line.js';
import { HelpOverlay } from './views/help/help-overlay.js';
import { renderView } from './views/index.js';
import { SilencePrompt, silencePromptLines } from './silence-prompt.js';
import { userCommandsIn } from './commands/user-commands.js';
import { HandsNote, selectHandsNoteHeight } from './views/hands/hands-note.js';
import { HandsPanel } from './views/hands/hands-panel.js';

export const MIN_COLS = 60;
export const MIN_ROWS = 12;

export interface AppProps {
  store: ConsoleStore;
  actions: ConsoleActions;
  theme: Theme;
}

export function App({ store, actions, theme }: AppProps) {
  return (
    <ThemeContext.Provider value={theme}>
      <Root store={store} actions={actions} />
    </ThemeContext.Provider>
  );
}

/** The element the wiring layer renders: it need not import React itself. */
export const appElement = (props: AppProps) => <App {...props} />;

function Root({ store, actions }: { store: ConsoleStore; actions: ConsoleActions }) {
  const cols = useStore(store, (s) => s.cols);
  const rows = useStore(store, (s) => s.rows);
  const view = useStore(store, selectView);
  const focus = useStore(store, (s) => s.focus);
  const viewScopes = useStore(store, (s) => keyScopes(s, 'list').join(','));
  const pollCycle = useStore(store, (s) => selectPollCycle(s, 'long'));
  const pausedLine = useStore(store, selectPausedLine);
  const bodyHeight = useStore(store, selectBodyHeight);
  const silenceLines = useStore(store, silencePromptLines);
  const asking = useStore(store, (s) => s.silence.state === 'ask' || s.silence.state === 'sending');
  const acting = useStore(store, selectActionLineShown);
  const noteLines = useStore(store, selectHandsNoteHeight);
  const panel = useStore(store, (s) => s.handsPanel !== null);
  useInput((input, key) => {
    // One of the engineer's commands ran: this key only brings the console back.
    if (store.getState().suspended !== null) {
      store.getState().setSuspended(null);
      actions.resumeScreen?.();
      return;
    }
    // The outcome of M or of w (a channel's window), why a key did not act, and what a copy did
    // stay on screen until the next key.
    store.getState().dismissSilence();
    store.getState().dismissGrouping();
    store.getState().refuseKey(null);
    store.getState().setHandsNote(null);
    const ctx = { store, actions, pageSize: Math.max(1, store.getState().rows - 6) };
    handleInput(ctx, () => keyScopes(store.getState()), input, key);
  });
  if (cols < MIN_COLS || rows < MIN_ROWS) {
    return (
      <Text>{`Terminal too small: ${cols}x${rows}. Checkwall needs at least ${MIN_COLS}x${MIN_ROWS}. (q quits)`}</Text>
    );
  }
  // Exactly the terminal's height, one line of it the footer. Only vertical overflow is
  // clipped: every line is already cut to the width, and clipping sideways costs Ink a
  // slice of every line of every frame.
  return (
    <Box flexDirection="column" width={cols} height={rows} overflowY="hidden">
      {pausedLine ? <PausedLine /> : null}
      {focus === 'help' ? (
        <HelpOverlay
          store={store}
          height={bodyHeight}
          first={viewScopes.split(',') as Scope[]}
          pollCycle={pollCycle}
        />
      ) : panel ? (
        <HandsPanel store={store} height={bodyHeight} />
      ) : (
        renderView({ store, view, height: bodyHeight })
      )}
      {acting ? <ActionLine store={store} /> : null}
      {noteLines > 0 ? <HandsNote store={store} /> : null}
      {silenceLines > 0 ? <SilencePrompt store={store} /> : null}
      {focus === 'prompt' ? <Prompt store={store} /> : asking ? null : <Footer store={store} />}
    </Box>
  );
}

function PausedLine() {
  const theme = useTheme();
  return (
    <Text wrap="truncate">
      <Text bold inverse color={tint(theme, 'yellow')}>
        {' PAUSED '}
      </Text>
      <Text color={tint(theme, theme.dim)}>
        {` polling is paused: what you see is not refreshed (${keysOf('app.pause')} resumes)`}
      </Text>
    </Text>
  );
}

/** The footer's hints: the keys of the scopes in use that are offered now. */
export const selectFooterHints = (s: ConsoleState): string =>
  [
    // The engineer's own commands first: they were set up to be at hand.
    ...userCommandsIn(s, keyScopes(s)).map((c) => `${c.key} ${sanitize(c.name)}`),
    ...hintsFor(keyScopes(s), (b) => !disabledReason(b, s)).map((h) => `${h.keys} ${h.hint}`),
  ].join('  ');

/** The hints, or why the last key did not act. */
function Footer({ store }: { store: ConsoleStore }) {
  const theme = useTheme();
  const hints = useStore(store, selectFooterHints);
  const refusal = useStore(store, (s) => s.keyRefusal);
  if (refusal)
    return (
      <Text wrap="truncate" color={tint(theme, 'red')}>
        {sanitize(refusal)}
      </Text>
    );
  return (
    <Text wrap="truncate" color={tint(theme, theme.dim)}>
      {hints}
    </Text>
  );
}

function Prompt({ store }: { store: ConsoleStore }) {
  const theme = useTheme();
  const text = useStore(store, (s) => s.promptText);
  const error = useStore(store, (s) => s.promptError);
  return (
    <Text wrap="truncate">
      <Text color={tint(theme, theme.accent)}>:</Text>
      {text}
      <Text inverse> </Text>
      {error ? (
        <Text color={tint(theme, 'red')}>{`  ${error}`}</Text>
      ) : (
        <Text color={tint(theme, theme.dim)}>{` ${JUMP_TARGETS.join(', ')}`}</Text>
      )}
    </Text>
  );
}
