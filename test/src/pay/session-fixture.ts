import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { demoConfig } from '../../../src/demo.js';
import { createVerifier, type Verifier } from '../../../src/entries/index.js';
import {
  createPayClient,
  createPaymentSession,
  type Basket,
  type PayClient,
  type PaymentSession,
  type PaymentSessionEvent,
  type PaymentSessionOptions,
} from '../../../src/entries/pay.js';
import type { PaySandbox, SandboxCard, PaySandboxCase } from './sandbox-harness.js';
import { testClock } from '../../support/clock.js';

/** 2 x 89.90 milk, 350 g of cheese at 1.20 per gram, 10.00 paid with points: 589.80 through the wallet. */
export const BASKET: Basket = {
  items: [
    { name: 'Молоко 1 л', article: 'MILK-1', quantity: 2, price: 8_990 },
    { name: 'Сыр', article: 'CHEESE', measure: 'GRAM', quantity: 350, price: 120 },
  ],
  discountAmount: 1_000,
};

/** The customer took the cheese back. */
export const SMALLER_BASKET: Basket = {
  items: [{ name: 'Молоко 1 л', article: 'MILK-1', quantity: 2, price: 8_990 }],
  discountAmount: 0,
};

/** A session under test with what it told the desk. */
export interface Opened {
  session: PaymentSession;
  events: PaymentSessionEvent[];
  rescans: string[];
  types(): string[];
}

/**
 * Starts one demo sandbox per file and database (PGlite, PostgreSQL), a
 * verifier and client on the same movable clock, and opens sessions that a
 * test drives; every session is closed after its test.
 */
export function useSandbox(db: PaySandboxCase) {
  const clock = testClock('wall');
  const sessions: PaymentSession[] = [];
  const state = {} as { sb: PaySandbox; verifier: Verifier; client: PayClient };
  beforeAll(async () => {
    state.sb = await db.start(clock.now);
    state.verifier = createVerifier({ ...demoConfig.verifier, backend: 'wasm', clock: clock.now });
    state.client = createPayClient({
      baseUrl: state.sb.url,
      verifier: state.verifier,
      retries: { baseMs: 5, maxMs: 20 },
    });
  });
  afterAll(async () => {
    await state.verifier?.close();
    await state.sb?.close();
  });
  beforeEach(async () => {
    await state.sb.sim.bank('approve', 0);
  });
  afterEach(() => {
    for (const s of sessions.splice(0)) s.close();
  });

  function open(card: SandboxCard, extra: Partial<PaymentSessionOptions> = {}): Opened {
    const events: PaymentSessionEvent[] = [];
    const rescans: string[] = [];
    const session = createPaymentSession({
      client: state.client,
      cardSession: card.cardSession,
      basket: BASKET,
      rescan: async (reason) => {
        rescans.push(reason);
        return (await state.sb.sim.rescan(card.cardNumber)).cardSession;
      },
      pollIntervalMs: 10,
      recovery: { baseMs: 5, maxMs: 20 },
      onEvent: (e) => events.push(e),
      ...extra,
    });
    sessions.push(session);
    return {
      session,
      events,
      rescans,
      types: () => events.filter((e) => e.type !== 'phase' && e.type !== 'transaction').map((e) => e.type),
    };
  }

  return {
    clock,
    get sb() {
      return state.sb;
    },
    get sim() {
      return state.sb.sim;
    },
    get verifier() {
      return state.verifier;
    },
    get client() {
      return state.client;
    },
    /** A client with its own options on the same sandbox and clock. */
    clientWith(options: Partial<Parameters<typeof createPayClient>[0]>) {
      return createPayClient({
        baseUrl: state.sb.url,
        verifier: state.verifier,
        retries: { baseMs: 5, maxMs: 20 },
        ...options,
      });
    },
    open,
  };
}
