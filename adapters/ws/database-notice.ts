import type { Logger } from 'pino';

/**
 * The bridge's word on the database, once per change: a warning when a
 * payment call or a till's subscription is first refused `DATABASE_UNAVAILABLE`,
 * a line when one is answered again. During an outage every till retries its
 * intents; a line per refused call would bury the log (and cost more than the
 * answer).
 */
export class DatabaseNotice {
  readonly #log: Logger;
  #down = false;

  constructor(log: Logger) {
    this.#log = log;
  }

  /** A call or a subscription was refused because the database does not answer. */
  refused(): void {
    if (this.#down) return;
    this.#down = true;
    this.#log.warn(
      { code: 'DATABASE_UNAVAILABLE' },
      'database unavailable: bridge payment calls answer DATABASE_UNAVAILABLE',
    );
  }

  /** A call that needs the database was answered. */
  answered(): void {
    if (!this.#down) return;
    this.#down = false;
    this.#log.info('database available again: bridge payment calls are answered');
  }
}
