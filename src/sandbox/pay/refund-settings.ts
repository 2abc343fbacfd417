import type { Queryable } from '../../db/index.js';

/** How the next deferred refunds settle (sandbox-wide, kept in the database beside the bank's settings). */
export interface RefundSettings {
  /** `approve`: they succeed; `fail`: they fail and give nothing back. */
  mode: 'approve' | 'fail';
  /** They stay pending this long on the sandbox's clock (0: settled by the next read or sweep). */
  delayMs: number;
}

/** The refund settings (approve at the next read when never set). */
export async function refundSettings(db: Queryable): Promise<RefundSettings> {
  const { rows } = await db.query<Record<string, unknown>>(
    'SELECT refund_mode, refund_delay_ms FROM pay_bank WHERE id = 1',
  );
  const row = rows[0];
  return row === undefined
    ? { mode: 'approve', delayMs: 0 }
    : { mode: row.refund_mode as RefundSettings['mode'], delayMs: Number(row.refund_delay_ms) };
}

/** Sets how the next deferred refunds settle; the bank's own settings are kept. */
export async function setRefundSettings(db: Queryable, settings: RefundSettings): Promise<RefundSettings> {
  await db.query(
    `INSERT INTO pay_bank (id, mode, delay_ms, receive_ms, refund_mode, refund_delay_ms)
     VALUES (1, 'approve', 0, 0, $1, $2)
     ON CONFLICT (id) DO UPDATE SET refund_mode = EXCLUDED.refund_mode, refund_delay_ms = EXCLUDED.refund_delay_ms`,
    [settings.mode, settings.delayMs],
  );
  return settings;
}
