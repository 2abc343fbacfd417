// Fiscal receipts on the kit's database: each recorded once, its bonus credited in the same transaction.
import type { FiscalReceipt } from '../contracts/loyalty/index.js';
import type { Database } from '../db/index.js';
import { lockCard } from './card-lock.js';

/** What a receipt did. */
export type ReceiptOutcome =
  | { result: 'ACCEPTED'; bonusAmount: number }
  | { result: 'DUPLICATE' }
  | { result: 'FISCAL_SIGN_MISMATCH' };

/**
 * Records a receipt once (by fiscal drive and document number) and credits
 * `bonusAmount`. The same receipt again is DUPLICATE whichever card sends it;
 * the same numbers with another fiscal sign are FISCAL_SIGN_MISMATCH.
 */
export async function acceptReceipt(
  db: Database,
  cardNumber: string,
  receipt: FiscalReceipt,
  bonusAmount: number,
  now: Date,
): Promise<ReceiptOutcome> {
  return db.transaction(async (tx) => {
    await lockCard(tx, cardNumber);
    const inserted = await tx.query(
      `INSERT INTO loyalty_receipts (fiscal_drive_number, document_number, fiscal_sign, card_number,
          receipt_time, sum, operation_type, bonus_amount, accepted_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (fiscal_drive_number,
           document_number) DO NOTHING RETURNING 1`,
      [
        receipt.fiscalDriveNumber,
        receipt.documentNumber,
        receipt.fiscalSign,
        cardNumber,
        receipt.time,
        receipt.sum,
        receipt.operationType,
        bonusAmount,
        now,
      ],
    );
    if (inserted.rows.length === 0) {
      const { rows } = await tx.query<{ fiscal_sign: string }>(
        'SELECT fiscal_sign FROM loyalty_receipts WHERE fiscal_drive_number = $1 AND document_number = $2',
        [receipt.fiscalDriveNumber, receipt.documentNumber],
      );
      return rows[0]?.fiscal_sign === receipt.fiscalSign ? { result: 'DUPLICATE' } : { result: 'FISCAL_SIGN_MISMATCH' };
    }
    await tx.query('UPDATE loyalty_cards SET balance = balance + $2 WHERE card_number = $1', [cardNumber, bonusAmount]);
    return { result: 'ACCEPTED', bonusAmount };
  });
}
