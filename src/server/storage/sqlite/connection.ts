// What every connection to the service's SQLite file sets: the service's own,
// and the writer thread's (sqlite-writer.ts). The journal mode is the file's
// (set once, kept); these are each connection's.
import type Database from 'better-sqlite3';

export function configureConnection(db: Database.Database): void {
  // NORMAL under WAL: a committed transaction survives a killed process;
  // only an OS crash may lose the last ones.
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
}
