// A check's history (docs/status-page.md): its hourly or daily roll-ups, which outlive the
// raw results (historyDays), for the status page's bars and the console's strip.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  CheckHistoryQuerySchema,
  PathParamSchema,
  type CheckHistoryBucket,
} from '../../api/schemas/index.js';
import { round } from '../../domain/stats.js';
import type { Accounts } from '../config/accounts.js';
import type { AccountConfig } from '../config/schema.js';
import { bucketOf, DAY_MS, SPAN_MS, type HistoryBucket } from '../storage/history.js';
import type { Storage } from '../storage/types.js';
import { renderPage, sendPage } from './etag.js';
import { HttpError, parseOr400 } from './errors.js';

export interface HistoryRouteDeps {
  accounts: Accounts;
  storage: Storage;
  now: () => number;
  auth: (req: FastifyRequest) => AccountConfig;
}

const CheckIdParams = z.object({ checkId: PathParamSchema });
const DAYS = { '7d': 7, '30d': 30, '90d': 90 } as const;

export function registerHistoryRoutes(app: FastifyInstance, deps: HistoryRouteDeps): void {
  const { accounts, storage, now, auth } = deps;
  app.get('/v1/check-history/:checkId', async (req, reply) => {
    const account = auth(req);
    const { checkId } = parseOr400(CheckIdParams, req.params, 'path');
    const q = parseOr400(CheckHistoryQuerySchema, req.query, 'query');
    const check = accounts.check(account, checkId);
    if (!check) throw new HttpError(404, `no check "${checkId}" in this account`);
    if (q.location !== undefined && !check.locations.includes(q.location))
      throw new HttpError(400, `check "${checkId}" does not run at location "${q.location}"`, [
        { path: 'location', message: `check "${checkId}" does not run there` },
      ]);
    const to = now();
    const span = SPAN_MS[q.granularity];
    // Whole buckets, the current one last: 7, 30 or 90 days, or 7 x 24 hours.
    const count = (DAYS[q.period] * DAY_MS) / span;
    const from = bucketOf(to, q.granularity) - (count - 1) * span;
    const stored = await storage.history(account.id, checkId, {
      from,
      to,
      granularity: q.granularity,
      locationId: q.location,
    });
    const byStart = new Map(stored.map((b) => [b.start, b]));
    const data = Array.from({ length: count }, (_, i) => {
      const start = from + i * span;
      return bucketOut(byStart.get(start), start, q.location ?? null);
    });
    const meta = {
      checkId,
      period: q.period,
      granularity: q.granularity,
      from: new Date(from).toISOString(),
      to: new Date(to).toISOString(),
    };
    // The ETag leaves out `to`, which moves every millisecond; the buckets decide whether it changed.
    const { to: _moving, ...lasting } = meta;
    return sendPage(req, reply, renderPage({ data, meta }, { data, meta: lasting }));
  });
}

/** A bucket on the wire; one with no runs (none stored) has null figures. */
function bucketOut(
  b: HistoryBucket | undefined,
  start: number,
  locationId: string | null,
): CheckHistoryBucket {
  const runs = b?.runs ?? 0;
  const timed = b?.timed ?? 0;
  return {
    start: new Date(start).toISOString(),
    locationId,
    runs,
    failures: b?.failures ?? 0,
    availability: runs === 0 ? null : round(((runs - b!.failures) / runs) * 100, 2),
    averageResponseTime: timed === 0 ? null : round(b!.responseTimeSum / timed, 2),
    p95ResponseTime: b?.p95ResponseTime ?? null,
  };
}
