import { HealthCheck } from '../../adapters/http-server/health.js';
import { migrate, type Database } from '../db/index.js';
import type { LoyaltyHandlers } from '../loyalty/handlers.js';
import { createLoyaltyServer } from '../loyalty-server/server.js';
import { createStoreHandlers, withStoreUnavailable } from './handlers.js';
import { loyaltyMigrations } from './migrations.js';
import {
  resolveLoyaltyProgramOptions,
  type LoyaltyProgramOptions,
  type ResolvedLoyaltyProgramOptions,
} from './options.js';
import { LoyaltyStore } from './store.js';

/** The default implementation, built on a database. */
export interface LoyaltyProgram {
  readonly app: ReturnType<typeof createLoyaltyServer>;
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
  const app = createLoyaltyServer({
    handlers,
    auth: resolved.credentials,
    logger: options.logger,
    bodyLimitBytes: resolved.bodyLimitBytes,
    health,
  });
  app.get('/healthz/db', async (c) => {
    await db.query('SELECT 1');
    return c.json({ status: 'ok', database: db.kind });
  });
  return { app, store, handlers, options: resolved };
}
