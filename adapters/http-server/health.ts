import type { Env, Hono, Schema } from 'hono';

/** A cheap round trip to one dependency (Redis `PING`, `SELECT 1`): resolves when it answered, rejects otherwise. */
export type HealthProbe = () => Promise<unknown>;

/** Options of {@link HealthCheck}. */
export interface HealthCheckOptions {
  /** A probe not answered within this counts as failing. Default 1000 ms. */
  timeoutMs?: number;
  /**
   * A result is reused for this long, so a storm of health checks reaches each dependency about once a second. Default
   * 1000 ms.
   */
  cacheMs?: number;
  /** Now, in ms; default `Date.now`. */
  clock?: () => number;
}

/** What {@link HealthCheck.check} found. */
export interface HealthReport {
  /** Names of the dependencies that failed their probe, in the order given; empty when all answered. */
  readonly failing: readonly string[];
}

/** The body of a `/healthz` answer while a dependency is down (503). */
export interface UnavailableBody {
  status: 'unavailable';
  failing: string[];
}

/**
 * Probes named dependencies with a timeout each, caching the result for
 * `cacheMs`; concurrent checks share one round of probes. Never throws: a
 * probe's error only marks its dependency failing (its message is not kept,
 * it may name a host or a user).
 *
 * @example
 * const health = new HealthCheck({ redis: () => store.ping() });
 * (await health.check()).failing; // [] or ['redis']
 */
export class HealthCheck {
  readonly #probes: ReadonlyArray<[string, HealthProbe]>;
  readonly #timeoutMs: number;
  readonly #cacheMs: number;
  readonly #clock: () => number;
  #cached: { report: HealthReport; at: number } | undefined;
  #running: Promise<HealthReport> | undefined;

  constructor(probes: Readonly<Record<string, HealthProbe>>, options: HealthCheckOptions = {}) {
    this.#probes = Object.entries(probes);
    this.#timeoutMs = options.timeoutMs ?? 1_000;
    this.#cacheMs = options.cacheMs ?? 1_000;
    this.#clock = options.clock ?? Date.now;
  }

  /** The dependencies failing now (or as of at most `cacheMs` ago). */
  check(): Promise<HealthReport> {
    const cached = this.#cached;
    if (cached !== undefined && this.#clock() - cached.at < this.#cacheMs) return Promise.resolve(cached.report);
    this.#running ??= this.#probeAll().then((report) => {
      this.#cached = { report, at: this.#clock() };
      this.#running = undefined;
      return report;
    });
    return this.#running;
  }

  async #probeAll(): Promise<HealthReport> {
    const results = await Promise.all(this.#probes.map(([, probe]) => this.#answers(probe)));
    return { failing: this.#probes.filter((_, i) => !results[i]).map(([name]) => name) };
  }

  async #answers(probe: HealthProbe): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), this.#timeoutMs);
      timer.unref();
    });
    try {
      return await Promise.race([
        Promise.resolve()
          .then(probe)
          .then(
            () => true,
            () => false,
          ),
        timeout,
      ]);
    } finally {
      clearTimeout(timer);
    }
  }
}

/**
 * Mounts `GET /livez` (200 while the process answers at all) and `GET /healthz`:
 * 200 with `ok()` when every dependency answers its probe, else 503
 * `{ "status": "unavailable", "failing": ["database"] }`.
 */
export function mountHealthRoutes<E extends Env, S extends Schema, P extends string>(
  app: Hono<E, S, P>,
  health: HealthCheck,
  ok: () => object,
): void {
  app.get('/livez', (c) => c.json({ status: 'ok' }, 200));
  app.get('/healthz', async (c) => {
    const { failing } = await health.check();
    if (failing.length > 0)
      return c.json({ status: 'unavailable', failing: [...failing] } satisfies UnavailableBody, 503);
    return c.json({ status: 'ok', ...ok() }, 200);
  });
}
