import type { Queryable } from '../../db/index.js';
import { KitError } from '../../errors.js';

/**
 * A call that came earlier than the account allows (document section 7, 8:
 * HTTP 304). Thrown inside the send's transaction, so nothing of the refused
 * call is kept and it does not count.
 */
export class TooEarly extends KitError {
  declare readonly code: 'TOO_EARLY';

  constructor(readonly waitMs: number) {
    super('TOO_EARLY', `too early: wait ${waitMs} ms`);
  }
}

/** The headers of the 304: whole seconds, at least 1, and the exact milliseconds. */
export function retryHeaders(waitMs: number): Record<string, string> {
  const ms = Math.max(1, Math.ceil(waitMs));
  return { 'retry-after': String(Math.max(1, Math.ceil(ms / 1000))), 'x-retry-after-ms': String(ms) };
}

/**
 * Claims the right to send a single push with `subId` to `msisdn`: the last
 * accepted one must be at least `intervalMs` old. Atomic (one upsert), so two
 * concurrent calls cannot both pass.
 * @throws TooEarly
 */
export async function claimSingle(
  tx: Queryable,
  key: { login: string; subId: string; msisdn: string },
  now: number,
  intervalMs: number,
): Promise<void> {
  const { rows } = await tx.query(
    `INSERT INTO push_single_last (login, sub_id, msisdn, sent_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (login, sub_id, msisdn) DO UPDATE SET sent_at = EXCLUDED.sent_at WHERE push_single_last.sent_at <= $5
     RETURNING sent_at`,
    [key.login, key.subId, key.msisdn, new Date(now), new Date(now - intervalMs)],
  );
  if (rows.length > 0) return;
  const last = await tx.query<{ sent_at: Date }>(
    'SELECT sent_at FROM push_single_last WHERE login = $1 AND sub_id = $2 AND msisdn = $3',
    [key.login, key.subId, key.msisdn],
  );
  throw new TooEarly(last.rows[0]!.sent_at.getTime() + intervalMs - now);
}

/**
 * Claims the right to send a batch: the account's last accepted batch must be
 * at least `intervalMs` old. The row lock serialises concurrent batches.
 * @throws TooEarly
 */
export async function claimBatch(tx: Queryable, login: string, now: number, intervalMs: number): Promise<void> {
  const { rows } = await tx.query(
    'UPDATE push_accounts SET last_batch_at = $2 WHERE login = $1 AND (last_batch_at IS NULL OR last_batch_at <= ' +
      '$3) RETURNING login',
    [login, new Date(now), new Date(now - intervalMs)],
  );
  if (rows.length > 0) return;
  const last = await tx.query<{ last_batch_at: Date }>('SELECT last_batch_at FROM push_accounts WHERE login = $1', [
    login,
  ]);
  throw new TooEarly(last.rows[0]!.last_batch_at.getTime() + intervalMs - now);
}
