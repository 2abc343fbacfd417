import { PushStatus } from '../../contracts/push/index.js';
import type { Database } from '../../db/index.js';

/** What an account (and subId) has sent: lets a test prove every number got exactly one message. */
export interface PushStats {
  messages: number;
  distinctMsisdn: number;
  /** messages - distinctMsisdn */
  duplicateMsisdn: number;
  batches: number;
  singles: number;
  byStatus: Record<string, number>;
}

/** Counts an account's messages, numbers, sends and statuses, for one subId or all. */
export async function pushStats(db: Database, login: string, subId?: string): Promise<PushStats> {
  const sub = subId ?? null;
  const [counts, statuses, sends] = await Promise.all([
    db.query<{ messages: number; distinct_msisdn: number }>(
      'SELECT count(*) AS messages, count(DISTINCT msisdn) AS distinct_msisdn FROM push_messages WHERE login = ' +
        '$1 AND ($2::text IS NULL OR sub_id = $2)',
      [login, sub],
    ),
    db.query<{ status: string; n: number }>(
      'SELECT status, count(*) AS n FROM push_messages WHERE login = $1 AND ($2::text IS NULL OR sub_id = $2) ' +
        'GROUP BY status',
      [login, sub],
    ),
    db.query<{ kind: string; n: number }>(
      'SELECT kind, count(*) AS n FROM push_sends WHERE login = $1 AND ($2::text IS NULL OR sub_id = $2) GROUP BY kind',
      [login, sub],
    ),
  ]);
  const messages = Number(counts.rows[0]?.messages ?? 0);
  const distinctMsisdn = Number(counts.rows[0]?.distinct_msisdn ?? 0);
  const byStatus: Record<string, number> = Object.fromEntries(PushStatus.options.map((s) => [s, 0]));
  for (const r of statuses.rows) byStatus[r.status] = Number(r.n);
  const kinds = new Map(sends.rows.map((r) => [r.kind, Number(r.n)]));
  return {
    messages,
    distinctMsisdn,
    duplicateMsisdn: messages - distinctMsisdn,
    batches: kinds.get('batch') ?? 0,
    singles: kinds.get('single') ?? 0,
    byStatus,
  };
}
