import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPayHarness, uid, type PayHarness } from './harness.js';
import { sandboxCases } from '../../../support/sandbox.js';

const cancelFirst = expect.stringContaining('cancel it');
const kitRefusal = { status: 409, body: { status: 'INVOICE_OPEN', errors: [cancelFirst] } };
const foreignRefusal = { status: 409, body: { code: 'PAYMENT_IN_PROGRESS', message: cancelFirst } };
const dialects = [
  { dialect: 'kit' as const, refusal: kitRefusal },
  { dialect: 'foreign' as const, refusal: foreignRefusal },
];

// One scheme: superseding acts on invoices, after the scan (see SCHEMES in harness.ts).
describe.each(sandboxCases('sandbox Pay strict checkout'))('sandbox Pay strict checkout on $name', (dbCase) => {
  describe.each(dialects)('in the $dialect dialect', ({ dialect, refusal }) => {
    let h: PayHarness;
    beforeAll(async () => {
      h = await startPayHarness(dbCase, { sandbox: { dialect, strict: true } });
    });
    afterAll(async () => {
      await h?.close();
    });

    it('refuses a /checkout for a card session whose invoice is still waiting, and stores nothing', async () => {
      const first = await h.invoice();
      const second = h.checkoutBody(first.cardSession, uid('req'));
      expect(await h.pay('/checkout', second)).toMatchObject(refusal);
      // Nothing was superseded: the first invoice still waits for the customer.
      expect((await h.sim('GET', `/sandbox/transactions/${first.transactionId}`)).body.status).toBe('created');
      expect((await h.pay('/cancel', { transactionId: first.transactionId })).status).toBe(200);
      expect((await h.pay('/checkout', second)).status).toBe(200);
    });

    it('refuses it too while the invoice is confirmed and with the bank', async () => {
      await h.sim('POST', '/sandbox/bank', { mode: 'approve', delayMs: 86_400_000 });
      const first = await h.invoice();
      await h.sim('POST', `/sandbox/app/transactions/${first.transactionId}/confirm`);
      await h.sim('POST', '/sandbox/bank', { mode: 'approve' });
      expect(await h.pay('/checkout', h.checkoutBody(first.cardSession, uid('req')))).toMatchObject(refusal);
    });

    it("still answers a repeat of the open invoice's own /checkout with its stored answer", async () => {
      const card = await h.card();
      const body = h.checkoutBody(card.cardSession, uid('req'));
      const created = await h.pay('/checkout', body);
      expect((await h.pay('/checkout', body)).text).toBe(created.text);
    });
  });
});
