import { createHash } from 'node:crypto';
import type { PayProfile } from '../../pay/options.js';
import { PayError } from '../../pay/errors.js';
import { PaymentsError } from './errors.js';
import type { ReceiptMark } from './receipt-mark.js';
import type { TillPayment } from './till-payment.js';

/**
 * The id of one receipt of one transaction: the same receipt given again (a till repeating `pay.receipt`) has the
 * same id, another one (a refund's receipt) another. Derived, not drawn, so a repeat is recognised even when the
 * record of the first attempt was lost.
 */
export function receiptIdOf(paymentId: string, transactionId: string, receipt: Record<string, unknown>): string {
  const hash = createHash('sha256').update(JSON.stringify([paymentId, transactionId, canonical(receipt)]));
  return `rcpt_${hash.digest('hex').slice(0, 32)}`;
}

/** The value with object keys in order: the same receipt in another key order is the same receipt. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries.map(([k, v]) => [k, canonical(v)]));
}

/**
 * `pay.receipt` at most once at the service. The intent to send (its receiptId, `sending`) is written before the
 * call and the outcome after it. Profile `'kit'` sends the receiptId, so a repeat after a lost answer or a lost
 * write is answered by the service without a second receipt. Profile `'document'` has no receiptId: after an
 * unknown outcome the receipt is never sent again here; the till is told `receiptStatus: "unknown"`.
 *
 * @throws PaymentsError `PAYMENT_BUSY` while this payment's receipt call runs; the call's error otherwise
 *   (profile `'kit'`: the till repeats the intent safely).
 */
export async function sendReceiptOnce(
  payment: TillPayment,
  receipt: Record<string, unknown>,
  profile: PayProfile,
): Promise<void> {
  const transactionId = payment.session.transactionId;
  const receiptId = receiptIdOf(payment.paymentId, String(transactionId ?? ''), receipt);
  const same = payment.receipt.receiptId === receiptId;
  if (same && payment.receiptSending) {
    throw new PaymentsError('PAYMENT_BUSY', `the receipt of payment ${payment.paymentId} is being sent: retry`);
  }
  if (same && payment.receipt.receiptStatus === 'sent') return;
  if (same && profile === 'document' && payment.receipt.receiptStatus !== undefined) {
    // Sent before with no recorded outcome: a second send could give the customer the receipt twice.
    await mark(payment, { receiptId, receiptStatus: 'unknown' });
    return;
  }
  const before = payment.receipt;
  payment.receiptSending = true;
  try {
    await mark(payment, { receiptId, receiptStatus: 'sending' });
    try {
      await payment.session.sendReceipt(receipt, profile === 'kit' ? receiptId : undefined);
    } catch (error) {
      const unknown = error instanceof PayError && error.outcomeUnknown;
      if (unknown && profile === 'document') return await mark(payment, { receiptId, receiptStatus: 'unknown' });
      // Refused (nothing was forwarded): the mark as it was; unknown under 'kit': `sending` stays for the repeat.
      if (!unknown) await mark(payment, before);
      throw error;
    }
    payment.receiptSent = true;
    await mark(payment, { receiptId, receiptStatus: 'sent' });
  } finally {
    payment.receiptSending = false;
  }
}

/** Records where the receipt stands, before the till is answered. */
async function mark(payment: TillPayment, receipt: ReceiptMark): Promise<void> {
  payment.receipt = receipt;
  await payment.flush();
}
