import type { Writable } from 'node:stream';

/** What the hold needs of a socket. */
export type Corkable = Pick<Writable, 'cork' | 'uncork'>;

/**
 * Holds a socket's writes for the rest of the event-loop turn, so every
 * answer written in one turn leaves in one `writev` instead of one each.
 *
 * ws corks and uncorks the socket around each frame it writes; corks nest
 * (only the last uncork flushes), so with ours held its frames queue in the
 * socket's buffer. With 32 calls in flight most of a till's frames arrive
 * together, and one syscall per answer was the largest cost of the bridge.
 * The flush waits for `setImmediate`, not `process.nextTick`: answers that
 * settle in promise callbacks (a Redis store) run after the tick queue, and
 * would otherwise miss the batch and each cost a syscall again.
 */
export class TurnCork {
  readonly #socket: Corkable;
  readonly #beforeRelease: () => void;
  #held = false;
  readonly #release = (): void => {
    this.#held = false;
    this.#beforeRelease();
    // Uncorking a socket destroyed meanwhile is a no-op in Node's Writable.
    this.#socket.uncork();
  };

  /** @param beforeRelease runs just before the held writes leave (to publish what they report). */
  constructor(socket: Corkable, beforeRelease: () => void = () => undefined) {
    this.#socket = socket;
    this.#beforeRelease = beforeRelease;
  }

  /** True while this turn's writes are being held. */
  get held(): boolean {
    return this.#held;
  }

  /** Starts holding writes until the end of this turn (no-op if already holding). */
  hold(): void {
    if (this.#held) return;
    this.#held = true;
    this.#socket.cork();
    setImmediate(this.#release);
  }
}
