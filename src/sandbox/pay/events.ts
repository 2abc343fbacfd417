import type { Queryable } from '../../db/index.js';
import type { PayRuntime } from './runtime.js';
import type { TransactionRow } from './transactions.js';

/** The outbox topic of Pay events. */
export const PAY_TOPIC = 'pay';

/** The webhook id of a transaction's change: one per version, so a change is never announced twice. */
export function eventId(t: Pick<TransactionRow, 'transactionId' | 'version'>): string {
  return `evt_${t.transactionId}_v${t.version}`;
}

/**
 * Records `transaction.updated` for the transaction's current state in the
 * outbox, inside the transaction that made the change (so an event is sent
 * exactly for committed changes). Partners without a webhook URL poll `/status`.
 * Returns whether something was enqueued (then kick the outbox after commit).
 */
export async function enqueueTransactionUpdated(tx: Queryable, rt: PayRuntime, t: TransactionRow): Promise<boolean> {
  const { ctx } = rt;
  const target = await rt.partners.get(tx, t.partnerId);
  if (target?.webhookUrl == null) return false;
  // In the words of the Pay API's answers: a client reads its webhooks and /status alike.
  const payload = {
    type: 'transaction.updated',
    timestamp: new Date(ctx.clock()).toISOString(),
    data: rt.dialect.transaction(t),
  };
  await ctx.outbox.enqueue(tx, {
    topic: PAY_TOPIC,
    owner: t.partnerId,
    eventType: 'transaction.updated',
    url: target.webhookUrl,
    secret: target.webhookSecret,
    payload,
    id: eventId(t),
    ...(t.httpRequestId === null ? {} : { requestId: t.httpRequestId }),
  });
  return true;
}
