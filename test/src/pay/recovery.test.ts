import { describe, expect, it } from 'vitest';
import { demoConfig } from '../../../src/demo.js';
import { createVerifier } from '../../../src/entries/index.js';
import {
  createPayClient,
  type PayClientEvent,
  type PayError,
  type PayClient,
  type PaymentSession,
  type PaymentSessionEvent,
  type PaymentSessionSnapshot,
} from '../../../src/entries/pay.js';
import { paySandboxCases } from './sandbox-harness.js';
import { SMALLER_BASKET, useSandbox } from './session-fixture.js';

const SMALLER_TOTAL = 2 * 8_990;
const of = <T extends PaymentSessionEvent['type']>(events: PaymentSessionEvent[], type: T) =>
  events.filter((e): e is Extract<PaymentSessionEvent, { type: T }> => e.type === type);

/** The client, keeping the requestId of each /availability-info/task it sends. */
function taskSpy(client: PayClient, requestIds: string[]): PayClient {
  return new Proxy(client, {
    get(target, prop) {
      if (prop === 'availabilityTask') {
        return (body: Parameters<PayClient['availabilityTask']>[0]) => {
          requestIds.push(body.requestId);
          return target.availabilityTask(body);
        };
      }
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

// Document section 7, "Pay API recovery rules": one test per row.
describe.each(paySandboxCases('Pay recovery rules over HTTP'))(
  'createPaymentSession, recovery rules, on $name',
  (db) => {
    const t = useSandbox(db);

    it(
      'row 1: a refused token on /availability-info/task, /checkout or /refund ' + 'blocks the card and stores nothing',
      async () => {
        const wrong = createVerifier({
          ...demoConfig.verifier,
          key: 'ab'.repeat(32),
          backend: 'wasm',
          clock: t.clock.now,
        });
        let signer = wrong;
        const client = createPayClient({ baseUrl: t.sb.url, token: (text) => signer.getToken(text), retries: false });
        try {
          // /availability-info/task
          const blockedCard = await t.sim.issueCard({ walletPayIsDefault: false });
          const first = t.open(blockedCard, { client });
          const refused = (await first.session.start().catch((e: unknown) => e)) as PayError;
          expect(refused).toMatchObject({
            code: 'TOKEN_INVALID',
            httpStatus: 401,
            errors: ['X-Wallet-Token: invalid'],
          });
          expect(first.session.phase).toBe('blocked');
          expect(first.types()).toEqual(['cardRefused']);
          await expect(first.session.start()).rejects.toMatchObject({ code: 'SESSION_OVER' });
          // The service blocked that card session too: a new session with it, signed right, is told to rescan (row 2)
          // and
          // goes on.
          signer = t.verifier;
          const again = t.open(blockedCard, { client });
          expect(await again.session.start()).toBe('offered');
          expect(again.rescans).toEqual(['CARD_SESSION_INVALID']);
          expect(again.types()).toEqual(['rescanNeeded', 'providers', 'offerWalletPay']);
          expect(again.session.cardSession).not.toBe(blockedCard.cardSession);
          // /checkout
          const card = await t.sim.issueCard({ walletPayIsDefault: false });
          const second = t.open(card, { client });
          expect(await second.session.start()).toBe('offered');
          signer = wrong;
          await expect(second.session.pay()).rejects.toMatchObject({ code: 'TOKEN_INVALID' });
          expect(second.session.phase).toBe('blocked');
          expect(await t.sim.invoices(card.cardNumber)).toEqual([]);
          // /refund
          signer = t.verifier;
          const third = t.open(await t.sim.issueCard({ walletPayIsDefault: true }), { client });
          await third.session.start();
          await t.sim.confirm(third.session.transactionId!);
          await third.session.waitForResult();
          signer = wrong;
          await expect(third.session.refund()).rejects.toMatchObject({ code: 'TOKEN_INVALID' });
          expect(third.session.phase).toBe('blocked');
          expect((await t.sim.transaction(third.session.transactionId!)).refundedAmount).toBe(0);
        } finally {
          await wrong.close();
        }
      },
    );

    it(
      'row 2: a refused card session at /checkout asks the till to rescan, then a ' +
        'new requestId with the new session',
      async () => {
        const card = await t.sim.issueCard({ walletPayIsDefault: false });
        const { session, rescans, types } = t.open(card);
        expect(await session.start()).toBe('offered');
        const firstRequestId = session.requestId;
        t.clock.advance(901_000); // past the sandbox's 900 s card session lifetime
        const checkout = await session.pay();
        expect(rescans).toEqual(['CARD_SESSION_INVALID']);
        expect(types()).toEqual(['providers', 'offerWalletPay', 'rescanNeeded', 'invoice']);
        expect(session.cardSession).not.toBe(card.cardSession);
        expect(checkout.requestId).not.toBe(firstRequestId);
        const [invoice] = await t.sim.invoices(card.cardNumber);
        expect(invoice).toMatchObject({ transactionId: checkout.transactionId, cardSession: session.cardSession });
      },
    );

    it('row 3: no answer to /checkout: the same requestId again (the client retries the same bytes)', async () => {
      const card = await t.sim.issueCard({ walletPayIsDefault: true });
      const calls: PayClientEvent[] = [];
      const client = t.clientWith({ onEvent: (e) => calls.push(e) });
      const { session, types } = t.open(card, { client });
      await t.sim.fault('/checkout', 'drop-after-commit', 1);
      expect(await session.start()).toBe('pending');
      const checkouts = calls.filter((c) => c.operation === 'checkout' && c.type === 'request');
      expect(checkouts).toHaveLength(2);
      expect(types()).not.toContain('recovering');
      expect(await t.sim.invoices(card.cardNumber)).toHaveLength(1);
    });

    it('row 3: a lost /checkout answer is recovered by /status by requestId first, with no double charge', async () => {
      const card = await t.sim.issueCard({ walletPayIsDefault: true });
      const { session, events } = t.open(card, { client: t.clientWith({ retries: false }) });
      await t.sim.fault('/checkout', 'drop-after-commit', 1);
      expect(await session.start()).toBe('pending');
      expect(of(events, 'recovering').map((e) => [e.step, e.requestId, e.error.code])).toEqual([
        ['status', session.requestId, 'PAY_NETWORK'],
      ]);
      const invoices = await t.sim.invoices(card.cardNumber);
      expect(invoices).toEqual([
        expect.objectContaining({ transactionId: session.transactionId, requestId: session.requestId }),
      ]);
      await t.sim.confirm(session.transactionId!);
      expect(await session.waitForResult()).toMatchObject({ status: 'succeeded', totalAmount: session.totalAmount });
      // One charge: refunding the whole amount once leaves nothing, and no other invoice ever existed.
      const refund = await session.refund();
      expect(refund).toMatchObject({ amount: session.totalAmount, refundedAmount: session.totalAmount });
      await expect(
        t.client.refund({ transactionId: session.transactionId!, refundId: 'second', amount: 1 }),
      ).rejects.toMatchObject({ code: 'AMOUNT_MISMATCH' });
    });

    it('a lost answer to /availability-info/task: the same task is asked again with the same requestId', async () => {
      const card = await t.sim.issueCard({ walletPayIsDefault: true });
      const tasks: string[] = [];
      const client = taskSpy(t.clientWith({ retries: false }), tasks);
      const { session } = t.open(card, { client });
      await t.sim.fault('/availability-info/task', 'drop-after-commit', 1);
      await expect(session.start()).rejects.toMatchObject({ code: 'PAY_NETWORK' });
      expect(session.phase).toBe('new');
      expect(await session.start()).toBe('pending');
      // The sandbox answers a repeated requestId from the task it stored (one task, not two).
      expect(tasks).toEqual([session.requestId, session.requestId]);
    });

    it('a session restored from its write before the provider list asks it again with the same requestId', async () => {
      const card = await t.sim.issueCard({ walletPayIsDefault: true });
      const written: PaymentSessionSnapshot[] = [];
      const first: { session?: PaymentSession } = {};
      first.session = t.open(card, {
        client: t.clientWith({ retries: false }),
        checkpoint: async () => {
          written.push(JSON.parse(JSON.stringify(first.session!.snapshot())));
        },
      }).session;
      await t.sim.fault('/availability-info/task', 'drop-after-commit', 1);
      await expect(first.session.start()).rejects.toMatchObject({ code: 'PAY_NETWORK' });
      expect(written[0]).toMatchObject({ phase: 'checking', requestId: first.session.requestId });
      const tasks: string[] = [];
      const { session } = t.open(card, { client: taskSpy(t.client, tasks), restore: written[0]! });
      expect(session.phase).toBe('new');
      expect(await session.start()).toBe('pending');
      expect(tasks).toEqual([first.session.requestId]);
    });

    it(
      'row 3: nothing committed: /status says NOT_FOUND, then the same ' + '/checkout again, never a new requestId',
      async () => {
        const card = await t.sim.issueCard({ walletPayIsDefault: true });
        const { session, events } = t.open(card, { client: t.clientWith({ retries: false }) });
        await t.sim.fault('/checkout', 'fail-before-commit', 1);
        const requestId = session.requestId;
        expect(await session.start()).toBe('pending');
        expect(of(events, 'recovering').map((e) => e.step)).toEqual(['status', 'checkout']);
        expect(session.requestId).toBe(requestId);
        expect(await t.sim.invoices(card.cardNumber)).toEqual([expect.objectContaining({ requestId })]);
      },
    );

    it(
      'row 3: still no answer after recovery: phase unknown, and recover() ' + 'later finds the committed transaction',
      async () => {
        const card = await t.sim.issueCard({ walletPayIsDefault: true });
        const { session } = t.open(card, {
          client: t.clientWith({ retries: false }),
          recovery: { rounds: 1, baseMs: 5, maxMs: 5 },
        });
        await t.sim.fault('/checkout', 'drop-after-commit', 1);
        await t.sim.fault('/status', 'fail-before-commit', 1);
        const requestId = session.requestId;
        await expect(session.start()).rejects.toMatchObject({ code: 'OUTCOME_UNKNOWN' });
        expect(session.phase).toBe('unknown');
        const recovered = await session.recover();
        expect(recovered.requestId).toBe(requestId);
        expect(session.phase).toBe('pending');
        expect(await t.sim.invoices(card.cardNumber)).toHaveLength(1);
      },
    );

    it(
      'row 4: a changed basket: tell the customer not to confirm, cancel, a new ' +
        'requestId with the same card session',
      async () => {
        const card = await t.sim.issueCard({ walletPayIsDefault: true });
        const { session, events } = t.open(card);
        await session.start();
        const first = { transactionId: session.transactionId!, requestId: session.requestId };
        const result = session.waitForResult();
        const updated = await session.changeBasket(SMALLER_BASKET);
        expect(of(events, 'tellCustomerNotToConfirm')).toEqual([
          { type: 'tellCustomerNotToConfirm', reason: 'BASKET_CHANGED' },
        ]);
        expect((await t.sim.transaction(first.transactionId)).status).toBe('cancelled');
        expect(updated!.requestId).not.toBe(first.requestId);
        expect(session.cardSession).toBe(card.cardSession);
        expect(await t.sim.invoices(card.cardNumber)).toEqual([
          expect.objectContaining({ transactionId: updated!.transactionId, totalAmount: SMALLER_TOTAL }),
        ]);
        await t.sim.confirm(updated!.transactionId);
        expect(await result).toMatchObject({
          transactionId: updated!.transactionId,
          status: 'succeeded',
          totalAmount: SMALLER_TOTAL,
        });
      },
    );

    it(
      'row 5: the customer cancels after confirming, before the result: the payment is cancelled, an updated ' +
        'checkout may follow',
      async () => {
        const card = await t.sim.issueCard({ walletPayIsDefault: true });
        // the bank would receive it in 1 h (3.6 s here): the cancel comes first
        await t.sim.bank('approve', 3_600_000, 3_600_000);
        const { session } = t.open(card);
        await session.start();
        const first = session.transactionId!;
        await t.sim.confirm(first);
        const result = session.waitForResult();
        const cancelled = await session.cancel();
        expect(cancelled).toMatchObject({ transactionId: first, status: 'cancelled' });
        expect(await result).toMatchObject({ status: 'cancelled' });
        expect(session.phase).toBe('unsuccessful');
        expect((await t.sim.transaction(first)).status).toBe('cancelled');
        await t.sim.bank('approve', 0);
        const updated = await session.changeBasket(SMALLER_BASKET);
        expect(updated!.transactionId).not.toBe(first);
        await t.sim.confirm(updated!.transactionId);
        expect(await session.waitForResult()).toMatchObject({ status: 'succeeded', totalAmount: SMALLER_TOTAL });
      },
    );

    it(
      'row 5, last line: the bank had the payment before the cancellation, its ' + 'success still comes: lateResult',
      async () => {
        const card = await t.sim.issueCard({ walletPayIsDefault: true });
        // Received at once, answered 1000 s later (1 s here): after the cancel.
        await t.sim.bank('approve', 1_000_000, 0);
        const { session, events } = t.open(card);
        await session.start();
        await t.sim.confirm(session.transactionId!);
        expect(await session.cancel()).toMatchObject({ status: 'cancelled' });
        const late = await new Promise((resolve) => session.on('lateResult', resolve));
        expect(late).toMatchObject({ state: { transactionId: session.transactionId, status: 'succeeded' } });
        expect(session.phase).toBe('succeeded');
        expect(of(events, 'tellCustomerNotToConfirm')).toEqual([
          { type: 'tellCustomerNotToConfirm', reason: 'CANCELLING' },
        ]);
        await session.refund(); // the desk gives the money back
        expect((await t.sim.transaction(session.transactionId!)).refundedAmount).toBe(session.totalAmount);
      },
    );

    it('row 6: declined: an updated checkout with a new requestId and the same card session', async () => {
      const card = await t.sim.issueCard({ walletPayIsDefault: true });
      await t.sim.bank('decline');
      const { session } = t.open(card);
      await session.start();
      const first = session.requestId;
      await t.sim.confirm(session.transactionId!);
      expect(await session.waitForResult()).toMatchObject({
        status: 'rejected',
        reason: 'DECLINED',
        statusClass: 'unsuccessful',
      });
      expect(session.phase).toBe('unsuccessful');
      await t.sim.bank('approve');
      const retried = await session.retry();
      expect(retried.requestId).not.toBe(first);
      expect(session.cardSession).toBe(card.cardSession);
      await t.sim.confirm(retried.transactionId);
      expect(await session.waitForResult()).toMatchObject({ status: 'succeeded' });
    });

    it('row 7: paid, the customer wants to cancel: refund; the session is over and a rescan is needed', async () => {
      const card = await t.sim.issueCard({ walletPayIsDefault: true });
      const { session, events } = t.open(card);
      await session.start();
      await t.sim.confirm(session.transactionId!);
      await session.waitForResult();
      const refund = await session.refund();
      expect(refund).toMatchObject({
        transactionId: session.transactionId,
        amount: session.totalAmount,
        status: 'succeeded',
      });
      expect(session.phase).toBe('refunded');
      expect(of(events, 'rescanNeeded')).toEqual([{ type: 'rescanNeeded', reason: 'REFUNDED' }]);
      await expect(session.retry()).rejects.toMatchObject({ code: 'SESSION_OVER' });
      // The card session is closed: only a rescan's new one can pay.
      await expect(
        t.client.checkout({
          requestId: 'after-refund',
          cardSession: card.cardSession,
          ...SMALLER_BASKET,
          discountAmount: 0,
          totalAmount: SMALLER_TOTAL,
        }),
      ).rejects.toMatchObject({ code: 'CARD_SESSION_INVALID', httpStatus: 409 });
    });

    it(
      'row 8: the customer cancels in the app by mistake: an updated checkout with a new requestId and the same card ' +
        'session',
      async () => {
        const card = await t.sim.issueCard({ walletPayIsDefault: true });
        const { session } = t.open(card);
        await session.start();
        const first = session.requestId;
        await t.sim.cancelInApp(session.transactionId!);
        expect(await session.waitForResult()).toMatchObject({ status: 'cancelled' });
        const retried = await session.retry();
        expect(retried.requestId).not.toBe(first);
        expect(session.cardSession).toBe(card.cardSession);
        await t.sim.confirm(retried.transactionId);
        expect(await session.waitForResult()).toMatchObject({ status: 'succeeded' });
      },
    );

    it('row 9: rejected for insufficient funds, resolved by the customer: retry with a new requestId', async () => {
      const card = await t.sim.issueCard({ walletPayIsDefault: true });
      await t.sim.bank('insufficient');
      const { session } = t.open(card);
      await session.start();
      await t.sim.confirm(session.transactionId!);
      expect(await session.waitForResult()).toMatchObject({ status: 'rejected', reason: 'INSUFFICIENT_FUNDS' });
      await t.sim.bank('approve');
      const retried = await session.retry();
      await t.sim.confirm(retried.transactionId);
      expect(await session.waitForResult()).toMatchObject({
        status: 'succeeded',
        transactionId: retried.transactionId,
      });
    });

    it(
      'row 10: rejected for technical reasons: retry, and when that fails ' + 'too, fall back to another method',
      async () => {
        const card = await t.sim.issueCard({ walletPayIsDefault: true });
        await t.sim.bank('technical');
        const { session } = t.open(card);
        await session.start();
        await t.sim.confirm(session.transactionId!);
        expect(await session.waitForResult()).toMatchObject({ status: 'rejected', reason: 'TECHNICAL' });
        const retried = await session.retry();
        await t.sim.confirm(retried.transactionId);
        expect(await session.waitForResult()).toMatchObject({ status: 'rejected', reason: 'TECHNICAL' });
        await session.abandon();
        expect(session.phase).toBe('abandoned');
        await expect(session.retry()).rejects.toMatchObject({ code: 'SESSION_OVER' });
      },
    );
  },
);
