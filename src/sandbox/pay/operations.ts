import { randomBytes } from 'node:crypto';
import type {
  AvailabilityResponse,
  AvailabilityTaskResponse,
  Item,
  ReceiptResponse,
  TransactionState,
} from '../../contracts/pay/index.js';
import { blockedProblem, findSession, isBlocked, refuseIfBlocked, requireSession } from './cards.js';
import { bodyHash, checkAmounts } from './checkout.js';
import { expireIfDue, invoiceDue } from './expiry.js';
import type { Partner } from './partners.js';
import { providersFor, requireOffered, walletPayIsDefault } from './providers.js';
import { write, type PayRuntime } from './runtime.js';
import { invalidState, move } from './state-machine.js';
import { settleDueRefunds } from './refunds-deferred.js';
import { requireTransaction, transactionState, type TransactionKey, type TransactionRow } from './transactions.js';
import { payRefusal } from './pay-refusals.js';

/** POST /availability-info: the providers for the customer of a live card session. */
export async function availability(
  rt: PayRuntime,
  partner: Partner,
  cardSession: string,
): Promise<AvailabilityResponse> {
  const session = await requireSession(rt.ctx.db, partner.partnerId, cardSession, rt.ctx.clock());
  const providers = providersFor(rt, session);
  return { walletPayIsDefault: walletPayIsDefault(session, providers), providers };
}

/** A validated /availability-info/task body. */
export interface TaskBody {
  requestId: string;
  cardSession: string;
  discountAmount: number;
  totalAmount: number;
  items?: Item[] | undefined;
  offers?: Array<{ providerId: string; marketingMessage: string }> | undefined;
}

/**
 * POST /availability-info/task: registers the payment and the offers the app
 * shows per provider. Idempotent by requestId like /checkout (same body: the
 * stored answer; another: 409).
 */
export async function availabilityTask(rt: PayRuntime, partner: Partner, body: TaskBody): Promise<string> {
  if (body.items !== undefined) checkAmounts(body.items, body.discountAmount, body.totalAmount);
  const hash = bodyHash(body);
  return write(rt, async (tx) => {
    refuseIfBlocked(await findSession(tx, partner.partnerId, body.cardSession));
    const earlier = await tx.query<{ body_hash: string; response: string }>(
      'SELECT body_hash, response FROM pay_tasks WHERE partner_id = $1 AND request_id = $2',
      [partner.partnerId, body.requestId],
    );
    if (earlier.rows[0] !== undefined) {
      if (earlier.rows[0].body_hash !== hash)
        throw payRefusal('IDEMPOTENCY_CONFLICT', ['requestId: already used for another task']);
      return earlier.rows[0].response;
    }
    const session = await requireSession(tx, partner.partnerId, body.cardSession, rt.ctx.clock());
    const providers = providersFor(rt, session);
    (body.offers ?? []).forEach((offer, i) => {
      requireOffered(providers, offer.providerId, `offers.${i}.providerId`);
    });
    const response: AvailabilityTaskResponse = {
      taskId: `task_${randomBytes(10).toString('hex')}`,
      walletPayIsDefault: walletPayIsDefault(session, providers),
      providers,
    };
    const text = JSON.stringify(response);
    const { rowCount } = await tx.query(
      `INSERT INTO pay_tasks (partner_id, request_id, task_id, card_session, body_hash, body, response, created_at)
       VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8) ON CONFLICT (partner_id, request_id) DO NOTHING`,
      [
        partner.partnerId,
        body.requestId,
        response.taskId,
        body.cardSession,
        hash,
        JSON.stringify(body),
        text,
        new Date(rt.ctx.clock()),
      ],
    );
    if (rowCount === 0)
      throw payRefusal('IDEMPOTENCY_CONFLICT', ['requestId: a task with this requestId is being registered; retry']);
    return text;
  });
}

/**
 * POST /status: the transaction (the route's dialect words it). An invoice
 * past its life is expired first, so the answer never lags the sweeper. Asked by requestId +
 * cardSession, a blocked card session answers 409 CARD_SESSION_INVALID (asked
 * by transactionId, the state is still told: the merchant settles what exists).
 */
export async function status(rt: PayRuntime, key: TransactionKey): Promise<TransactionRow> {
  if ('cardSession' in key && (await isBlocked(rt.ctx.db, key.cardSession, key.partnerId))) throw blockedProblem();
  // Refunds that settle later are settled when due before the state is told, as invoices are expired.
  if (rt.dialect.refunds === 'deferred') await settleDueRefunds(rt);
  const t = await requireTransaction(rt.ctx.db, key);
  if (!invoiceDue(t, rt.ctx.clock())) return t;
  return write(rt, async (tx, effects) => {
    const locked = await requireTransaction(tx, { transactionId: t.transactionId }, true);
    return expireIfDue(tx, rt, locked, effects);
  });
}

/**
 * POST /cancel by the merchant: `created` -> `cancelled`, or `processing` ->
 * `cancelled`; answers the transaction after it (the route's dialect words it).
 * If the bank has not received the payment yet, nothing will be withdrawn; if
 * it has, its answer still comes and wins (document section 7).
 */
export async function cancel(rt: PayRuntime, partner: Partner, transactionId: string): Promise<TransactionRow> {
  return write(rt, async (tx, effects) => {
    const found = await requireTransaction(tx, { transactionId, partnerId: partner.partnerId }, true);
    const t = await expireIfDue(tx, rt, found, effects);
    const withdrawn = t.status === 'processing' && t.bank.receivedAt === null;
    const moved = effects.moved(
      await move(tx, rt, t, 'cancelled', 'cancelled', {
        cancelled_by: 'merchant',
        ...(withdrawn ? { bank_outcome: null } : {}),
      }),
    );
    return moved.transaction;
  });
}

/**
 * POST /receipt: the fiscal receipt of a succeeded transaction, kept for the app. With the kit's `receiptId`, a
 * repeat (its answer was lost) is answered as the first was and the app gets the receipt once.
 */
export async function receipt(
  rt: PayRuntime,
  partner: Partner,
  transactionId: string,
  body: Record<string, unknown>,
  receiptId?: string,
): Promise<ReceiptResponse> {
  return write(rt, async (tx) => {
    const t = await requireTransaction(tx, { transactionId, partnerId: partner.partnerId }, true);
    if (t.status !== 'succeeded') throw invalidState(t, 'given a receipt (only a succeeded transaction can be)');
    await tx.query(
      `INSERT INTO pay_receipts (transaction_id, receipt, received_at, receipt_id) VALUES ($1, $2::jsonb, $3, $4)
       ON CONFLICT (transaction_id, receipt_id) DO NOTHING`,
      [transactionId, JSON.stringify(body), new Date(rt.ctx.clock()), receiptId ?? null],
    );
    return { transactionId, status: 'ACCEPTED' };
  });
}

/** The customer acts on an invoice in the app: decline (-> rejected) or cancel (-> cancelled); only while `created`. */
export async function customerAct(
  rt: PayRuntime,
  transactionId: string,
  act: { kind: 'decline'; reason: 'DECLINED' | 'INSUFFICIENT_FUNDS' } | { kind: 'cancel' },
): Promise<TransactionState> {
  return write(rt, async (tx, effects) => {
    const t = await expireIfDue(tx, rt, await requireTransaction(tx, { transactionId }, true), effects);
    if (t.status !== 'created')
      throw invalidState(t, act.kind === 'cancel' ? 'cancelled in the app' : 'declined in the app');
    const moved =
      act.kind === 'cancel'
        ? await move(tx, rt, t, 'cancelled', 'cancelled in the app', { cancelled_by: 'customer' })
        : await move(tx, rt, t, 'rejected', 'declined in the app', { reason: act.reason });
    return transactionState(effects.moved(moved).transaction);
  });
}
