import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Env } from 'hono';
import type { Logger } from 'pino';
import type { Database, Migration } from '../db/index.js';
import type { FailureLimiter } from '../guard/failure-limiter.js';
import type { ChangeFeed } from './changes.js';
import type { Outbox } from './outbox/outbox.js';

/** What every sandbox module is given. */
export interface SandboxContext {
  /** The sandbox's database (PGlite by default, PostgreSQL with DATABASE_URL). */
  readonly db: Database;
  /** Now, in ms since the epoch. Tests move it; everything time-based reads it. */
  readonly clock: () => number;
  readonly logger: Logger;
  /** Durable, signed, retried webhook deliveries (Pay status events, Push callbacks). */
  readonly outbox: Outbox;
  /** Started with `--demo`: the demo partner, account and cards exist. */
  readonly demo: boolean;
  /**
   * Compresses the sandbox's waits (webhook retry schedule, simulated bank delays): a
   * wait of `ms` lasts `ms / timeScale`. Default 1; tests use e.g. 1000.
   */
  readonly timeScale: number;
  /**
   * The brute-force limit shared by the sandbox's credential checks (Push
   * Basic auth, Pay tokens), so one address has one budget; undefined when
   * turned off. Its `lockouts` is the count for a metrics endpoint.
   */
  readonly authLimiter?: FailureLimiter;
  /** The Pay API's words (`SandboxOptions.dialect`): `kit` by default, `foreign` to try a client on other words. */
  readonly dialect: 'kit' | 'foreign';
  /** `SandboxOptions.strict`: a /checkout for a card session with an open invoice is refused, not superseding it. */
  readonly strict: boolean;
  /** Change notices after each committed change, for the pages' server-sent events (`GET /sandbox/app/events`). */
  readonly changes: ChangeFeed;
}

/**
 * One emulated part of the wallet service (Pay, Push, the Loyalty driver).
 * The sandbox applies each module's migrations, then mounts its routes on the
 * one app: public API paths as the document names them, simulator and
 * test-control paths under `/sandbox/`, all with `app.openapi()` so they are in
 * the OpenAPI document.
 */
export interface SandboxModule {
  /** Short name; also the migrations' module name. */
  readonly name: string;
  readonly migrations: readonly Migration[];
  mount(app: OpenAPIHono<Env>, ctx: SandboxContext): void;
  /** With `--demo`: creates the demo records if missing (idempotent); returns lines for the start banner. */
  seedDemo?(ctx: SandboxContext): Promise<string[]>;
  /** Background work to start once the server listens (e.g. the simulated bank). */
  start?(ctx: SandboxContext): void;
  /** Stops background work; awaited on shutdown before the database closes. */
  close?(): Promise<void>;
}
