// The certificates results carried, on PostgreSQL: the answers of sqlite/certificates.ts.
// A result without a certificate (a DNS failure) is passed over: the newest that had one.
import type pg from 'pg';
import type { ResultCertificate } from '../../../api/schemas/index.js';
import { first, rows } from './db.js';
import type { LocationCertificate, Storage } from '../types.js';

export function createPgCertificateReads(
  pool: pg.Pool,
): Pick<Storage, 'latestCertificate' | 'latestCertificates'> {
  return {
    latestCertificate: async (accountId, checkId) =>
      (
        await first<{ c: ResultCertificate }>(
          pool,
          `SELECT json->'certificate' AS c FROM results
           WHERE account_id = $1 AND check_id = $2 AND json_typeof(json->'certificate') = 'object'
           ORDER BY started_at DESC LIMIT 1`,
          [accountId, checkId],
        )
      )?.c ?? null,
    // One statement for every location asked, each read by the index by location, in their order.
    latestCertificates: (accountId, checkId, locationIds) =>
      rows<LocationCertificate>(
        pool,
        `SELECT l.id AS "locationId", c.c AS certificate
         FROM unnest($3::text[]) WITH ORDINALITY AS l(id, n)
         CROSS JOIN LATERAL (
           SELECT json->'certificate' AS c FROM results
           WHERE account_id = $1 AND check_id = $2 AND location_id = l.id
             AND json_typeof(json->'certificate') = 'object'
           ORDER BY started_at DESC LIMIT 1) c
         ORDER BY l.n`,
        [accountId, checkId, [...locationIds]],
      ),
  };
}
