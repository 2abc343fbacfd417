/** Something with a heartbeat tick (a bridge connection). */
export interface Beating {
  heartbeat(): void;
}

/** The timer a {@link Heartbeat} runs on; tests inject one they drive. */
export interface HeartbeatTimer {
  /** Calls `tick` every `ms` until the returned function is called. */
  every(ms: number, tick: () => void): () => void;
}

/** Fewest milliseconds between two slices: shorter would cost more in timer wake-ups than it spreads. */
export const MIN_SLICE_MS = 10;
/** Most slices per interval: at 30 s, one a second, so 10,000 tills make slices of 334 pings (a few ms each). */
export const MAX_SLICES = 30;

/** Node's `setInterval`, unreferenced: the timer alone must not keep a process alive (the server's sockets do). */
const nodeTimer: HeartbeatTimer = {
  every(ms, tick) {
    const timer = setInterval(tick, ms);
    timer.unref();
    return () => clearInterval(timer);
  },
};

/**
 * One timer for every connection of a bridge (not one per connection: a
 * thousand tills would mean a thousand timers). Each connection is visited
 * once per interval: a peer that did not answer the previous ping is
 * terminated, the others pinged, so a dead peer is gone within two intervals
 * of its first ping.
 *
 * The visits are spread over the interval in slices (up to {@link MAX_SLICES},
 * at least {@link MIN_SLICE_MS} apart), each taking its share of the peers not
 * yet visited in this round: pinging 10,000 idle tills at once held the event
 * loop for a quarter of a second every interval, stalling every till's calls.
 * Peers joining during a round are visited in it when the cursor reaches them;
 * peers gone are skipped (the live set is iterated, never a copy); the last
 * slice of a round finishes it whatever joined meanwhile.
 */
export class Heartbeat {
  readonly #stop: () => void;
  readonly #peers: () => ReadonlySet<Beating>;
  readonly #onError: (error: unknown) => void;
  readonly #slices: number;
  #slice = 0;
  #visited = 0;
  #cursor: Iterator<Beating> | undefined;

  /**
   * @param intervalMs how often each peer is visited.
   * @param peers the live connections, iterated in place.
   * @param onError told of a peer whose tick threw; the others are still visited.
   * @param timer what runs the slices. Default: Node's `setInterval`, unreferenced.
   */
  constructor(
    intervalMs: number,
    peers: () => ReadonlySet<Beating>,
    onError: (error: unknown) => void,
    timer: HeartbeatTimer = nodeTimer,
  ) {
    this.#peers = peers;
    this.#onError = onError;
    this.#slices = Math.max(1, Math.min(MAX_SLICES, Math.floor(intervalMs / MIN_SLICE_MS)));
    this.#stop = timer.every(intervalMs / this.#slices, () => this.#tick());
  }

  /** Slices per interval (each at `intervalMs / slices`). */
  get slices(): number {
    return this.#slices;
  }

  /** Stops the timer. */
  stop(): void {
    this.#stop();
  }

  #tick(): void {
    const live = this.#peers();
    if (this.#slice === 0) {
      this.#cursor = live[Symbol.iterator]();
      this.#visited = 0;
    }
    const last = this.#slice === this.#slices - 1;
    // The share of this slice: what is left of the round over the slices left, all of it in the last one.
    let quota = last ? Infinity : Math.ceil(Math.max(0, live.size - this.#visited) / (this.#slices - this.#slice));
    this.#slice = last ? 0 : this.#slice + 1;
    const cursor = this.#cursor!;
    while (quota-- > 0) {
      const next = cursor.next();
      if (next.done === true) break;
      this.#visited++;
      // A throw in a timer callback is an uncaught exception: one broken socket must not end the process.
      try {
        next.value.heartbeat();
      } catch (error) {
        this.#onError(error);
      }
    }
  }
}
