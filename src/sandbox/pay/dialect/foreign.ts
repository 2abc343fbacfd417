import { randomInt } from 'node:crypto';
import { foreignErrors, foreignIds } from './foreign-edge.js';
import { FOREIGN_REFUND_STATES, FOREIGN_STATUSES, foreignStatus } from './foreign-words.js';
import type { PayDialect } from './types.js';

// Ids this service writes as JSON numbers (a Java `long`), kept below 2^53 so every client reads them exactly.
const FIRST_ID = 1_000_000_000_000;
const ID_TEXT = /^[1-9][0-9]{0,15}$/;

/** The stored id as this service writes it: a number when it is one (ids made under the kit's dialect stay text). */
function idOut(id: string): number | string {
  return ID_TEXT.test(id) && Number.isSafeInteger(Number(id)) ? Number(id) : id;
}

function idIn(value: unknown): string | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value > 0 ? String(value) : undefined;
  return typeof value === 'string' ? value : undefined;
}

/**
 * A second Pay service's wording on the document's paths and field names:
 * statuses `NEW`, `IN_PROGRESS`, `PAID`, `DECLINED`, `CANCELED`, `EXPIRED` and
 * the undocumented `ON_HOLD`; transaction ids as JSON numbers; refusals as
 * `{code, message}` (410 `SESSION_EXPIRED` for a card session it will not
 * take); no `statusClass` (the kit's own field); refunds answered `PENDING`
 * and settled later. What the words mean is in `foreign-words.ts`.
 */
export const foreignDialect: PayDialect = {
  name: 'foreign',
  refunds: 'deferred',
  newTransactionId: () => String(randomInt(FIRST_ID, FIRST_ID + 2 ** 47)),
  transactionIdIn: idIn,
  transaction: (t) => ({
    transactionId: idOut(t.transactionId),
    requestId: t.requestId,
    status: foreignStatus(t),
    ...(t.reason === null ? {} : { reason: t.reason }),
    totalAmount: t.totalAmount,
    refundedAmount: t.refundedAmount,
    updatedAt: t.updatedAt.toISOString(),
  }),
  checkout(stored) {
    // Stored in the kit's words when the invoice was made (`created`); worded on every answer, so a repeat is
    // the same bytes.
    const answer = JSON.parse(stored) as { transactionId: string; requestId: string };
    const { requestId } = answer;
    return JSON.stringify({ transactionId: idOut(answer.transactionId), requestId, status: FOREIGN_STATUSES.created });
  },
  receipt: (r) => ({ transactionId: idOut(r.transactionId), status: r.status }),
  refund: (r) => ({
    refundId: r.refundId,
    transactionId: idOut(r.transactionId),
    amount: r.amount,
    refundedAmount: r.refundedAmount,
    status: FOREIGN_REFUND_STATES[r.state],
  }),
  outside: [foreignErrors],
  inside: [foreignIds(idIn)],
};
