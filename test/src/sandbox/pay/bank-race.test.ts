import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPayHarness, type PayHarness } from './harness.js';
import { sandboxCases } from '../../../support/sandbox.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// One scheme: the bank acts on a confirmed transaction, after the card is scanned (see SCHEMES in harness.ts).
// timeScale is 1000 in the harness: a bank delay of 300_000 ms lasts 300 ms of real time.
describe.each(sandboxCases('sandbox Pay cancel racing the bank'))(
  'sandbox Pay cancel racing the bank on $name',
  (dbCase) => {
    let h: PayHarness;
    beforeAll(async () => {
      h = await startPayHarness(dbCase);
    });
    afterAll(async () => {
      await h?.close();
    });

    async function confirmedWithBank(bank: { mode: string; delayMs: number; receiveMs?: number }): Promise<string> {
      await h.sim('POST', '/sandbox/bank', bank);
      const { transactionId } = await h.invoice();
      expect((await h.sim('POST', `/sandbox/app/transactions/${transactionId}/confirm`)).body.status).toBe(
        'processing',
      );
      await h.sim('POST', '/sandbox/bank', { mode: 'approve' });
      return transactionId;
    }

    it("lets the bank's late approval win over a cancel it arrived after (document section 7, last line)", async () => {
      const id = await confirmedWithBank({ mode: 'approve', delayMs: 300_000 });
      const cancelled = await h.pay('/cancel', { transactionId: id });
      expect(cancelled.body).toMatchObject({ transactionId: id, status: 'cancelled', statusClass: 'unsuccessful' });
      expect(await h.waitStatus(id, (s) => s.status !== 'cancelled')).toMatchObject({
        status: 'succeeded',
        statusClass: 'successful',
      });
      const record = await h.sim('GET', `/sandbox/transactions/${id}`);
      expect(record.body).toMatchObject({ cancelledBy: 'merchant', bank: { outcome: 'succeeded' } });
      expect(record.body.bank.answeredAt).not.toBeNull();
    });

    it('lets a late decline arrive after a cancel too', async () => {
      const id = await confirmedWithBank({ mode: 'insufficient', delayMs: 300_000 });
      expect((await h.pay('/cancel', { transactionId: id })).body.status).toBe('cancelled');
      expect(await h.waitStatus(id, (s) => s.status !== 'cancelled')).toMatchObject({
        status: 'rejected',
        reason: 'INSUFFICIENT_FUNDS',
      });
    });

    it('withdraws the payment when the cancel comes before the bank received it: no answer ever comes', async () => {
      const id = await confirmedWithBank({ mode: 'approve', delayMs: 300_000, receiveMs: 200_000 });
      expect((await h.pay('/cancel', { transactionId: id })).body.status).toBe('cancelled');
      await sleep(600);
      expect((await h.pay('/status', { transactionId: id })).body.status).toBe('cancelled');
      const record = await h.sim('GET', `/sandbox/transactions/${id}`);
      expect(record.body.bank).toMatchObject({ outcome: null, receivedAt: null, answeredAt: null });
    });

    it('answers a status poll with processing until the late bank answers', async () => {
      const id = await confirmedWithBank({ mode: 'approve', delayMs: 300_000 });
      expect((await h.pay('/status', { transactionId: id })).body.status).toBe('processing');
      expect((await h.waitStatus(id, (s) => s.status !== 'processing')).status).toBe('succeeded');
      expect((await h.pay('/cancel', { transactionId: id })).body.status).toBe('INVALID_STATE');
    });
  },
);
