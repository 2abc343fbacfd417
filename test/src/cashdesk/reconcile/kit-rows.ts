import type { PaymentView, SessionUpdate } from '../../../../src/contracts/cashdesk-payments.js';
import type { Database } from '../../../../src/db/index.js';
import { PaymentStore } from '../../../../src/cashdesk/payments/store.js';
import type { PaymentRecord } from '../../../../src/cashdesk/payments/record.js';
import type { Basket, PaymentPhase } from '../../../../src/pay/session-types.js';
import { BASKET, TOTAL } from '../../../support/pay-server.js';

/** What the kit recorded of one transaction, as a crashed or half-told payment leaves it. */
export interface KitTransactionRow {
  transactionId: string | number;
  status: string;
  statusClass?: 'transit' | 'successful' | 'unsuccessful';
  current?: boolean;
}

/** A payment row as `serve` writes it, with the events its till was told (each at the database's now). */
export interface KitRow {
  tillId: string;
  paymentId: string;
  phase: PaymentPhase;
  requestId: string;
  cardSession: string;
  transactions?: KitTransactionRow[];
  refunds?: PaymentView['refunds'];
  /** Events told to the till, numbered from 1. */
  events?: Array<Omit<SessionUpdate, 'paymentId' | 'seq'>>;
  createdAt?: Date;
}

/** Writes a payment row the way the payments store does (insert, then a save with its events), lease released. */
export async function writeKitRow(db: Database, row: KitRow): Promise<void> {
  const store = new PaymentStore(db, { owner: 'test-instance', ttlMs: 60_000 });
  const current = row.transactions?.find((t) => t.current !== false);
  const view: PaymentView = {
    paymentId: row.paymentId,
    phase: row.phase,
    walletPayIsDefault: true,
    providers: [],
    ...(current
      ? { transactionId: current.transactionId, status: current.status, statusClass: current.statusClass }
      : {}),
    totalAmount: TOTAL,
    transactions: (row.transactions ?? []).map((t) => ({
      transactionId: t.transactionId,
      status: t.status,
      ...(t.statusClass ? { statusClass: t.statusClass } : {}),
      current: t.current !== false,
      refundedAmount: 0,
      totalAmount: TOTAL,
    })),
    ...(row.refunds ? { refunds: row.refunds } : {}),
    receiptSent: false,
    updatedAt: new Date().toISOString(),
  };
  const record: PaymentRecord = {
    tillId: row.tillId,
    paymentId: row.paymentId,
    receiptSent: false,
    snapshot: {
      phase: row.phase,
      stage: 'checkout',
      requestId: row.requestId,
      cardSession: row.cardSession,
      basket: BASKET as Basket,
      providers: [],
      walletPayIsDefault: true,
      left: [],
    },
    view,
    createdAt: row.createdAt ?? new Date(),
  };
  if (!(await store.insert({ record, epoch: 1, active: false, events: [] }))) throw new Error('row exists');
  const events = (row.events ?? []).map((e, i) => ({ seq: i + 1, update: { paymentId: row.paymentId, ...e } }));
  if (!(await store.save({ record, epoch: 1, active: false, events }))) throw new Error('row not saved');
  await db.query(
    'UPDATE cashdesk_payments SET owner = NULL, lease_until = NULL WHERE till_id = $1 AND payment_id = $2',
    [row.tillId, row.paymentId],
  );
}
