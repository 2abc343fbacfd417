import type { Partner } from './partners.js';
import { payRefusal } from './pay-refusals.js';

/**
 * Refuses a card number or card session the partner's barcode cannot carry: the
 * delimiter inside either would split the barcode elsewhere, and the layout
 * fixes the session's length. The schemas have checked the characters already.
 */
export function checkCardFields(partner: Partner, fields: { cardNumber?: string; cardSession?: string }): void {
  const { delimeter, cardSessionLength } = partner.layout;
  const problems: string[] = [];
  if (fields.cardNumber?.includes(delimeter)) problems.push(`cardNumber: must not hold the delimiter ${delimeter}`);
  const session = fields.cardSession;
  if (session?.includes(delimeter)) problems.push(`cardSession: must not hold the delimiter ${delimeter}`);
  if (session !== undefined && session.length !== cardSessionLength)
    problems.push(`cardSession: must be ${cardSessionLength} characters, the partner's cardSessionLength`);
  if (problems.length > 0) throw payRefusal('BAD_REQUEST', problems);
}
