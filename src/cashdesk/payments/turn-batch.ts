/**
 * Gathers the items added during one event-loop turn (and while a batch is
 * being written) into one call of `run`: under load, many payments' writes
 * become one statement instead of one each, which is most of what a write
 * costs on PGlite. Each `add` settles with its own item's result once the
 * batch holding it is done; one batch runs at a time. A batch that fails is
 * tried again item by item, so one bad item fails alone.
 */
export class TurnBatch<T, R> {
  readonly #run: (items: T[]) => Promise<R[]>;
  readonly #max: number;
  #queue: Array<{ item: T; resolve(result: R): void; reject(error: unknown): void }> = [];
  #busy = false;

  /**
   * @param run writes the items, answering one result per item in their order.
   * @param max largest batch (default 200): a statement's parameter stays bounded.
   */
  constructor(run: (items: T[]) => Promise<R[]>, max = 200) {
    this.#run = run;
    this.#max = max;
  }

  /** Queues an item for the next batch; settles when its batch is written. */
  add(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.#queue.push({ item, resolve, reject });
      if (!this.#busy) {
        this.#busy = true;
        // After this turn's I/O callbacks: every write they ask for joins the batch.
        setImmediate(() => void this.#drain());
      }
    });
  }

  async #drain(): Promise<void> {
    while (this.#queue.length > 0) {
      const batch = this.#queue.splice(0, this.#max);
      try {
        const results = await this.#run(batch.map((b) => b.item));
        batch.forEach((b, i) => {
          b.resolve(results[i]!);
        });
      } catch (error) {
        if (batch.length === 1) batch[0]!.reject(error);
        else
          await Promise.all(
            batch.map(({ item, resolve, reject }) => this.#run([item]).then((r) => resolve(r[0]!), reject)),
          );
      }
    }
    this.#busy = false;
  }
}
