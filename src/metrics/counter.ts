import { Counter as PromCounter } from 'prom-client';

/** Label values of one series. */
export type Labels = Record<string, string>;

/** A counted series of one label set, bound once: see {@link Counter.series}. */
export interface CounterSeries {
  inc(by?: number): void;
}

/**
 * prom-client's `Counter`, with a bound handle per label set for hot paths.
 * prom-client hashes the label object on every `inc()` (its `labels()`
 * children too); a {@link series} handle adds to a plain number instead, and
 * what it counted reaches the prom-client counter when the counter is read
 * (`get()`: each scrape, `getMetricsAsJSON()`, {@link countOf}).
 *
 * @example
 * const verifications = new Counter('wpk_barcode_verifications_total', 'Verifications.', ['result_code', 'reason']);
 * const valid = verifications.series({ result_code: 'VALID', reason: '' });
 * valid.inc();
 */
export class Counter<L extends string = string> extends PromCounter<L> {
  readonly #bound: Array<{ labels: Labels; pending: number }> = [];

  /** @param labelNames every label a series of this counter may have (prom-client refuses others). */
  constructor(name: string, help: string, labelNames: readonly L[] = []) {
    super({ name, help, labelNames, registers: [] });
  }

  /**
   * A handle on one label set, found once: for hot paths, where finding the
   * series per call would cost more than the count. The series is exported
   * (at 0) from now on.
   */
  series(labels: Labels): CounterSeries {
    const cell = { labels: { ...labels }, pending: 0 };
    this.inc(cell.labels as Partial<Record<L, string>>, 0);
    this.#bound.push(cell);
    return {
      inc: (by = 1) => {
        cell.pending += by;
      },
    };
  }

  /** prom-client's read, with what the bound series counted since the last read added first. */
  override async get(): ReturnType<PromCounter<L>['get']> {
    for (const cell of this.#bound) {
      if (cell.pending === 0) continue;
      this.inc(cell.labels as Partial<Record<L, string>>, cell.pending);
      cell.pending = 0;
    }
    return super.get();
  }

  /** The count of one label set now (0 when never counted). */
  async countOf(labels: Labels = {}): Promise<number> {
    const { values } = await this.get();
    const names = Object.keys(labels);
    const same = (l: Partial<Record<string, string | number>>) =>
      Object.keys(l).length === names.length && names.every((n) => String(l[n]) === labels[n]);
    return values.find((v) => same(v.labels))?.value ?? 0;
  }
}
