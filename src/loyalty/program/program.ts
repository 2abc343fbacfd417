import type { OpenAPIHono } from '@hono/zod-openapi';
import { pino } from 'pino';
import { serveHttp } from '../../../adapters/http/serve.js';
import type { ServerLimits } from '../../../adapters/http/server-limits.js';
import { HealthCheck } from '../../api-app/health.js';
import { migrate, openDatabase, type Database } from '../../db/index.js';
import { demoConfig } from '../../demo.js';
import type { LoyaltyHandlers } from '../handlers.js';
import { createLoyaltyServer } from '../server/server.js';
import { seedDemoProgram } from './demo.js';
import { createStoreHandlers, withStoreUnavailable } from './handlers.js';
import { loyaltyMigrations } from './migrations.js';
import { resolveLoyaltyProgramOptions, type LoyaltyProgramOptions, type ResolvedLoyaltyProgramOptions } from './options.js';
import { LoyaltyStore } from './store.js';

/** The default implementation, built on a database. */
export interface LoyaltyProgram {
  readonly app: OpenAPIHono<any>;
  readonly store: LoyaltyStore;
  readonly handlers: LoyaltyHandlers;
  readonly options: ResolvedLoyaltyProgramOptions;
}

/**
 * The default, store-backed Loyalty implementation on an open database:
 * applies its migrations, and returns the server app (the framework with the
 * store's handlers), the store (to set up groups and promo codes) and the handlers.
 *
 * @example
 * const db = await openDatabase({ url: process.env.DATABASE_URL });
 * const { app, store } = await createLoyaltyProgram(db, { partnerKey, credentials: { login: 'wallet', password } });
 * await store.putPromoCode({ code: 'SPRING', bonusAmount: 20_000, expiresAt: new Date('2026-06-01') });
 * await serveHttp(app, { port: 8091 });
 */
export async function createLoyaltyProgram(db: Database, options: LoyaltyProgramOptions): Promise<LoyaltyProgram> {
  const resolved = resolveLoyaltyProgramOptions(options);
  const clock = options.clock ?? Date.now;
  await migrate(db, 'loyalty', loyaltyMigrations);
  const store = new LoyaltyStore(db);
  const handlers = withStoreUnavailable(createStoreHandlers(store, resolved, clock));
  const health = new HealthCheck({ database: () => db.query('SELECT 1') }, { clock });
  const app = createLoyaltyServer({ handlers, auth: resolved.credentials, logger: options.logger, bodyLimitBytes: resolved.bodyLimitBytes, health });
  app.get('/healthz/db', async (c) => {
    await db.query('SELECT 1');
    return c.json({ status: 'ok', database: db.kind });
  });
  return { app, store, handlers, options: resolved };
}

/** Options of {@link startLoyaltyProgram}: the program's, where to listen, where the data lives, and demo mode. */
export type StartLoyaltyProgramOptions = Partial<LoyaltyProgramOptions> & {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 8091; 0 picks a free one. */
  port?: number;
  /** Timeouts and connection cap of the server; default `DEFAULT_SERVER_LIMITS`. */
  limits?: Partial<ServerLimits>;
  /** PGlite folder; default in memory. */
  dataDir?: string;
  /** A PostgreSQL server instead of PGlite. */
  databaseUrl?: string;
  /** A schema of its own on the server. */
  databaseSchema?: string;
  /**
   * Demo mode: the partner key and scheme of `demoConfig` (card-bound cards' keys
   * are `deriveCardKey(demoConfig.verifier.key, cardNumber, ...)`), the Basic
   * credentials `demoConfig.loyalty`, and demo groups and promo codes seeded.
   * Given options still win.
   */
  demo?: boolean;
};

/** A listening default implementation. */
export interface RunningLoyaltyProgram extends LoyaltyProgram {
  /** `http://host:port` */
  readonly url: string;
  readonly db: Database;
  /** Stops listening, answers requests in flight, closes the database. Idempotent. */
  close(): Promise<void>;
}

/**
 * Opens the database, builds the default implementation and listens.
 *
 * @example
 * const loyalty = await startLoyaltyProgram({ port: 0, demo: true });
 * // loyalty.url, loyalty.store; later: await loyalty.close();
 */
export async function startLoyaltyProgram(options: StartLoyaltyProgramOptions): Promise<RunningLoyaltyProgram> {
  const { host = '127.0.0.1', port = 8091, limits, dataDir, databaseUrl, databaseSchema, demo = false, ...given } = options;
  // An option given as undefined means "not given": it must not blank out a demo default.
  const rest = Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined));
  const programOptions = {
    ...(demo ? {
      partnerKey: demoConfig.verifier.key, algorythm: demoConfig.verifier.algorythm, scheme: demoConfig.verifier.scheme, credentials: { ...demoConfig.loyalty },
    } : {}),
    ...rest,
  } as LoyaltyProgramOptions;
  resolveLoyaltyProgramOptions(programOptions); // refuse bad options before opening anything
  const db = await openDatabase({ url: databaseUrl, dataDir, schema: databaseSchema });
  let http;
  let program: LoyaltyProgram;
  try {
    program = await createLoyaltyProgram(db, { ...programOptions, logger: programOptions.logger ?? pino({ level: 'silent' }) });
    if (demo) await seedDemoProgram(program.store, (options.clock ?? Date.now)());
    http = await serveHttp(program.app, { host, port, limits });
  } catch (error) {
    await db.close();
    throw error;
  }
  let closing: Promise<void> | undefined;
  return {
    ...program, db, url: http.url,
    close() {
      closing ??= (async () => {
        await http.close();
        await db.close();
      })();
      return closing;
    },
  };
}
