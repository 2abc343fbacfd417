// Promo codes on the kit's database: setting them up, and one card's use of one (credited in one transaction).
import type { PromoCodeResult } from '../contracts/loyalty/index.js';
import type { Database } from '../db/index.js';
import { lockCard } from './card-lock.js';

/** A promo code as the merchant sets it up. */
export interface PromoCodeInput {
  /** Matched case-insensitively (stored upper case). */
  code: string;
  /** Bonus credited on use, in kopecks. */
  bonusAmount: number;
  /** After this moment the code is EXPIRED. Default: never. */
  expiresAt?: Date;
  /** Uses in all (1 = a single-use code). Default: no limit; each card may use a code once either way. */
  maxRedemptions?: number;
}

/** What a promo code did. */
export interface PromoOutcome {
  result: PromoCodeResult;
  bonusAmount?: number;
}

/** Creates a promo code, or replaces its terms (uses so far are kept). */
export async function putPromoCode(db: Database, promo: PromoCodeInput): Promise<void> {
  await db.query(
    `INSERT INTO loyalty_promo_codes (code, bonus_amount, expires_at, max_redemptions) VALUES ($1, $2, $3, $4)
       ON CONFLICT (code) DO UPDATE SET bonus_amount = EXCLUDED.bonus_amount, expires_at = EXCLUDED.expires_at,
         max_redemptions = EXCLUDED.max_redemptions`,
    [promo.code.trim().toUpperCase(), promo.bonusAmount, promo.expiresAt ?? null, promo.maxRedemptions ?? null],
  );
}

/** Creates a promo code unless one with that code exists; true when created. */
export async function addPromoCodeIfMissing(db: Database, promo: PromoCodeInput): Promise<boolean> {
  const { rowCount } = await db.query(
    `INSERT INTO loyalty_promo_codes (code, bonus_amount, expires_at, max_redemptions) VALUES ($1, $2, $3, $4) ` +
      `ON CONFLICT (code) DO NOTHING`,
    [promo.code.trim().toUpperCase(), promo.bonusAmount, promo.expiresAt ?? null, promo.maxRedemptions ?? null],
  );
  return rowCount > 0;
}

/**
 * Uses a promo code for a card: checks existence, expiry, the card's earlier use and the uses left, then credits the
 * bonus.
 */
export async function redeemPromoCode(
  db: Database,
  cardNumber: string,
  code: string,
  now: Date,
): Promise<PromoOutcome> {
  return db.transaction(async (tx) => {
    await lockCard(tx, cardNumber);
    // Locking the code serializes its uses, so max_redemptions cannot be overrun.
    const { rows } = await tx.query<{
      bonus_amount: number;
      expires_at: Date | null;
      max_redemptions: number | null;
      redemptions: number;
    }>(
      'SELECT bonus_amount, expires_at, max_redemptions, redemptions FROM loyalty_promo_codes WHERE code = $1 ' +
        'FOR UPDATE',
      [code.toUpperCase()],
    );
    const promo = rows[0];
    if (!promo) return { result: 'INVALID' };
    if (promo.expires_at !== null && promo.expires_at.getTime() <= now.getTime()) return { result: 'EXPIRED' };
    const used = await tx.query('SELECT 1 FROM loyalty_promo_redemptions WHERE code = $1 AND card_number = $2', [
      code.toUpperCase(),
      cardNumber,
    ]);
    if (used.rows.length > 0) return { result: 'ALREADY_USED' };
    if (promo.max_redemptions !== null && promo.redemptions >= promo.max_redemptions) return { result: 'ALREADY_USED' };
    const bonusAmount = Number(promo.bonus_amount);
    await tx.query('UPDATE loyalty_promo_codes SET redemptions = redemptions + 1 WHERE code = $1', [
      code.toUpperCase(),
    ]);
    await tx.query(
      'INSERT INTO loyalty_promo_redemptions (code, card_number, bonus_amount, redeemed_at) VALUES ($1, $2, $3, $4)',
      [code.toUpperCase(), cardNumber, bonusAmount, now],
    );
    await tx.query('UPDATE loyalty_cards SET balance = balance + $2 WHERE card_number = $1', [cardNumber, bonusAmount]);
    return { result: 'APPLIED', bonusAmount };
  });
}
