// Other instances on the same PostgreSQL database: one stored a result (moving this
// one's status of that check as its own results do) or moved an alert (the status is
// read anew). After a lost connection, all are read anew. Nothing on SQLite.
import { createListeners } from '../../domain/listeners.js';
import type { StatusEngine } from '../status/engine.js';
import { isPgStorage } from '../storage/open.js';
import { logFailure } from '../storage/observed.js';
import type { ChangeEvent } from '../storage/pg/changes.js';
import type { Base } from './base.js';
import type { Closers } from './closers.js';

export interface Peers {
  announce(version: string): Promise<void>;
  onConfig(handler: (version: string) => void): void;
}

export async function listenPeers(
  { storage, accounts }: Base,
  engine: StatusEngine,
  closers: Closers,
): Promise<Peers> {
  const peerConfig = createListeners<[version: string]>();
  const onChange = (e: ChangeEvent) => {
    if (e.kind === 'resync') return engine.rereadAll();
    if (e.fromSelf) return;
    if (e.kind === 'config') return void peerConfig.emit(e.version);
    const account = accounts.byId(e.accountId);
    const check = account && accounts.check(account, e.checkId);
    if (account && check)
      (e.kind === 'result'
        ? engine.peerResult(account, check, e.result)
        : engine.rereadCheck(account, check)
      ).catch((error: unknown) => {
        logFailure(`checkwall: cannot read the new status of ${e.checkId}`, error);
      });
  };
  if (isPgStorage(storage)) {
    const unlisten = await storage.changes.listen(onChange);
    closers.add('the peers’ change feed', unlisten);
  }
  return {
    announce: (version) =>
      isPgStorage(storage) ? storage.changes.publishConfig(version) : Promise.resolve(),
    onConfig: (handler) => peerConfig.on(handler),
  };
}
