import { CardSession, TransactionId } from '../../contracts/pay/index.js';
import { jsonDepth, MAX_JSON_DEPTH } from '../../contracts/json-depth.js';
import { blockSession, blockSessionOf } from './cards.js';
import type { Partner } from './partners.js';
import type { PayRuntime } from './runtime.js';

/** What a refused request was about: the card session it named, or the transaction whose card session it is. */
type Subject = { cardSession: string } | { transactionId: string } | undefined;

function subjectOf(body: Uint8Array, idIn: (value: unknown) => string | undefined): Subject {
  const text = new TextDecoder().decode(body);
  // A refused body is a stranger's: bounded walk before anything parses it (the app's body limit bounds its size).
  if (jsonDepth(text, MAX_JSON_DEPTH + 1) > MAX_JSON_DEPTH) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const { cardSession, transactionId } = value as { cardSession?: unknown; transactionId?: unknown };
  if (CardSession.safeParse(cardSession).success) return { cardSession: cardSession as string };
  // Read as the dialect writes it (a number in some): the card session of the payment is blocked whatever its form.
  const id = idIn(transactionId);
  if (TransactionId.safeParse(id).success) return { transactionId: id! };
  return undefined;
}

/**
 * Document section 5: when the service finds a token invalid, "no further
 * action with the card is possible". Called when a request's signature is
 * wrong (made with another key, or over other bytes), with the partner the
 * token named: the card session the body names (`cardSession`, or the card
 * session of its `transactionId`) is blocked for that partner, durably, so
 * every later call with it answers 409 CARD_SESSION_INVALID until a rescan
 * draws a new one. Refusals of the kit's own additions to the document's token
 * block nothing: a token refused before its body is read (absent, malformed,
 * stale iat, of no partner; reading a body only to find what to block would
 * undo the cheap early refusal), and a replayed jti, whose bytes the partner
 * did sign: the same /checkout with a fresh token is the document's recovery
 * for a lost answer, which a block would turn into a rescan.
 */
export async function blockAfterRefusedToken(
  rt: PayRuntime,
  partner: Partner,
  body: Uint8Array,
  path: string,
): Promise<void> {
  const subject = subjectOf(body, (value) => rt.dialect.transactionIdIn(value));
  if (subject === undefined) return;
  const now = rt.ctx.clock();
  const blocked =
    'cardSession' in subject
      ? await blockSession(rt.ctx.db, partner.partnerId, subject.cardSession, now)
      : await blockSessionOf(rt.ctx.db, partner.partnerId, subject.transactionId, now);
  if (blocked)
    rt.ctx.logger.info({ path, partnerId: partner.partnerId }, 'card session blocked after a refused wallet token');
}
