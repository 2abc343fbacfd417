/** Something with a heartbeat tick (a bridge connection). */
export interface Beating {
  heartbeat(): void;
}

/**
 * One timer for every connection of a bridge (not one per connection: a
 * thousand tills would mean a thousand timers). Each tick pings the live
 * peers and terminates those that did not answer the previous ping, so a dead
 * peer is gone within two intervals.
 */
export class Heartbeat {
  readonly #timer: NodeJS.Timeout;

  constructor(intervalMs: number, peers: () => Iterable<Beating>, onError: (error: unknown) => void) {
    this.#timer = setInterval(() => {
      for (const peer of peers()) {
        // A throw in a timer callback is an uncaught exception: one broken socket must not end the process.
        try {
          peer.heartbeat();
        } catch (error) {
          onError(error);
        }
      }
    }, intervalMs);
    // The timer alone must not keep a process alive: the server's sockets do that.
    this.#timer.unref();
  }

  /** Stops the timer. */
  stop(): void {
    clearInterval(this.#timer);
  }
}
