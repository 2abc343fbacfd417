import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRANSITIONS, type TransactionStatus } from '../../../../src/contracts/pay/index.js';
import { deriveCardKey } from '../../../../src/entries/index.js';
import { BASE_CONFIG } from '../../../support/fixtures.js';
import { sandboxSchemeCases, startPayHarness, type PayHarness } from './harness.js';

describe.each(sandboxSchemeCases('sandbox Pay state machine'))(
  'sandbox Pay transaction states on $name ($scheme)',
  (dbCase) => {
    let h: PayHarness;
    beforeAll(async () => {
      h = await startPayHarness(dbCase, { payOptions: { invoiceTtlSeconds: 300, cardSessionTtlSeconds: 900 } });
    });
    afterAll(async () => {
      await h?.close();
    });

    const confirm = (id: string) => h.sim('POST', `/sandbox/app/transactions/${id}/confirm`);

    /** A transaction brought to `status` through the API and the simulator. */
    async function reach(status: TransactionStatus): Promise<string> {
      const { transactionId } = await h.invoice();
      switch (status) {
        case 'created':
          break;
        case 'processing':
          await h.sim('POST', '/sandbox/bank', { mode: 'approve', delayMs: 86_400_000 });
          expect((await confirm(transactionId)).body.status).toBe('processing');
          await h.sim('POST', '/sandbox/bank', { mode: 'approve' });
          break;
        case 'succeeded':
          await confirm(transactionId);
          await h.waitStatus(transactionId, (s) => s.status === 'succeeded');
          break;
        case 'rejected':
          expect((await h.sim('POST', `/sandbox/app/transactions/${transactionId}/decline`)).body).toMatchObject({
            status: 'rejected',
            reason: 'DECLINED',
          });
          break;
        case 'cancelled':
          expect((await h.pay('/cancel', { transactionId })).body.status).toBe('cancelled');
          break;
        case 'expired': {
          const record = await h.sim('GET', `/sandbox/transactions/${transactionId}`);
          h.clock.set(Math.max(h.clock.now(), Date.parse(record.body.invoiceExpiresAt)));
          expect((await h.pay('/status', { transactionId })).body).toMatchObject({
            status: 'expired',
            statusClass: 'unsuccessful',
          });
          break;
        }
      }
      return transactionId;
    }

    const actions: Record<
      string,
      { to: TransactionStatus; run: (id: string) => Promise<{ status: number; body: any }> }
    > = {
      'customer confirms': { to: 'processing', run: confirm },
      'customer declines': {
        to: 'rejected',
        run: (id) => h.sim('POST', `/sandbox/app/transactions/${id}/decline`, { reason: 'INSUFFICIENT_FUNDS' }),
      },
      'customer cancels in the app': {
        to: 'cancelled',
        run: (id) => h.sim('POST', `/sandbox/app/transactions/${id}/cancel`),
      },
      'merchant cancels': { to: 'cancelled', run: (id) => h.pay('/cancel', { transactionId: id }) },
    };
    const customerOnlyFromCreated = new Set(['customer confirms', 'customer declines', 'customer cancels in the app']);
    const statuses: TransactionStatus[] = ['created', 'processing', 'succeeded', 'rejected', 'cancelled', 'expired'];

    for (const from of statuses) {
      it(
        `from ${from}: allows exactly the moves of TRANSITIONS and refuses ` + `the others with 409 INVALID_STATE`,
        async () => {
          for (const [name, action] of Object.entries(actions)) {
            const legal =
              TRANSITIONS[from].includes(action.to) && (from === 'created' || !customerOnlyFromCreated.has(name));
            const id = await reach(from);
            const answer = await action.run(id);
            if (legal) {
              expect(answer.status, `${name} from ${from}`).toBe(200);
              expect(answer.body.status, `${name} from ${from}`).toBe(action.to);
            } else {
              expect(answer.status, `${name} from ${from}`).toBe(409);
              expect(answer.body.status, `${name} from ${from}`).toBe('INVALID_STATE');
              expect((await h.pay('/status', { transactionId: id })).body.status, `${name} left ${from} alone`).toBe(
                from,
              );
            }
          }
          if (from !== 'succeeded') {
            const id = await reach(from);
            expect((await h.pay('/refund', { transactionId: id, refundId: 'r1' })).body.status).toBe('INVALID_STATE');
            expect((await h.pay('/receipt', { transactionId: id, receipt: { total: 1 } })).body.status).toBe(
              'INVALID_STATE',
            );
          }
        },
      );
    }

    it("answers with the bank's reason: declined, insufficient funds, technical", async () => {
      for (const [mode, reason] of [
        ['decline', 'DECLINED'],
        ['insufficient', 'INSUFFICIENT_FUNDS'],
        ['technical', 'TECHNICAL'],
      ] as const) {
        await h.sim('POST', '/sandbox/bank', { mode });
        const { transactionId } = await h.invoice();
        await confirm(transactionId);
        expect(await h.waitStatus(transactionId, (s) => s.status !== 'processing')).toMatchObject({
          status: 'rejected',
          reason,
          statusClass: 'unsuccessful',
        });
      }
      await h.sim('POST', '/sandbox/bank', { mode: 'approve' });
    });

    it('takes a receipt for a succeeded transaction and shows it in the record', async () => {
      const id = await reach('succeeded');
      expect(
        (await h.pay('/receipt', { transactionId: id, receipt: { fn: '9289000100242345', total: 20_180 } })).body,
      ).toEqual({ transactionId: id, status: 'ACCEPTED' });
      expect((await h.sim('GET', `/sandbox/transactions/${id}`)).body.receipts[0].receipt).toEqual({
        fn: '9289000100242345',
        total: 20_180,
      });
    });

    it('expires an unconfirmed invoice on its own (the sweeper), not only when read', async () => {
      const { transactionId } = await h.invoice();
      const record = await h.sim('GET', `/sandbox/transactions/${transactionId}`);
      h.clock.set(Date.parse(record.body.invoiceExpiresAt) + 1);
      const deadline = Date.now() + 30_000; // a bound on the wait for the sweeper, not an expectation of its speed
      let status = '';
      while (Date.now() < deadline && status !== 'expired') {
        status = (await h.sim('GET', `/sandbox/transactions/${transactionId}`)).body.status;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(status).toBe('expired');
    });

    it('refuses a card session once expired (409 CARD_SESSION_INVALID) and takes a rescanned one', async () => {
      const card = await h.card();
      expect((await h.pay('/availability-info', { cardSession: card.cardSession })).status).toBe(200);
      h.clock.advance(900_000);
      for (const [path, body] of [
        ['/availability-info', { cardSession: card.cardSession }],
        ['/checkout', h.checkoutBody(card.cardSession, `late-${h.clock.now()}`)],
      ] as const) {
        const answer = await h.pay(path, body);
        expect(answer.status, path).toBe(409);
        expect(answer.body, path).toMatchObject({
          status: 'CARD_SESSION_INVALID',
          errors: ['cardSession: expired; scan the barcode again'],
        });
      }
      const rescan = await h.sim('POST', `/sandbox/cards/${card.cardNumber}/barcode`, { partnerId: h.partnerId });
      expect(rescan.body.cardSession).not.toBe(card.cardSession);
      expect(h.verifier.barcodeVerify(rescan.body.barcode)).toMatchObject({
        resultCode: 'CARDSESSION_AVAILABLE',
        cardSession: rescan.body.cardSession,
      });
      expect((await h.pay('/checkout', h.checkoutBody(rescan.body.cardSession, `fresh-${h.clock.now()}`))).status).toBe(
        200,
      );
    });

    it("draws barcodes the partner's verifier accepts, with or without a card session", async () => {
      const card = await h.card();
      expect(h.verifier.barcodeVerify(card.barcode)).toMatchObject({
        resultCode: 'CARDSESSION_AVAILABLE',
        cardNumber: card.cardNumber,
        cardSession: card.cardSession,
      });
      const plain = await h.card({ withSession: false });
      expect(plain.cardSession).toBeNull();
      expect(h.verifier.barcodeVerify(plain.barcode)).toMatchObject({
        resultCode: 'CARDSESSION_NOT_AVAILABLE',
        cardNumber: plain.cardNumber,
      });
      expect((await h.sim('POST', '/sandbox/cards/nope-404/barcode', { partnerId: h.partnerId })).status).toBe(404);
    });

    it(
      'gives the app a card key only when the partner is card-bound, and keeps the scheme when the partner is ' +
        'updated without one',
      async () => {
        const card = await h.card();
        expect(card.cardKey).toBe(
          dbCase.scheme === 'card-bound' ? deriveCardKey(BASE_CONFIG.key, card.cardNumber, 'HMACSHA256') : null,
        );
        const updated = await h.sim('POST', '/sandbox/partners', { partnerId: h.partnerId, key: BASE_CONFIG.key });
        expect(updated.body.scheme).toBe(dbCase.scheme);
        expect(h.verifier.barcodeVerify((await h.card()).barcode).reason).toBe('OK');
      },
    );
  },
);
