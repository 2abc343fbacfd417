import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createVerifier, deriveCardKey } from '../../../../src/entries/index.js';
import { BASE_CONFIG, NOW } from '../../../support/fixtures.js';
import { testClock } from '../../../support/clock.js';
import { joseToken, startPayHarness, uid } from './harness.js';
import { sandboxCases, type SandboxCase } from '../../../support/sandbox.js';
import { DATABASE_URL } from '../../../support/services.js';

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** A PGlite data folder, or the PostgreSQL case's own schema, used by both runs. */
function storage(dbCase: SandboxCase) {
  if (dbCase.name === 'postgres') return dbCase.options();
  const dataDir = mkdtempSync(join(tmpdir(), 'wpk-pay-'));
  folders.push(dataDir);
  return { dataDir };
}

describe.each(sandboxCases('sandbox Pay restart'))('sandbox Pay restart on $name', (dbCase) => {
  // One restart for both schemes (a second partner, card-bound, on the same sandbox): restarts are the slow part.
  it('keeps every transaction, refund, idempotent answer, seen token, blocked card session and partner scheme ' +
    'across a restart, and re-drives the bank', async () => {
    const dbOptions = storage(dbCase);
    const partnerId = uid('partner');
    const cardBoundId = uid('card-bound');
    const clock = testClock(NOW);
    const first = await startPayHarness(dbCase, { dbOptions, keepData: true, partnerId, clock });
    const states: Record<string, { transactionId: string; body: unknown }> = {};
    let replayed: { text: string; token: string };
    let checkout: { body: unknown; text: string };
    let processing: string;
    let blocked: string;
    let cardBound: { cardNumber: string; cardKey: string };
    try {
      const keep = async (name: string, transactionId: string) => {
        states[name] = { transactionId, body: (await first.pay('/status', { transactionId })).body };
      };
      const created = await first.invoice();
      const card = await first.card();
      const body = first.checkoutBody(card.cardSession, uid('req'));
      const answer = await first.pay('/checkout', body);
      checkout = { body, text: answer.text };
      await keep('created', created.transactionId);
      const paid = await first.invoice();
      await first.sim('POST', `/sandbox/app/transactions/${paid.transactionId}/confirm`);
      await first.waitStatus(paid.transactionId, (s) => s.status === 'succeeded');
      await first.pay('/refund', {
        transactionId: paid.transactionId,
        refundId: 'r1',
        items: [{ article: 'A-1', quantity: 1 }],
      });
      await keep('refunded', paid.transactionId);
      const declined = await first.invoice();
      await first.sim('POST', `/sandbox/app/transactions/${declined.transactionId}/decline`, {
        reason: 'INSUFFICIENT_FUNDS',
      });
      await keep('rejected', declined.transactionId);
      const cancelled = await first.invoice();
      await first.pay('/cancel', { transactionId: cancelled.transactionId });
      await keep('cancelled', cancelled.transactionId);
      // Handed to a slow bank (1000 s, 1 s here) just before the sandbox stops: the answer must come after the restart.
      await first.sim('POST', '/sandbox/bank', { mode: 'approve', delayMs: 1_000_000 });
      const slow = await first.invoice();
      await first.sim('POST', `/sandbox/app/transactions/${slow.transactionId}/confirm`);
      processing = slow.transactionId;
      expect((await first.pay('/status', { transactionId: processing })).body.status).toBe('processing');
      const text = JSON.stringify({ transactionId: created.transactionId });
      replayed = { text, token: first.verifier.getToken(text) };
      expect((await first.pay('/status', null, { raw: text, token: replayed.token })).status).toBe(200);
      blocked = (await first.card()).cardSession;
      const refused = JSON.stringify({ cardSession: blocked });
      const forged = await joseToken(refused, {
        keyHex: 'ff'.repeat(32),
        iat: Math.floor(clock.now() / 1000),
        kid: partnerId,
      });
      expect((await first.pay('/availability-info', null, { raw: refused, token: forged })).status).toBe(401);
      expect((await first.pay('/availability-info', { cardSession: blocked })).body.status).toBe(
        'CARD_SESSION_INVALID',
      );
      expect(
        (
          await first.sim('POST', '/sandbox/partners', {
            partnerId: cardBoundId,
            key: BASE_CONFIG.key,
            scheme: 'card-bound',
          })
        ).status,
      ).toBe(200);
      cardBound = (await first.sim('POST', '/sandbox/cards', { partnerId: cardBoundId })).body;
    } finally {
      await first.close();
    }

    const second = await startPayHarness(dbCase, { dbOptions, partnerId, clock });
    try {
      for (const [name, { transactionId, body }] of Object.entries(states)) {
        expect((await second.pay('/status', { transactionId })).body, name).toEqual(body);
      }
      expect(
        (await second.sim('GET', `/sandbox/transactions/${states.refunded!.transactionId}`)).body.refunds,
      ).toHaveLength(1);
      const again = await second.pay('/checkout', checkout.body);
      expect(again.text).toBe(checkout.text);
      expect((await second.pay('/status', null, { raw: replayed.text, token: replayed.token })).body.status).toBe(
        'TOKEN_INVALID',
      );
      expect((await second.waitStatus(processing, (s) => s.status !== 'processing')).status).toBe('succeeded');
      expect((await second.pay('/availability-info', { cardSession: blocked })).body.status).toBe(
        'CARD_SESSION_INVALID',
      );
      const redrawn = (
        await second.sim('POST', `/sandbox/cards/${cardBound.cardNumber}/barcode`, { partnerId: cardBoundId })
      ).body;
      expect(redrawn.cardKey).toBe(deriveCardKey(BASE_CONFIG.key, cardBound.cardNumber, 'HMACSHA256'));
      const cardBoundDesk = createVerifier({ ...BASE_CONFIG, scheme: 'card-bound', clock: clock.now, replay: false });
      expect(cardBoundDesk.barcodeVerify(redrawn.barcode)).toMatchObject({
        resultCode: 'CARDSESSION_AVAILABLE',
        cardSession: redrawn.cardSession,
      });
      await cardBoundDesk.close();
    } finally {
      await second.close();
    }
  }, 240_000); // two PGlite starts on a folder (initdb on the first) and every write flushed to disk
});

describe.skipIf(!DATABASE_URL)('sandbox Pay: two sandboxes on one PostgreSQL', () => {
  it(
    'share seen tokens, idempotency and the bank: a token used on one is refused by the other, a checkout repeated ' +
      'on both is one transaction',
    async () => {
      const dbCase = sandboxCases('two sandboxes').find((c) => c.name === 'postgres')!;
      const dbOptions = dbCase.options();
      const partnerId = uid('partner');
      const clock = testClock(NOW);
      const a = await startPayHarness(dbCase, { dbOptions, keepData: true, partnerId, clock });
      const b = await startPayHarness(dbCase, { dbOptions, partnerId, clock });
      try {
        const card = await a.card();
        const text = JSON.stringify(a.checkoutBody(card.cardSession, uid('req')));
        const token = a.verifier.getToken(text);
        const onA = await a.pay('/checkout', null, { raw: text, token });
        expect(onA.status).toBe(200);
        expect((await b.pay('/checkout', null, { raw: text, token })).body.status).toBe('TOKEN_INVALID');
        const answers = await Promise.all([
          ...Array.from({ length: 5 }, () => a.pay('/checkout', null, { raw: text })),
          ...Array.from({ length: 5 }, () => b.pay('/checkout', null, { raw: text })),
        ]);
        expect(new Set(answers.map((x) => x.text))).toEqual(new Set([onA.text]));
        const { transactionId } = onA.body as { transactionId: string };
        expect((await b.sim('POST', `/sandbox/app/transactions/${transactionId}/confirm`)).body.status).toBe(
          'processing',
        );
        expect((await a.waitStatus(transactionId, (x) => x.status !== 'processing')).status).toBe('succeeded');
      } finally {
        await a.close();
        await b.close();
      }
    },
  );
});
