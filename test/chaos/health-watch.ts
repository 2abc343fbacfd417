import type { ServeInstance } from './instances.js';

/** How often each instance's /healthz is asked. */
const EVERY_MS = 250;

/**
 * Asks every instance's `/healthz` through a run and keeps the false 503s: a 503 from an instance whose PostgreSQL
 * answers it. The chaos says when an instance's PostgreSQL goes away ({@link cut}) and comes back ({@link back});
 * from then on its 503s are false again once it has said 200 (its pool's own view has caught up).
 */
export class HealthWatch {
  /** `<instance> 503 at <s>`: each false 503. */
  readonly false503: string[] = [];
  /** 503s given while the instance's PostgreSQL was away (or coming back): the honest ones. */
  true503 = 0;
  polls = 0;
  readonly #away = new Set<ServeInstance>();
  readonly #coming = new Set<ServeInstance>();
  readonly #t0 = Date.now();
  #running?: Promise<void>;
  #stopped = false;

  constructor(readonly instances: readonly ServeInstance[]) {}

  /** Starts asking. */
  start(): void {
    this.#running ??= Promise.all(this.instances.map((instance) => this.#watch(instance))).then(() => {});
  }

  /** Stops asking; resolves once the last answers are in. */
  async stop(): Promise<void> {
    this.#stopped = true;
    await this.#running;
  }

  /** These instances' PostgreSQL is going away: their 503s are honest until they say 200 after {@link back}. */
  cut(instances: readonly ServeInstance[]): void {
    for (const instance of instances) {
      this.#coming.delete(instance);
      this.#away.add(instance);
    }
  }

  /** Their PostgreSQL answers again: the next 200 of each ends its outage. */
  back(instances: readonly ServeInstance[]): void {
    for (const instance of instances) this.#coming.add(instance);
  }

  async #watch(instance: ServeInstance): Promise<void> {
    while (!this.#stopped) {
      const status = await instance.health();
      this.polls++;
      if (status === 200 && this.#coming.delete(instance)) this.#away.delete(instance);
      if (status === 503) {
        if (this.#away.has(instance)) this.true503++;
        else this.false503.push(`${instance.name} 503 at ${((Date.now() - this.#t0) / 1000).toFixed(1)} s`);
      }
      await new Promise((resolve) => setTimeout(resolve, EVERY_MS));
    }
  }
}
