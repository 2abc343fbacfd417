/** Payment ids a connection remembers as told: enough for a till's open payments, bounded for a connection of days. */
const MAX_KNOWN = 1024;

/**
 * Keeps a till from hearing of a payment before the `pay.start` that creates
 * it is answered. Without a `paymentId` the till learns the payment's id only
 * from that answer, yet the payment's first updates come while it still waits
 * on the Pay API: told first, they name an id the till cannot place.
 *
 * While a `pay.start` of this connection runs, notifications of a payment the
 * connection has not been told of are held; once a `pay.start`'s answer is
 * sent, those of the payment it answered with follow it, in their order, and
 * once none runs any more, the rest. Notifications of payments already told
 * pass at once.
 */
export class NewPaymentHold {
  readonly #send: (text: string) => void;
  /** Told payment ids, oldest first (a Set keeps insertion order). */
  readonly #known = new Set<string>();
  #starts = 0;
  #held: Array<{ text: string; paymentId: string }> = [];

  /** @param send sends one notification's text on the connection. */
  constructor(send: (text: string) => void) {
    this.#send = send;
  }

  /** A `pay.start` of this connection began. */
  started(): void {
    this.#starts++;
  }

  /** Sends a notification about `paymentId`, or holds it while a `pay.start` runs and the payment is new here. */
  notify(text: string, paymentId: string): void {
    if (this.#starts > 0 && !this.#known.has(paymentId)) {
      this.#held.push({ text, paymentId });
      return;
    }
    this.#remember(paymentId);
    this.#send(text);
  }

  /** The answer of `starts` `pay.start` calls was sent, naming `paymentIds`: their held notifications follow it. */
  answered(starts: number, paymentIds: readonly string[] | undefined): void {
    this.#starts = Math.max(0, this.#starts - starts);
    for (const id of paymentIds ?? []) this.#remember(id);
    if (this.#held.length === 0) return;
    const waiting = this.#held;
    this.#held = [];
    // Those still unknown while another pay.start runs are held again, in the same order.
    for (const { text, paymentId } of waiting) this.notify(text, paymentId);
  }

  #remember(paymentId: string): void {
    this.#known.delete(paymentId);
    this.#known.add(paymentId);
    if (this.#known.size > MAX_KNOWN) this.#known.delete(this.#known.values().next().value!);
  }
}
