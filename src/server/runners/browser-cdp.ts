// The Chrome DevTools Protocol over undici's WebSocket (Node 20 has no global
// one): numbered commands answered by id, events routed by session. Pages use
// flattened sessions on the one browser connection, so a page is a session id.
import { WebSocket } from 'undici';

type Params = Record<string, unknown>;
export type CdpEvent = { method: string; params: Params };
type Waiter = { resolve(result: unknown): void; reject(error: Error): void; sessionId: string };

export interface CdpConnection {
  send<T = Params>(method: string, params?: Params, sessionId?: string): Promise<T>;
  /** Events of one session ('' for the browser's own); returns the unsubscribe. */
  on(sessionId: string, listener: (event: CdpEvent) => void): () => void;
  /** Resolves once the socket is closed, whoever closed it. */
  readonly closed: Promise<void>;
  readonly isOpen: boolean;
  close(): void;
}

export class CdpError extends Error {
  override readonly name = 'CdpError';
}

export function connectCdp(url: string, timeoutMs: number): Promise<CdpConnection> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    const timer = setTimeout(() => {
      ws.close();
      reject(new CdpError(`no DevTools connection to ${url} within ${timeoutMs} ms`));
    }, timeoutMs);
    ws.addEventListener('open', () => (clearTimeout(timer), resolve(wrap(ws))), { once: true });
    ws.addEventListener(
      'error',
      () => (clearTimeout(timer), reject(new CdpError(`cannot open the DevTools connection ${url}`))),
      { once: true },
    );
  });
}

interface Message {
  id?: number;
  result?: unknown;
  error?: { message: string };
  method?: string;
  params?: Params;
  sessionId?: string;
}

/** A frame that is not JSON is dropped, not thrown: it would surface in the socket's event loop. */
function parse(text: string): Message {
  try {
    return JSON.parse(text) as Message;
  } catch {
    return {};
  }
}

function wrap(ws: WebSocket): CdpConnection {
  const waiting = new Map<number, Waiter>();
  const listeners = new Map<string, Set<(event: CdpEvent) => void>>();
  let nextId = 0;
  let open = true;
  const failAll = (sessionId: string | null, why: string) => {
    for (const [id, w] of waiting)
      if (sessionId === null || w.sessionId === sessionId) {
        waiting.delete(id);
        w.reject(new CdpError(why));
      }
  };
  const closed = new Promise<void>((resolve) =>
    ws.addEventListener('close', () => {
      open = false;
      failAll(null, 'the browser connection closed');
      resolve();
    }),
  );
  ws.addEventListener('message', (e) => {
    const msg = parse(String(e.data));
    if (msg.id !== undefined) {
      const w = waiting.get(msg.id);
      waiting.delete(msg.id);
      if (msg.error) w?.reject(new CdpError(msg.error.message));
      else w?.resolve(msg.result);
      return;
    }
    if (!msg.method) return;
    // A closed page answers nothing more: its pending commands fail now, not at the timeout.
    if (msg.method === 'Target.detachedFromTarget')
      failAll(String(msg.params?.['sessionId']), 'the page was closed');
    for (const l of listeners.get(msg.sessionId ?? '') ?? [])
      l({ method: msg.method, params: msg.params ?? {} });
  });
  return {
    send<T>(method: string, params: Params = {}, sessionId = '') {
      if (!open) return Promise.reject(new CdpError('the browser connection is closed'));
      const id = ++nextId;
      return new Promise<T>((resolve, reject) => {
        waiting.set(id, { resolve: resolve as (r: unknown) => void, reject, sessionId });
        ws.send(JSON.stringify(sessionId ? { id, method, params, sessionId } : { id, method, params }));
      });
    },
    on(sessionId, listener) {
      const set = listeners.get(sessionId) ?? new Set();
      listeners.set(sessionId, set.add(listener));
      return () => {
        set.delete(listener);
        if (set.size === 0) listeners.delete(sessionId);
      };
    },
    closed,
    get isOpen() {
      return open;
    },
    close: () => ws.close(),
  };
}
