import type { TransactionAnswer } from '../../contracts/pay/answers.js';
import { KitError } from '../../errors.js';
import type { PayClient } from '../../pay/client.js';
import type { PaymentRecord } from '../payments/record.js';
import { compareTransaction, receiptFinding, type ServiceAnswer, transactionsOf } from './compare.js';
import { type HealTarget, healPaidUntold } from './heal.js';
import { healRefundUnknown } from './heal-refund.js';
import { type Period, paymentsOfPeriod } from './period.js';
import type { Discrepancy, ReconcileReport } from './report.js';

/** Default of {@link ReconcileOptions.staleAfterMs}: a transaction in transit this long after its payment began. */
export const DEFAULT_STALE_AFTER_MS = 3_600_000;

/** What a comparison reads, asks and may write. */
export interface ReconcileOptions extends HealTarget {
  /** The Pay API client (its dialect classes the statuses). */
  client: PayClient;
  period: Period;
  /** A till's store; null when it names none. Default: none for every till. */
  storeOf?: (tillId: string) => string | null;
  /** Record what the service says where no money moves (`paid_untold`, `refund_unknown`). Default false. */
  heal?: boolean;
  /** Default {@link DEFAULT_STALE_AFTER_MS}. */
  staleAfterMs?: number;
  /** The comparison's clock (ms). Default Date.now. */
  now?: () => number;
  /** The per-attempt timeout of each /status, in ms. Default: the client's. */
  timeoutMs?: number;
}

/** Asks the service about one transaction: by its id, or by the payment's requestId and cardSession. */
async function ask(client: PayClient, record: PaymentRecord, id: string | number | undefined, timeoutMs?: number) {
  const body =
    id !== undefined
      ? { transactionId: id }
      : { requestId: record.snapshot.requestId, cardSession: record.snapshot.cardSession };
  try {
    return { state: await client.status(body, timeoutMs === undefined ? {} : { timeoutMs }) } as ServiceAnswer;
  } catch (error) {
    return { error: error instanceof KitError ? error.code : 'INTERNAL' } as ServiceAnswer;
  }
}

/** Records what the service says of one discrepancy where no money moves; whether it was recorded. */
async function heal(target: HealTarget, record: PaymentRecord, d: Discrepancy, state: TransactionAnswer) {
  if (d.kind === 'paid_untold') {
    await healPaidUntold(target, record, state);
    return true;
  }
  if (d.kind === 'refund_unknown') return healRefundUnknown(target, record, state);
  return false;
}

/**
 * Compares the kit's payments of a period with the Pay service: reads them
 * from the database (no server needs to run), asks /status about every
 * transaction, and reports each difference. With `heal`, a `paid_untold`
 * payment is recorded as paid and a `refund_unknown` refund as made by the
 * service (see healRefundUnknown); nothing is ever refunded or cancelled.
 */
export async function reconcile(options: ReconcileOptions): Promise<ReconcileReport> {
  const now = options.now ?? Date.now;
  const storeOf = options.storeOf ?? (() => null);
  const staleAfterMs = options.staleAfterMs ?? DEFAULT_STALE_AFTER_MS;
  const records = await paymentsOfPeriod(options.db, options.period);
  const discrepancies: Discrepancy[] = [];
  let transactions = 0;
  for (const record of records) {
    const store = storeOf(record.tillId);
    // One heal per payment and run: a second would write over the first from the record as it was read.
    let healed = false;
    for (const transaction of transactionsOf(record)) {
      transactions++;
      const answer = await ask(options.client, record, transaction.transactionId, options.timeoutMs);
      const found = compareTransaction({ record, transaction, answer, store, now: now(), staleAfterMs });
      for (const d of found) {
        if (!options.heal || healed || !('state' in answer)) continue;
        d.healed = await heal(options, record, d, answer.state);
        healed = d.healed;
      }
      discrepancies.push(...found);
    }
    const receipt = receiptFinding(record, store);
    if (receipt) discrepancies.push(receipt);
  }
  return {
    from: options.period.from.toISOString(),
    to: options.period.to.toISOString(),
    payments: records.length,
    transactions,
    discrepancies,
  };
}
