// The certificates results carried (docs/certificates.md): the check's newest, for its
// status, and each location's newest, for the end of a certificate warning. A result
// without a certificate (a DNS failure) is passed over: the newest that had one.
import type Database from 'better-sqlite3';
import type { ResultCertificate } from '../../../api/schemas/index.js';
import type { LocationCertificate } from '../types.js';

export function createCertificateReads(db: Database.Database) {
  const newest = db.prepare(
    `SELECT json_extract(json, '$.certificate') AS c FROM results
     WHERE account_id = ? AND check_id = ? AND json_extract(json, '$.certificate') IS NOT NULL
     ORDER BY started_at DESC LIMIT 1`,
  );
  const newestAt = db.prepare(
    `SELECT json_extract(json, '$.certificate') AS c FROM results
     WHERE account_id = ? AND check_id = ? AND location_id = ? AND json_extract(json, '$.certificate') IS NOT NULL
     ORDER BY started_at DESC LIMIT 1`,
  );
  return {
    latestCertificate(accountId: string, checkId: string): ResultCertificate | null {
      const row = newest.get(accountId, checkId) as { c: string } | undefined;
      return row ? (JSON.parse(row.c) as ResultCertificate) : null;
    },
    latestCertificates(accountId: string, checkId: string, locationIds: readonly string[]) {
      return locationIds.flatMap((locationId): LocationCertificate[] => {
        const row = newestAt.get(accountId, checkId, locationId) as { c: string } | undefined;
        return row ? [{ locationId, certificate: JSON.parse(row.c) as ResultCertificate }] : [];
      });
    },
  };
}
