// Finding a card inside a transaction: locking its row, or CARD_NOT_FOUND.
import type { Queryable } from '../db/index.js';
import { LoyaltyError } from '../loyalty/errors.js';

/** The error for a card number no card has. */
export function notFound(): LoyaltyError {
  return new LoyaltyError('CARD_NOT_FOUND', ['cardNumber: no such card']);
}

/** Locks a card's row for the rest of the transaction; CARD_NOT_FOUND when there is none. */
export async function lockCard(tx: Queryable, cardNumber: string): Promise<void> {
  const card = await tx.query('SELECT 1 FROM loyalty_cards WHERE card_number = $1 FOR UPDATE', [cardNumber]);
  if (card.rows.length === 0) throw notFound();
}
