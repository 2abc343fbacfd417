import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CashDeskPayments } from '../../../../src/cashdesk/payments/service.js';
import { receiptIdOf } from '../../../../src/cashdesk/payments/receipt-once.js';
import type { PaymentBasket, PaymentView } from '../../../../src/contracts/cashdesk-payments.js';
import { openDatabase, type Database } from '../../../../src/db/index.js';
import { demoConfig } from '../../../../src/demo.js';
import { createVerifier, type Verifier } from '../../../../src/entries/index.js';
import { createPayClient } from '../../../../src/entries/pay.js';
import type { PayProfile } from '../../../../src/pay/options.js';
import { startTestSandbox } from '../../../support/sandbox.js';
import { Simulator } from '../../pay/sandbox-harness.js';
import type { RunningSandbox } from '../../../../src/sandbox/server.js';

const BASKET: PaymentBasket = {
  items: [{ name: 'Milk', article: 'MILK-1', measure: 'PIECE', quantity: 1, price: 8_990 }],
  discountAmount: 0,
};
const RECEIPT = { fiscalSign: '1234567890', lines: [{ name: 'Milk', sum: 8_990 }] };

/** Polls `get` until `done` holds; a bounded number of rounds. */
async function until(get: () => Promise<PaymentView>, done: (view: PaymentView) => boolean): Promise<PaymentView> {
  let view = await get();
  for (let round = 0; round < 400 && !done(view); round++) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    view = await get();
  }
  return view;
}

describe('sendReceiptOnce', () => {
  let sandbox: RunningSandbox;
  let sim: Simulator;
  let verifier: Verifier;
  const open: Array<{ payments: CashDeskPayments; db: Database }> = [];

  beforeAll(async () => {
    sandbox = await startTestSandbox({ demo: true, timeScale: 1000 });
    sim = new Simulator(sandbox.url);
    verifier = createVerifier({ ...demoConfig.verifier, backend: 'wasm' });
  });
  afterAll(async () => {
    for (const { payments, db } of open) {
      await payments.close();
      await db.close();
    }
    await verifier?.close();
    await sandbox?.close();
  });

  /** A cash desk's payments on `profile`, and a sale on a fresh card paid through the sandbox's app. */
  async function paidSale(profile: PayProfile, paymentId: string) {
    const client = createPayClient({
      baseUrl: sandbox.url,
      verifier,
      profile,
      retries: { baseMs: 5, maxMs: 20 },
      ...(profile === 'document' ? { paths: { receipt: '/receipt' } } : {}),
    });
    const db = await openDatabase();
    const payments = new CashDeskPayments({
      client,
      db,
      verify: () => Promise.reject(new Error('no scans here')),
      pollIntervalMs: 20,
      sleep: async () => {},
    });
    await payments.init();
    open.push({ payments, db });
    const card = await sim.issueCard({ walletPayIsDefault: true });
    const started = await payments.start('till-1', { cardSession: card.cardSession, basket: BASKET, paymentId });
    expect(started).toMatchObject({ phase: 'pending' });
    await sim.confirm(started.transactionId!);
    const paid = await until(
      () => payments.get('till-1', { paymentId: paymentId }),
      (v) => v.phase === 'succeeded',
    );
    expect(paid.phase).toBe('succeeded');
    const receipts = async () => ((await sim.transaction(paid.transactionId!)) as { receipts: unknown[] }).receipts;
    return { payments, receipts };
  }

  it('gives the same receipt the same id, whatever its key order, and another receipt another', () => {
    const id = receiptIdOf('p1', 'trx-1', { a: 1, b: { c: 2, d: 3 } });
    expect(receiptIdOf('p1', 'trx-1', { b: { d: 3, c: 2 }, a: 1 })).toBe(id);
    expect(receiptIdOf('p1', 'trx-1', { a: 2, b: { c: 2, d: 3 } })).not.toBe(id);
    expect(receiptIdOf('p1', 'trx-2', { a: 1, b: { c: 2, d: 3 } })).not.toBe(id);
  });

  it('forwards one receipt under profile kit when its answer was lost and the till repeats pay.receipt', async () => {
    const { payments, receipts } = await paidSale('kit', 'kit-lost');
    await sim.fault('/receipt', 'drop-after-commit', 1);
    await expect(payments.receipt('till-1', { paymentId: 'kit-lost', receipt: RECEIPT })).rejects.toMatchObject({
      code: 'PAY_NETWORK',
    });
    expect(await payments.get('till-1', { paymentId: 'kit-lost' })).toMatchObject({
      receiptSent: false,
      receiptStatus: 'sending',
    });
    expect(await payments.receipt('till-1', { paymentId: 'kit-lost', receipt: RECEIPT })).toMatchObject({
      receiptSent: true,
      receiptStatus: 'sent',
    });
    expect(await payments.receipt('till-1', { paymentId: 'kit-lost', receipt: RECEIPT })).toMatchObject({
      receiptStatus: 'sent',
    });
    expect(await receipts()).toHaveLength(1);
  });

  it('says the outcome is unknown under profile document and never sends the receipt again itself', async () => {
    const { payments, receipts } = await paidSale('document', 'doc-lost');
    await sim.fault('/receipt', 'drop-after-commit', 1);
    expect(await payments.receipt('till-1', { paymentId: 'doc-lost', receipt: RECEIPT })).toMatchObject({
      receiptSent: false,
      receiptStatus: 'unknown',
    });
    expect(await payments.receipt('till-1', { paymentId: 'doc-lost', receipt: RECEIPT })).toMatchObject({
      receiptStatus: 'unknown',
    });
    expect(await receipts()).toHaveLength(1);
  });

  it('sends a receipt that the service refused again when the till repeats it', async () => {
    const { payments, receipts } = await paidSale('kit', 'kit-refused');
    await sim.fault('/receipt', 'fail-before-commit', 1);
    await expect(payments.receipt('till-1', { paymentId: 'kit-refused', receipt: RECEIPT })).rejects.toThrow();
    expect(await payments.receipt('till-1', { paymentId: 'kit-refused', receipt: RECEIPT })).toMatchObject({
      receiptStatus: 'sent',
    });
    expect(await receipts()).toHaveLength(1);
  });
});
