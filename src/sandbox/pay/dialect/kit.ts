import { randomBytes } from 'node:crypto';
import { transactionState } from '../transactions.js';
import type { PayDialect } from './types.js';

/**
 * The kit's own dialect (openapi/pay.json), the default: every answer is
 * the one the sandbox always gave, byte for byte, and no middleware is added.
 */
export const kitDialect: PayDialect = {
  name: 'kit',
  refunds: 'instant',
  newTransactionId: () => `trx_${randomBytes(10).toString('hex')}`,
  transactionIdIn: (value) => (typeof value === 'string' ? value : undefined),
  transaction: (t) => transactionState(t),
  checkout: (stored) => stored,
  receipt: (r) => r,
  refund: (r) => ({
    refundId: r.refundId,
    transactionId: r.transactionId,
    amount: r.amount,
    refundedAmount: r.refundedAmount,
    status: r.state,
  }),
  outside: [],
  inside: [],
};
