/**
 * What the tills and the chaos share during a run: counts, and gates that hold the tills' later payments until each
 * fault has begun, so that every fault lands while payments are under way whatever the machine's speed. Everything
 * waits on this state changing, never on a time: the only timers are failure bounds and pacing bounds that let a
 * run go on (and be reported) when the code under test never reaches a state.
 */
export class ChaosRun {
  /** Payments begun (tickets drawn) and ended, whichever way. */
  begun = 0;
  ended = 0;
  /** Tills whose loop has not ended yet. */
  running = 0;
  /** Intents sent again after a refusal a till acts on by repeating (DATABASE_UNAVAILABLE, a dropped connection). */
  retries = 0;
  /** New bridge connections after the first of each till. */
  reconnects = 0;
  /** Refusals and losses seen by the tills, by code (DROPPED, UNANSWERED: no answer on the connection). */
  readonly refusals: Record<string, number> = {};
  /** Payments a till saw in phase `unknown`, or refused OUTCOME_UNKNOWN: their checkout's fate not known. */
  readonly outcomeUnknown = new Set<string>();
  /** Refusals a till has no rule for: none is expected. */
  readonly unexpected: string[] = [];
  readonly #began: boolean[];
  readonly #waiters = new Set<() => void>();

  /** `gates[j]`: the first ticket that waits for fault j to have begun. */
  constructor(
    readonly total: number,
    readonly gates: readonly number[],
  ) {
    this.#began = gates.map(() => false);
  }

  /** Wakes every waiter to look at the state again. */
  changed(): void {
    for (const wake of [...this.#waiters]) wake();
  }

  /**
   * Resolves true once `holds()` is true, or false after `boundMs`: a bound on how long the run waits for a state
   * the code under test may never reach (then the run goes on, and the checks say what went wrong).
   */
  until(holds: () => boolean, boundMs = Number.POSITIVE_INFINITY): Promise<boolean> {
    if (holds()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (result: boolean) => {
        this.#waiters.delete(look);
        clearTimeout(timer);
        resolve(result);
      };
      const look = () => {
        if (holds()) done(true);
      };
      const timer = Number.isFinite(boundMs) ? setTimeout(() => done(holds()), boundMs) : undefined;
      this.#waiters.add(look);
    });
  }

  /** A till's next payment: its ticket, once the faults due before it have begun. */
  async ticket(): Promise<number> {
    const ticket = this.begun++;
    this.changed();
    for (const [j, gate] of this.gates.entries()) if (ticket >= gate) await this.until(() => this.#began[j]!);
    return ticket;
  }

  /** Fault j has begun: the payments held for it go on. */
  begin(j: number): void {
    this.#began[j] = true;
    this.changed();
  }

  /** A payment ended. */
  end(): void {
    this.ended++;
    this.changed();
  }

  /** Counts a refusal (or a lost answer) by its code. */
  refused(code: string, retried: boolean): void {
    this.refusals[code] = (this.refusals[code] ?? 0) + 1;
    if (retried) this.retries++;
    this.changed();
  }

  /** A till's loop ended. */
  tillDone(): void {
    this.running--;
    this.changed();
  }

  /** Every till's loop has ended. */
  get done(): boolean {
    return this.running === 0;
  }
}
