import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withAuditCaller } from '../../../../src/cashdesk/back-office/audit-context.js';
import { auditedPayments } from '../../../../src/cashdesk/back-office/audited-payments.js';
import { BackOfficePayments } from '../../../../src/cashdesk/back-office/back-office-payments.js';
import type { PaymentBasket, PaymentView } from '../../../../src/contracts/cashdesk-payments.js';
import type { Database } from '../../../../src/db/index.js';
import { demoConfig } from '../../../../src/demo.js';
import { createVerifier, type Verifier } from '../../../../src/entries/index.js';
import { createPayClient } from '../../../../src/entries/pay.js';
import { withRequestId } from '../../../../src/log/index.js';
import type { RunningSandbox } from '../../../../src/sandbox/server.js';
import { databaseCases } from '../../../support/databases.js';
import { startTestSandbox } from '../../../support/sandbox.js';
import { Simulator } from '../../pay/sandbox-harness.js';

const BASKET: PaymentBasket = {
  items: [{ name: 'Milk', article: 'MILK-1', measure: 'PIECE', quantity: 1, price: 8_990 }],
  discountAmount: 0,
};
const ERP = { actor: { kind: 'backOffice' as const, id: 'erp' }, address: '10.0.0.7' };

/** Asks `get` until `done` holds; a bounded number of rounds. */
async function until<T>(get: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  let value = await get();
  for (let round = 0; round < 400 && !done(value); round++) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    value = await get();
  }
  return value;
}

describe.each(databaseCases('the refunds audited in their write'))('BackOfficePayments on $name', (dbCase) => {
  let sandbox: RunningSandbox;
  let sim: Simulator;
  let verifier: Verifier;
  let db: Database;
  let payments: BackOfficePayments;
  const failures: unknown[] = [];
  let failed: () => void = () => {};

  beforeAll(async () => {
    sandbox = await startTestSandbox({ demo: true, timeScale: 1000 });
    sim = new Simulator(sandbox.url);
    verifier = createVerifier({ ...demoConfig.verifier, backend: 'wasm' });
    db = await dbCase.open();
    const client = createPayClient({ baseUrl: sandbox.url, verifier, retries: { baseMs: 5, maxMs: 20 } });
    payments = new BackOfficePayments({
      client,
      db,
      verify: () => Promise.reject(new Error('no scans here')),
      pollIntervalMs: 20,
      sleep: async () => {},
      onError: (error) => {
        failures.push(error);
        failed();
      },
    });
    await payments.init();
  });
  afterAll(async () => {
    await payments?.close();
    await db?.close();
    await verifier?.close();
    await sandbox?.close();
  });

  /** A sale paid through the sandbox's app. */
  async function paidSale(paymentId: string): Promise<PaymentView> {
    const card = await sim.issueCard({ walletPayIsDefault: true });
    const started = await payments.start('till-1', { cardSession: card.cardSession, basket: BASKET, paymentId });
    await sim.confirm(started.transactionId!);
    const paid = await until(
      () => payments.get('till-1', { paymentId }),
      (v) => v.phase === 'succeeded',
    );
    expect(paid.phase).toBe('succeeded');
    return paid;
  }

  const stored = async (paymentId: string) =>
    (await db.query<{ view: PaymentView }>('SELECT view FROM cashdesk_payments WHERE payment_id = $1', [paymentId]))
      .rows[0]!.view;

  it('writes one ok record of a refund, by its caller and request, with the refund it stored', async () => {
    await paidSale('one-row');
    const audited = auditedPayments(payments, (error) => failures.push(error));
    const refunded = await withAuditCaller(ERP, () =>
      withRequestId('req-one-row', () =>
        audited.intent('refund', 'till-1', { paymentId: 'one-row', refundId: 'rf-1', amount: 1_000 }),
      ),
    );
    expect(refunded.refundedAmount).toBe(1_000);
    expect((await stored('one-row')).refundedAmount).toBe(1_000);
    const entries = await payments.readAudit({ paymentId: 'one-row', limit: 10 });
    expect(entries.map((e) => [e.action, e.outcome])).toEqual([['refund', 'ok']]);
    expect(entries[0]).toMatchObject({ ...ERP, refundId: 'rf-1', amount: 1_000, requestId: 'req-one-row' });
  });

  it('records a refused refund once, with its code, through the wrapper', async () => {
    await paidSale('refused');
    const audited = auditedPayments(payments, (error) => failures.push(error));
    const refusal = withAuditCaller(ERP, () =>
      audited.intent('refund', 'till-1', { paymentId: 'refused', refundId: 'rf-big', amount: 999_999 }),
    );
    await expect(refusal).rejects.toMatchObject({ code: expect.any(String) });
    const entries = await payments.readAudit({ paymentId: 'refused', limit: 10 });
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ action: 'refund', actor: ERP.actor, refundId: 'rf-big' });
    expect(entries[0]!.outcome).not.toBe('ok');
  });

  it('leaves the refund unstored while its record cannot be written, and stores both once it can', async () => {
    await paidSale('held');
    await db.exec(`CREATE FUNCTION audit_refused() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'audit refused by the test'; END $$`);
    await db.exec(`CREATE TRIGGER audit_refused BEFORE INSERT ON cashdesk_audit
      FOR EACH ROW EXECUTE FUNCTION audit_refused()`);
    const writeFailed = new Promise<void>((resolve) => {
      failed = resolve;
    });
    await payments.refund('till-1', { paymentId: 'held', refundId: 'rf-held', amount: 500 });
    await writeFailed;
    expect((await stored('held')).refundedAmount ?? 0).toBe(0);
    expect(await payments.readAudit({ paymentId: 'held', limit: 10 })).toEqual([]);
    await db.exec('DROP TRIGGER audit_refused ON cashdesk_audit');
    const retried = await until(
      () => stored('held'),
      (view) => view.refundedAmount === 500,
    );
    expect(retried.refundedAmount).toBe(500);
    const entries = await payments.readAudit({ paymentId: 'held', limit: 10 });
    expect(entries.map((e) => [e.action, e.outcome, e.amount])).toEqual([['refund', 'ok', 500]]);
  });
});
