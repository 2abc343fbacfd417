import type { Queryable } from '../../db/index.js';
import type { SandboxContext } from '../module.js';
import { expireIfDue } from './expiry.js';
import { write, type BankScheduler, type Effects, type PayRuntime } from './runtime.js';
import { move } from './state-machine.js';
import { findTransaction, requireTransaction, type TransactionRow } from './transactions.js';

/** How the simulated bank answers the next confirmations. */
export type BankMode = 'approve' | 'decline' | 'insufficient' | 'technical';

/** The bank's behaviour (sandbox-wide, kept in the database). */
export interface BankSettings {
  mode: BankMode;
  /** The bank answers this long after the confirmation (divided by timeScale). */
  delayMs: number;
  /**
   * The bank receives the payment request this long after the confirmation
   * (divided by timeScale). A merchant /cancel before that wins: nothing is
   * withdrawn and no answer comes (document section 7); after it, the bank's
   * answer still arrives and overrides the cancellation.
   */
  receiveMs: number;
}

const OUTCOME: Record<BankMode, TransactionRow['bank']['outcome']> = {
  approve: 'succeeded',
  decline: 'DECLINED',
  insufficient: 'INSUFFICIENT_FUNDS',
  technical: 'TECHNICAL',
};

/** The bank's current settings (approve at once when never set). */
export async function bankSettings(db: Queryable): Promise<BankSettings> {
  const { rows } = await db.query<Record<string, unknown>>(
    'SELECT mode, delay_ms, receive_ms FROM pay_bank WHERE id = 1',
  );
  const row = rows[0];
  return row === undefined
    ? { mode: 'approve', delayMs: 0, receiveMs: 0 }
    : { mode: row.mode as BankMode, delayMs: Number(row.delay_ms), receiveMs: Number(row.receive_ms) };
}

/** Sets how the bank answers the next confirmations. */
export async function setBankSettings(db: Queryable, settings: BankSettings): Promise<BankSettings> {
  await db.query(
    `INSERT INTO pay_bank (id, mode, delay_ms, receive_ms) VALUES (1, $1, $2, $3)
     ON CONFLICT (id) DO UPDATE SET mode = EXCLUDED.mode, delay_ms = EXCLUDED.delay_ms,
       receive_ms = EXCLUDED.receive_ms`,
    [settings.mode, settings.delayMs, settings.receiveMs],
  );
  return settings;
}

/**
 * The customer confirms the invoice in the app: `created` -> `processing`, and
 * the payment is handed to the bank with the answer it will give (decided now
 * and stored, so a restart re-drives the same answer).
 */
export async function confirmInvoice(
  tx: Queryable,
  rt: PayRuntime,
  transactionId: string,
  effects: Effects,
): Promise<TransactionRow> {
  const t = await expireIfDue(tx, rt, await requireTransaction(tx, { transactionId }, true), effects);
  const bank = await bankSettings(tx);
  const now = new Date(rt.ctx.clock());
  const moved = effects.moved(
    await move(tx, rt, t, 'processing', 'confirmed', {
      confirmed_at: now,
      bank_outcome: OUTCOME[bank.mode],
      bank_delay_ms: bank.delayMs,
      bank_receive_ms: bank.receiveMs,
      bank_received_at: bank.receiveMs === 0 ? now : null,
    }),
  );
  effects.toBank.push(t.transactionId);
  return moved.transaction;
}

/**
 * The simulated bank: after a confirmation it receives the request (after
 * `receiveMs`) and answers (after `delayMs`), on real timers scaled by the
 * sandbox's timeScale. The state lives in the database: each step is a
 * conditional update, so a step that lost a race (a cancel, another sandbox
 * on the same PostgreSQL, a re-drive after restart) does nothing.
 */
export class BankSimulator implements BankScheduler {
  readonly #timers = new Set<NodeJS.Timeout>();
  readonly #inFlight = new Set<Promise<void>>();
  #closed = false;
  #rt: PayRuntime | undefined;

  /** Binds the runtime (done once by the module when mounting). */
  bind(rt: PayRuntime): void {
    this.#rt = rt;
  }

  /** Arms the receive and answer timers of a transaction just handed to the bank. */
  async schedule(transactionId: string): Promise<void> {
    const rt = this.#rt;
    if (rt === undefined || this.#closed) return;
    const t = await findTransaction(rt.ctx.db, { transactionId });
    if (t === undefined || t.bank.outcome === null || t.bank.answeredAt !== null) return;
    const scale = rt.ctx.timeScale;
    if (t.bank.receivedAt === null)
      this.#after((t.bank.receiveMs ?? 0) / scale, () => this.#receive(rt.ctx, transactionId));
    this.#after(Math.max(t.bank.delayMs ?? 0, t.bank.receiveMs ?? 0) / scale, () => this.#answer(rt, transactionId));
  }

  /** Re-arms every payment the bank has not answered yet (after a restart). */
  async redrive(): Promise<number> {
    const rt = this.#rt;
    if (rt === undefined) return 0;
    const { rows } = await rt.ctx.db.query<{ transaction_id: string }>(
      `SELECT transaction_id FROM pay_transactions
       WHERE status IN ('processing', 'cancelled') AND bank_outcome IS NOT NULL AND bank_answered_at IS NULL`,
    );
    for (const row of rows) await this.schedule(row.transaction_id);
    return rows.length;
  }

  /** Stops the timers and waits for steps under way. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    await Promise.allSettled([...this.#inFlight]);
  }

  #after(ms: number, step: () => Promise<void>): void {
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      if (this.#closed) return;
      const running = step()
        .catch((error: unknown) => this.#rt?.ctx.logger.warn({ err: error }, 'simulated bank step failed'))
        .finally(() => this.#inFlight.delete(running));
      this.#inFlight.add(running);
    }, ms);
    timer.unref();
    this.#timers.add(timer);
  }

  async #receive(ctx: SandboxContext, transactionId: string): Promise<void> {
    // Only while still processing: a cancel that came first has already withdrawn the request.
    await ctx.db.query(
      `UPDATE pay_transactions SET bank_received_at = $2
       WHERE transaction_id = $1 AND status = 'processing' AND bank_received_at IS NULL AND bank_outcome IS NOT NULL`,
      [transactionId, new Date(ctx.clock())],
    );
  }

  async #answer(rt: PayRuntime, transactionId: string): Promise<void> {
    await write(rt, async (tx, effects) => {
      const t = await findTransaction(tx, { transactionId }, true);
      if (t === undefined || t.bank.outcome === null || t.bank.answeredAt !== null) return;
      if (t.status !== 'processing' && t.status !== 'cancelled') return;
      if (t.status === 'cancelled' && t.bank.receivedAt === null) return;
      const now = new Date(rt.ctx.clock());
      const fields = { bank_answered_at: now, bank_received_at: t.bank.receivedAt ?? now };
      effects.moved(
        t.bank.outcome === 'succeeded'
          ? await move(tx, rt, t, 'succeeded', 'paid', fields)
          : await move(tx, rt, t, 'rejected', 'rejected', { ...fields, reason: t.bank.outcome }),
      );
    });
  }
}
