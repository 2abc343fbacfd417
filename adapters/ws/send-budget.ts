/** Something holding unsent bytes: a bridge connection. */
export interface Buffering {
  readonly bufferedAmount: number;
}

/**
 * Bytes a client may hold unsent before it counts against the shared budget:
 * a client that reads keeps far less than this, so the sum over all clients is
 * only taken for clients already lagging, never on the hot path.
 */
export const LAGGING_BYTES = 64 * 1024;

/**
 * The bridge's memory budget for unsent answers, over all its clients
 * (`maxBufferedBytesTotal`). Per-client limits alone would let many clients
 * that never read each fill theirs.
 */
export class SendBudget {
  readonly #totalBytes: number;
  readonly #clients: () => Iterable<Buffering>;

  constructor(totalBytes: number, clients: () => Iterable<Buffering>) {
    this.#totalBytes = totalBytes;
    this.#clients = clients;
  }

  /** True when a client holding `own` unsent bytes is lagging and the total is over the budget. */
  exceededBy(own: number): boolean {
    if (own <= Math.min(LAGGING_BYTES, this.#totalBytes)) return false;
    let sum = 0;
    for (const client of this.#clients()) {
      sum += client.bufferedAmount;
      if (sum > this.#totalBytes) return true;
    }
    return false;
  }
}
