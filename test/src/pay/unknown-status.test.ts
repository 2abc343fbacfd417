import { describe, expect, it } from 'vitest';
import {
  createPaymentSession,
  type PayClient,
  type PaymentSessionEvent,
  type TransactionAnswer,
} from '../../../src/entries/pay.js';
import { resolvePayDialect } from '../../../src/contracts/pay/dialect.js';
import { testClock } from '../../support/clock.js';

const dialect = resolvePayDialect({ statuses: { NEW: 'transit', PAID: 'successful' } });
const basket = { items: [{ name: 'Milk', article: 'MILK', quantity: 1, price: 100 }] };

/** A session on a scripted client: each poll answers the next status word; polls run when `poll()` says so. */
function harness(words: string[]) {
  const time = testClock(0);
  const statuses = [...words];
  const wakes: Array<() => void> = [];
  let polled: (() => void) | undefined;
  const client = {
    profile: 'kit',
    dialect,
    availabilityTask: async () => ({
      walletPayIsDefault: true,
      providers: [{ providerId: 'p', name: 'P', available: true }],
    }),
    checkout: async (b: { requestId: string }) => ({ transactionId: 7, requestId: b.requestId, status: 'NEW' }),
    status: async (): Promise<TransactionAnswer> => {
      const status = statuses.shift() ?? 'NEW';
      const cls = dialect.classOf(status);
      polled?.();
      return { transactionId: 7, status, ...(cls ? { statusClass: cls } : {}) };
    },
  } as unknown as PayClient;
  const events: PaymentSessionEvent[] = [];
  const session = createPaymentSession({
    client,
    cardSession: 'AB12CD34',
    basket,
    rescan: async () => 'CD34AB12',
    unknownStatusTimeoutMs: 60_000,
    clock: time.now,
    onEvent: (e) => events.push(e),
    sleep: (_ms, signal) =>
      new Promise<void>((resolve, reject) => {
        wakes.push(resolve);
        signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
      }),
  });
  return {
    session,
    events,
    advance: time.advance,
    /** Lets one poll run and waits until its answer was handled. */
    async poll() {
      const answered = new Promise<void>((resolve) => {
        polled = resolve;
      });
      wakes.shift()!();
      await answered;
      await new Promise((resolve) => setImmediate(resolve));
    },
    /** Ends one wait between polls (a poll may or may not run in it) and waits for the next wait or the loop's end. */
    async tick() {
      wakes.shift()!();
      for (let i = 0; i < 100 && wakes.length === 0; i++) await new Promise((resolve) => setImmediate(resolve));
    },
  };
}

describe('PaymentSession with a status its dialect does not know', () => {
  it('tells the desk once, at the first such answer, and stays pending', async () => {
    const h = harness(['ON_HOLD', 'ON_HOLD']);
    expect(await h.session.start()).toBe('pending');
    await h.poll();
    await h.poll();
    const told = h.events.filter((e) => e.type === 'statusNotUnderstood');
    expect(told).toEqual([{ type: 'statusNotUnderstood', state: { transactionId: 7, status: 'ON_HOLD' } }]);
    expect(h.session.phase).toBe('pending');
    h.session.close();
  });

  it(
    'moves to unknown with UNRECOGNIZED_STATUS after ' + 'unknownStatusTimeoutMs of nothing but unknown words',
    async () => {
      const h = harness(['ON_HOLD', 'ON_HOLD', 'ON_HOLD']);
      await h.session.start();
      await h.poll();
      h.advance(59_999);
      await h.poll();
      expect(h.session.phase).toBe('pending');
      h.advance(1);
      await h.poll();
      expect(h.session.phase).toBe('unknown');
      expect(h.session.unknownReason).toBe('UNRECOGNIZED_STATUS');
      h.session.close();
    },
  );

  it('restarts the wait when a known transit word comes between unknown ones', async () => {
    const h = harness(['ON_HOLD', 'NEW', 'ON_HOLD']);
    await h.session.start();
    await h.poll();
    h.advance(60_000);
    await h.poll(); // NEW: known again
    await h.poll(); // ON_HOLD: a new wait begins
    expect(h.session.phase).toBe('pending');
    h.session.close();
  });

  it('resolves an unknown payment when a known result comes later, polled with backoff', async () => {
    const h = harness(['ON_HOLD', 'ON_HOLD', 'ON_HOLD', 'PAID']);
    await h.session.start();
    await h.poll();
    h.advance(60_000);
    await h.poll();
    expect(h.session.phase).toBe('unknown');
    const result = h.session.waitForResult();
    // Backing off: 1 tick in 2 polls it, then 1 in 4 (ON_HOLD once more, then PAID).
    let ticks = 0;
    for (; ticks < 40 && h.session.phase === 'unknown'; ticks++) await h.tick();
    expect(ticks).toBe(6);
    expect(await result).toMatchObject({ status: 'PAID', statusClass: 'successful' });
    expect(h.session.phase).toBe('succeeded');
    h.session.close();
  });
});
