import { createHash } from 'node:crypto';
import { currentRequestId } from '../../log/request-id.js';
import { amountMismatch, type CheckoutResponse, type Item } from '../../contracts/pay/index.js';
import type { Queryable } from '../../db/index.js';
import { findSession, refuseIfBlocked, sessionProblem } from './cards.js';
import { enqueueTransactionUpdated } from './events.js';
import type { Partner } from './partners.js';
import { expireIfDue } from './expiry.js';
import { write, type Effects, type PayRuntime } from './runtime.js';
import { providersFor, requireOffered } from './providers.js';
import { move } from './state-machine.js';
import { transactionFromRow, type TransactionRow } from './transactions.js';
import { payRefusal } from './pay-refusals.js';

/** A validated checkout body (the contract's output: measure defaulted). */
export interface CheckoutBody {
  requestId: string;
  cardSession: string;
  providerId?: string | undefined;
  items: Item[];
  discountAmount: number;
  totalAmount: number;
}

/**
 * SHA-256 of a body's canonical JSON: the validated value in the contract's field order, so spacing and key order do
 * not matter.
 */
export function bodyHash(body: unknown): string {
  return createHash('sha256').update(JSON.stringify(body)).digest('base64url');
}

/** 422 when totalAmount is not sum(quantity x price) - discountAmount (document section 2.4). */
export function checkAmounts(items: readonly Item[], discountAmount: number, totalAmount: number): void {
  const mismatch = amountMismatch(items, discountAmount, totalAmount);
  if (mismatch !== undefined) throw payRefusal('AMOUNT_MISMATCH', [mismatch]);
}

function canonical(body: CheckoutBody): CheckoutBody {
  return {
    requestId: body.requestId,
    cardSession: body.cardSession,
    ...(body.providerId === undefined ? {} : { providerId: body.providerId }),
    items: body.items.map((i) => ({
      name: i.name,
      article: i.article,
      measure: i.measure,
      quantity: i.quantity,
      price: i.price,
    })),
    discountAmount: body.discountAmount,
    totalAmount: body.totalAmount,
  };
}

/**
 * The invoices of a card session a new /checkout would leave open, locked:
 * those still waiting for the customer, which it supersedes. Under `strict`
 * any open one (waiting, or confirmed and with the bank) refuses it instead.
 */
async function openInvoices(
  tx: Queryable,
  rt: PayRuntime,
  partnerId: string,
  cardSession: string,
  effects: Effects,
): Promise<TransactionRow[]> {
  const statuses: readonly string[] = rt.strict ? ['created', 'processing'] : ['created'];
  const { rows } = await tx.query<Record<string, unknown>>(
    `SELECT * FROM pay_transactions WHERE partner_id = $1 AND card_session = $2 AND status = ANY($3::text[])
     ORDER BY created_at FOR UPDATE`,
    [partnerId, cardSession, statuses],
  );
  if (!rt.strict) return rows.map(transactionFromRow);
  const open: TransactionRow[] = [];
  // An invoice past its life is expired, not open: the sweeper may just not have come by yet.
  for (const row of rows) {
    const t = await expireIfDue(tx, rt, transactionFromRow(row), effects);
    if (statuses.includes(t.status)) open.push(t);
  }
  if (open.length > 0) {
    // No id or status word here: the message reaches the client in whatever dialect the sandbox speaks.
    throw payRefusal('INVOICE_OPEN', [
      'cardSession: an invoice of this card session is still open; cancel it before a new checkout',
    ]);
  }
  return open;
}

async function stored(tx: Queryable, partnerId: string, requestId: string, hash: string): Promise<string | undefined> {
  const { rows } = await tx.query<{ response: string; body_hash: string }>(
    'SELECT response, body_hash FROM pay_transactions WHERE partner_id = $1 AND request_id = $2',
    [partnerId, requestId],
  );
  const row = rows[0];
  if (row === undefined) return undefined;
  if (row.body_hash !== hash) {
    throw payRefusal('IDEMPOTENCY_CONFLICT', [
      'requestId: already used for another checkout (other body or cardSession); use a new requestId',
    ]);
  }
  return row.response;
}

/**
 * POST /checkout (document section 4.2, rules 1-2): creates the invoice the
 * app shows, or answers the stored response again, byte for byte, for the
 * same requestId, cardSession and body (the recovery for a lost answer).
 * The same requestId with another body or cardSession is 409
 * IDEMPOTENCY_CONFLICT. A unique (partner, requestId) key with ON CONFLICT
 * makes concurrent repeats create exactly one transaction. A card session
 * blocked by a refused token answers 409 CARD_SESSION_INVALID, repeat or not. An invoice of the
 * same card session still waiting (`created`) is superseded: cancelled; with
 * `strict`, an open invoice (`created` or `processing`) refuses the new one,
 * 409 INVOICE_OPEN, nothing stored: the document's step is to cancel it first.
 * Returns the response's JSON text (in the kit's words: the route words it).
 */
export async function checkout(rt: PayRuntime, partner: Partner, body: CheckoutBody): Promise<string> {
  checkAmounts(body.items, body.discountAmount, body.totalAmount);
  const value = canonical(body);
  const hash = bodyHash(value);
  const httpRequestId = currentRequestId() ?? null;
  return write(rt, async (tx, effects) => {
    const now = rt.ctx.clock();
    // Locking the session serializes checkouts of one customer, so superseding sees every earlier invoice
    // and a concurrent identical request waits here, then finds the stored answer.
    const session = await findSession(tx, partner.partnerId, body.cardSession, true);
    refuseIfBlocked(session);
    // A repeat is answered before the session is judged, even once it has expired or closed (the recovery for a lost
    // answer).
    const repeat = await stored(tx, partner.partnerId, body.requestId, hash);
    if (repeat !== undefined) return repeat;
    const why = sessionProblem(session, now);
    if (why !== undefined) throw payRefusal('CARD_SESSION_INVALID', [why]);
    requireOffered(providersFor(rt, session!), body.providerId, 'providerId');
    const open = await openInvoices(tx, rt, partner.partnerId, body.cardSession, effects);
    const transactionId = rt.dialect.newTransactionId();
    const response: CheckoutResponse = { transactionId, requestId: body.requestId, status: 'created' };
    const text = JSON.stringify(response);
    const { rows } = await tx.query<Record<string, unknown>>(
      `INSERT INTO pay_transactions (transaction_id, partner_id, request_id, card_session, card_number, body_hash,
        response, provider_id,
         items, discount_amount, total_amount, status, invoice_expires_at, created_at, updated_at, http_request_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10, $11, 'created', $12, $13, $13, $14)
       ON CONFLICT (partner_id, request_id) DO NOTHING RETURNING *`,
      [
        transactionId,
        partner.partnerId,
        body.requestId,
        body.cardSession,
        session!.cardNumber,
        hash,
        text,
        body.providerId ?? null,
        JSON.stringify(value.items),
        body.discountAmount,
        body.totalAmount,
        new Date(now + rt.options.invoiceTtlSeconds * 1000),
        new Date(now),
        httpRequestId,
      ],
    );
    if (rows[0] === undefined) {
      const raced = await stored(tx, partner.partnerId, body.requestId, hash);
      if (raced !== undefined) return raced;
      throw payRefusal('IDEMPOTENCY_CONFLICT', ['requestId: a checkout with this requestId is being created; retry']);
    }
    const created = transactionFromRow(rows[0]);
    effects.kick ||= await enqueueTransactionUpdated(tx, rt, created);
    for (const earlier of open) {
      effects.moved(await move(tx, rt, earlier, 'cancelled', 'superseded', { cancelled_by: 'superseded' }));
    }
    return text;
  });
}
