/** What one transport measured: completed calls in the window, their rate and latencies. */
export interface TransportResult {
  transport: 'http' | 'bridge';
  /** Completed calls per second within the measured window (answers with an error excluded). */
  rate: number;
  /** Calls answered within the window. */
  calls: number;
  /** Answers saying the barcode verified (`totpCodeValid: true`). */
  accepted: number;
  /** Calls that got no answer or an error answer (non-200, a JSON-RPC error, a dropped connection). */
  errors: number;
  /** The first error seen, for the report; null when none. */
  firstError: string | null;
  latencyMs: { p50: number; p90: number; p99: number; max: number; mean: number };
  /** Measured seconds (the warm-up excluded). */
  seconds: number;
}

/**
 * Counts the calls that end inside the measured window (after the warm-up,
 * before the end), so a rate is completions per second of steady load.
 */
export class MeasureWindow {
  readonly #began: number;
  readonly #start: number;
  readonly #end: number;
  #latencies = new Float64Array(1 << 16);
  #calls = 0;
  #accepted = 0;
  #errors = 0;
  #firstError: string | null = null;

  /** `warmupMs` from now the window opens; `durationMs` later it closes. */
  constructor(warmupMs: number, durationMs: number, now = performance.now()) {
    this.#began = now;
    this.#start = now + warmupMs;
    this.#end = this.#start + durationMs;
  }

  /** True once the window has closed: the load stops sending. */
  get over(): boolean {
    return performance.now() >= this.#end;
  }

  /** Share of warm-up plus window elapsed, 0 to 1, for a progress bar. */
  progress(now = performance.now()): number {
    return Math.min(1, Math.max(0, (now - this.#began) / (this.#end - this.#began)));
  }

  /** Calls answered so far within the window. */
  get calls(): number {
    return this.#calls;
  }

  /** A call sent at `sentAt` answered now. */
  answered(sentAt: number, accepted: boolean, now = performance.now()): void {
    if (now < this.#start || now > this.#end) return;
    if (this.#calls === this.#latencies.length) {
      const grown = new Float64Array(this.#latencies.length * 2);
      grown.set(this.#latencies);
      this.#latencies = grown;
    }
    this.#latencies[this.#calls++] = now - sentAt;
    if (accepted) this.#accepted++;
  }

  /** A call that failed; counted wherever it falls, as an error is never noise. */
  failed(reason: string): void {
    this.#errors++;
    this.#firstError ??= reason;
  }

  /** The figures of a closed window. */
  result(transport: TransportResult['transport']): TransportResult {
    const sorted = this.#latencies.slice(0, this.#calls).sort();
    const at = (q: number) =>
      sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
    const seconds = (this.#end - this.#start) / 1000;
    const sum = sorted.reduce((a, b) => a + b, 0);
    const ms = (v: number) => Math.round(v * 1000) / 1000;
    return {
      transport,
      rate: Math.round(this.#calls / seconds),
      calls: this.#calls,
      accepted: this.#accepted,
      errors: this.#errors,
      firstError: this.#firstError,
      latencyMs: {
        p50: ms(at(0.5)),
        p90: ms(at(0.9)),
        p99: ms(at(0.99)),
        max: ms(sorted.length === 0 ? 0 : sorted[sorted.length - 1]!),
        mean: ms(sorted.length === 0 ? 0 : sum / sorted.length),
      },
      seconds: ms(seconds),
    };
  }
}
