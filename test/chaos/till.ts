import { setTimeout as sleep } from 'node:timers/promises';
import type { Simulator } from '../src/pay/sandbox-harness.js';
import { BASKET } from '../support/pay-server.js';
import { RpcClient, RpcError } from '../support/ws-client.js';
import type { ChaosRun } from './run.js';

/** A payment's phase and transaction, as a `pay.sessionUpdated` or an answer tells it. */
interface Seen {
  phase: string;
  transactionId?: string;
  receiptSent?: boolean;
}

/** How one payment of a till ended. */
export interface Outcome {
  tillId: string;
  paymentId: string;
  cardNumber: string;
  /** Told `succeeded` and its receipt sent. */
  paid: boolean;
  /** A `pay.sessionUpdated` with phase `succeeded` came for it, on any connection. */
  told: boolean;
  /** Finished through another instance than the one it started on. */
  failover: boolean;
  /** `paid`, or why not: `stalled in <phase>`, `ended <phase>`, `no instance`. */
  end: string;
}

// Failure bounds, not expectations: a payment that does not move for STALL_MS is given up (and reported), an intent
// with no answer for ANSWER_MS counts as lost, a till that reaches no instance for UNREACHABLE_MS stops.
const STALL_MS = 60_000;
const ANSWER_MS = 60_000;
const UNREACHABLE_MS = 60_000;
/** A till that hears nothing new about a payment asks for it (pay.get) after this long. */
const NUDGE_MS = 2_000;
/** Phases after which the payment is over for the till, paid or not. */
const ENDED = new Set(['unavailable', 'blocked', 'abandoned', 'refunded']);
/**
 * Refusals of an intent that was not done, documented as "retry": the till sends it again. PAYMENT_BUSY and
 * PAYMENT_MOVED: another instance holds the payment's lease for a moment (an intent of its own, a takeover).
 */
const REPEAT = new Set(['DATABASE_UNAVAILABLE', 'PAYMENTS_CLOSED', 'PAYMENT_BUSY', 'PAYMENT_MOVED']);
/** Refusals a till acts on by reading where the payment stands (its state moved, or the Pay API is down). */
const REREAD = new Set([
  'SESSION_STATE',
  'SESSION_BUSY',
  'NO_RESCAN_PENDING',
  'OUTCOME_UNKNOWN',
  'PAY_NETWORK',
  'PAY_SERVER',
  'PAY_TIMEOUT',
  'PAY_PROTOCOL',
]);

/** Bounded exponential backoff: 50 ms doubling to 1 s. */
const backoff = (attempt: number) => sleep(Math.min(1_000, 50 * 2 ** Math.min(attempt, 5)));

class Lost extends Error {
  constructor(readonly code: 'DROPPED' | 'UNANSWERED') {
    super(code);
  }
}
class NoInstance extends Error {}

/** A small seeded generator, so each till's customer thinks for the same times run after run. */
function seeded(seed: number): () => number {
  let s = seed % 2_147_483_647 || 1;
  return () => {
    s = (s * 48_271) % 2_147_483_647;
    return s / 2_147_483_647;
  };
}

/**
 * A till on the bridge paying in a loop, as a till program would: one fresh card per payment, every intent
 * repeated when it was not done (DATABASE_UNAVAILABLE, a lost connection), a new connection to the other
 * instance when its own goes away, and the payment carried on by its paymentId whichever instance answers.
 * Its customer confirms in the wallet app each invoice the till says is waiting.
 */
export class ChaosTill {
  readonly outcomes: Outcome[] = [];
  /** Every `pay.sessionUpdated` received, by payment, over all connections. */
  readonly #updates = new Map<string, Seen[]>();
  readonly #confirmed = new Set<string>();
  readonly #customers: Promise<void>[] = [];
  readonly #random: () => number;
  #rpc?: RpcClient;
  #connecting?: Promise<RpcClient>;
  /** Index of the instance of the current (or last) connection. */
  #on: number;
  #connections = 0;

  constructor(
    readonly id: string,
    readonly key: string,
    readonly wsUrls: readonly string[],
    home: number,
    readonly sim: Simulator,
    readonly run: ChaosRun,
  ) {
    [this.#on, this.#random] = [home, seeded(1 + Number(id.replace(/\D/g, '')))];
  }

  /** Pays `count` times (each waiting for its ticket), then closes its connection and lets its customers finish. */
  async loop(count: number): Promise<void> {
    try {
      for (let i = 0; i < count; i++) {
        await this.run.ticket();
        const outcome = await this.#pay(`${this.id}-${i}`);
        this.outcomes.push(outcome);
        this.run.end();
        if (outcome.end === 'no instance') break;
      }
    } finally {
      await this.#rpc?.close();
      await Promise.all(this.#customers);
      this.run.tillDone();
    }
  }

  /** Cuts the connection, as a network blip would; the till connects again, to the other instance first. */
  drop(): void {
    this.#rpc?.ws.terminate();
  }

  /** Whether a `pay.sessionUpdated` said `succeeded` for the payment. */
  told(paymentId: string): boolean {
    return (this.#updates.get(paymentId) ?? []).some((u) => u.phase === 'succeeded');
  }

  async #pay(paymentId: string): Promise<Outcome> {
    const card = await this.sim.issueCard({ walletPayIsDefault: true });
    const startedOn = this.#on;
    const outcome = (end: string): Outcome => ({
      tillId: this.id,
      paymentId,
      cardNumber: card.cardNumber,
      paid: end === 'paid',
      told: this.told(paymentId),
      failover: this.#on !== startedOn,
      end,
    });
    let barcode = card.barcode;
    let seen: Seen | undefined;
    let lastPhase = 'none';
    let moved = Date.now();
    /** Updates of the payment already acted on: any that came meanwhile (during an intent) are read at once. */
    let heard = 0;
    for (;;) {
      if (seen !== undefined && seen.phase !== lastPhase) {
        lastPhase = seen.phase;
        moved = Date.now();
      }
      if (Date.now() - moved > STALL_MS) {
        const untold = lastPhase === 'succeeded' && !this.told(paymentId);
        return outcome(`stalled in ${lastPhase}${untold ? ' (pay.get), never told' : ''}`);
      }
      try {
        if (seen === undefined) {
          seen = await this.#get(paymentId);
          seen ??= await this.#intent('pay.start', { fullBarcode: barcode, basket: BASKET, paymentId });
          continue;
        }
        const { phase } = seen;
        if (ENDED.has(phase)) return outcome(`ended ${phase}`);
        if (phase === 'succeeded' && this.told(paymentId)) {
          if (seen.receiptSent === true) return outcome('paid');
          seen = await this.#intent('pay.receipt', { paymentId, receipt: { chaos: paymentId, total: 1 } });
        } else if (phase === 'unsuccessful') {
          seen = await this.#intent('pay.retry', { paymentId });
        } else if (phase === 'offered') {
          seen = await this.#intent('pay.checkout', { paymentId });
        } else if (phase === 'rescanning') {
          barcode = (await this.sim.rescan(card.cardNumber)).barcode;
          seen = await this.#intent('pay.rescan', { paymentId, fullBarcode: barcode });
        } else {
          // Under way (checking, checkout, pending), or paid but not yet told: the customer acts on a waiting
          // invoice; the till waits to hear more, and asks when it hears nothing. A lost answer to the provider
          // list (`new`) or to /checkout (`unknown`) is the server's to ask again: the till does not, so a payment
          // its server leaves there is seen stalled.
          if (phase === 'unknown') this.#unknown(paymentId);
          if (phase === 'pending') this.#customer(card.cardNumber, seen.transactionId);
          ({ seen, heard } = await this.#news(paymentId, heard));
        }
      } catch (error) {
        seen = undefined;
        if (error instanceof NoInstance) return outcome('no instance');
        if (error instanceof Lost) {
          this.run.refused(error.code, true);
          continue;
        }
        if (!(error instanceof RpcError)) throw error;
        if (error.code === 'BARCODE_REFUSED') {
          // The scan went in with an intent whose answer was lost (a replayed password is refused): the customer
          // shows the card again, and the same payment starts with the new scan.
          this.run.refused(error.code, true);
          barcode = (await this.sim.rescan(card.cardNumber)).barcode;
        } else if (REREAD.has(error.code)) {
          if (error.code === 'OUTCOME_UNKNOWN') this.#unknown(paymentId);
          this.run.refused(error.code, false);
          await backoff(2);
        } else {
          this.run.refused(error.code, false);
          this.run.unexpected.push(`${this.id} ${paymentId}: ${error.code} (${error.rpcCode}) ${error.message}`);
          await backoff(5);
        }
      }
    }
  }

  #unknown(paymentId: string): void {
    this.run.outcomeUnknown.add(paymentId);
    this.run.changed();
  }

  /** `pay.get`, or undefined when the payment is not known (its pay.start never went in). */
  async #get(paymentId: string): Promise<Seen | undefined> {
    try {
      return await this.#intent('pay.get', { paymentId });
    } catch (error) {
      if (error instanceof RpcError && error.code === 'PAYMENT_NOT_FOUND') return undefined;
      throw error;
    }
  }

  /** The newest update of the payment once more than `heard` came; undefined (ask) after a while or a drop. */
  async #news(paymentId: string, heard: number): Promise<{ seen: Seen | undefined; heard: number }> {
    const rpc = this.#rpc;
    const count = () => this.#updates.get(paymentId)?.length ?? 0;
    await this.run.until(() => count() > heard || this.#rpc !== rpc, NUDGE_MS);
    const list = this.#updates.get(paymentId) ?? [];
    return list.length > heard ? { seen: list.at(-1), heard: list.length } : { seen: undefined, heard };
  }

  /** Sends an intent; sends it again, after a backoff, while it is refused as not done. */
  async #intent(method: string, params: Record<string, unknown>): Promise<Seen> {
    const since = Date.now();
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.#send(method, params);
      } catch (error) {
        if (!(error instanceof RpcError) || !REPEAT.has(error.code) || Date.now() - since > STALL_MS) throw error;
        this.run.refused(error.code, true);
        // Stopping, its payments gone, or its database away (a load balancer drains an instance saying 503): another
        // instance can take the intent.
        if (error.code === 'PAYMENTS_CLOSED' || error.code === 'DATABASE_UNAVAILABLE') this.drop();
        await backoff(attempt);
      }
    }
  }

  async #send(method: string, params: Record<string, unknown>): Promise<Seen> {
    const rpc = await this.#connection();
    let timer: NodeJS.Timeout | undefined;
    const unanswered = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Lost('UNANSWERED')), ANSWER_MS);
    });
    const dropped = rpc.closed.then((): never => {
      throw new Lost('DROPPED');
    });
    try {
      return await Promise.race([rpc.call<Seen>(method, params), dropped, unanswered]);
    } catch (error) {
      if (error instanceof Lost && error.code === 'UNANSWERED') rpc.ws.terminate();
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  #connection(): Promise<RpcClient> {
    if (this.#rpc !== undefined && this.#rpc.ws.readyState === this.#rpc.ws.OPEN) return Promise.resolve(this.#rpc);
    this.#connecting ??= this.#connect().finally(() => {
      this.#connecting = undefined;
    });
    return this.#connecting;
  }

  /** A new connection: after a lost one, the other instance first (its own may be the one that died). */
  async #connect(): Promise<RpcClient> {
    const first = this.#connections === 0 ? this.#on : (this.#on + 1) % this.wsUrls.length;
    const since = Date.now();
    for (let round = 0; ; round++) {
      for (let k = 0; k < this.wsUrls.length; k++) {
        const index = (first + k) % this.wsUrls.length;
        const rpc = await RpcClient.connect(this.wsUrls[index]!, { key: this.key }).catch(() => undefined);
        if (rpc === undefined) continue;
        if (this.#connections++ > 0) this.run.reconnects++;
        this.#on = index;
        this.#rpc = rpc;
        this.#listen(rpc);
        return rpc;
      }
      if (Date.now() - since > UNREACHABLE_MS) throw new NoInstance();
      await backoff(round);
    }
  }

  /** Keeps every `pay.sessionUpdated` of the connection; its end wakes whoever waits for news. */
  #listen(rpc: RpcClient): void {
    rpc.ws.on('message', (data) => {
      const frame = JSON.parse(String(data)) as { method?: string; params?: Seen & { paymentId: string } };
      if (frame.method !== 'pay.sessionUpdated' || frame.params === undefined) return;
      const list = this.#updates.get(frame.params.paymentId) ?? [];
      list.push(frame.params);
      this.#updates.set(frame.params.paymentId, list);
      this.run.changed();
    });
    void rpc.closed.then(() => {
      if (this.#rpc === rpc) this.#rpc = undefined;
      this.run.changed();
    });
  }

  /** The customer, told to confirm, confirms that invoice and any other the wallet app shows for the card. */
  #customer(cardNumber: string, transactionId: string | undefined): void {
    if (transactionId === undefined || this.#confirmed.has(transactionId)) return;
    this.#confirmed.add(transactionId);
    const think = 50 + Math.floor(this.#random() * 250);
    this.#customers.push(
      (async () => {
        await sleep(think);
        // Already confirmed, expired or cancelled: the app refuses, as it would the customer's tap.
        await this.sim.confirm(transactionId).catch(() => {});
        const shown = await this.sim.invoices(cardNumber).catch(() => []);
        for (const invoice of shown) {
          if (this.#confirmed.has(invoice.transactionId)) continue;
          this.#confirmed.add(invoice.transactionId);
          await this.sim.confirm(invoice.transactionId).catch(() => {});
        }
      })(),
    );
  }
}
