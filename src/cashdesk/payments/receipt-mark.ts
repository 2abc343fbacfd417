/**
 * Where the payment's last receipt stands: `sending` (recorded before the call, its outcome not yet recorded),
 * `sent` (the service accepted it), `unknown` (no answer, profile `'document'`: left to `pay reconcile`).
 */
export type ReceiptStatus = 'sending' | 'sent' | 'unknown';

/** The receipt a till payment last sent, as kept in its record (and shown in its view). */
export interface ReceiptMark {
  receiptId?: string;
  receiptStatus?: ReceiptStatus;
}
