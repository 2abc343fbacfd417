import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Env } from 'hono';
import { migrate, openDatabase, type Database } from '../db/index.js';
import {
  createApiApp,
  HealthCheck,
  limiterFrom,
  mountHealthRoutes,
  serveOpenApi,
} from '../../adapters/http-server/index.js';
import { silentLogger, withLogPolicy } from '../log/index.js';
import type { Logger } from 'pino';
import { VERSION } from '../version.js';
import { ChangeFeed } from './changes.js';
import { mountAppEvents } from './app-events.js';
import type { SandboxContext, SandboxModule } from './module.js';
import { SANDBOX_MODULES } from './modules.js';
import { resolveSandboxOptions, type SandboxOptions } from './options.js';
import { Outbox, outboxMigrations } from './outbox/index.js';

/** A sandbox built but not yet listening: its app, context and modules. */
export interface Sandbox {
  readonly app: OpenAPIHono<Env>;
  readonly context: SandboxContext;
  /** Lines the modules' demo seeding printed (empty without `demo`). */
  readonly banner: readonly string[];
  /** Starts background work (webhook sender, simulated bank). */
  start(): void;
  /** Stops background work and closes the database (ends the pages' event streams first). */
  close(): Promise<void>;
}

/**
 * Builds the wallet-service sandbox: opens the database, applies every
 * module's migrations, mounts the Pay and Push APIs, the wallet-app simulator
 * and test controls (under `/sandbox/`), `GET /healthz` (503 naming `database` while it does not
 * answer `SELECT 1`), `GET /livez` and `GET /openapi.json`.
 *
 * @example
 * const sandbox = await createSandbox({ demo: true });
 * const res = await sandbox.app.request('/healthz');
 */
export async function createSandbox(
  options: SandboxOptions = {},
  modules: readonly SandboxModule[] = SANDBOX_MODULES,
): Promise<Sandbox> {
  const resolved = resolveSandboxOptions(options);
  const logger = withLogPolicy(options.logger ?? silentLogger());
  const clock = options.clock ?? Date.now;
  const db = await openSandboxDatabase(resolved, modules);
  const context = sandboxContext(db, resolved, { logger, clock, bruteForce: options.bruteForce });
  const { outbox, changes } = context;
  // One line per request at info: the Pay API's side of a payment's request id in the logs. The id is in the
  // header only: the sandbox answers the wallet service's documented error bodies word for word.
  const app = createApiApp({
    logger,
    bodyLimitBytes: resolved.bodyLimitBytes,
    requestLog: 'info',
    requestIdInBody: false,
  });
  const health = new HealthCheck({ database: () => db.query('SELECT 1') }, { clock });
  mountHealthRoutes(app, health, () => ({ version: VERSION, database: db.kind }));
  for (const module of modules) module.mount(app, context);
  mountAppEvents(app, context);
  serveOpenApi(app, {
    title: 'wallet-partner-kit sandbox',
    version: VERSION,
    description:
      'Emulates the wallet service: Pay API, Push API (with Callback API deliveries), the wallet-app simulator ' +
      'and test controls under /sandbox/. Errors are `{ status, errors[] }`.',
  });
  const banner: string[] = [];
  if (resolved.demo) for (const module of modules) banner.push(...((await module.seedDemo?.(context)) ?? []));

  let closing: Promise<void> | undefined;
  return {
    app,
    context,
    banner,
    start() {
      outbox.start();
      for (const module of modules) module.start?.(context);
    },
    close() {
      closing ??= (async () => {
        changes.close();
        for (const module of modules) await module.close?.();
        await outbox.close();
        await db.close();
      })();
      return closing;
    },
  };
}

/** The sandbox's database, with the outbox's and every module's migrations run. */
async function openSandboxDatabase(
  resolved: ReturnType<typeof resolveSandboxOptions>,
  modules: readonly SandboxModule[],
): Promise<Database> {
  const db: Database = await openDatabase({
    url: resolved.databaseUrl,
    dataDir: resolved.dataDir,
    schema: resolved.databaseSchema,
  });
  try {
    await migrate(db, 'outbox', outboxMigrations);
    for (const module of modules) await migrate(db, module.name, module.migrations);
  } catch (error) {
    await db.close();
    throw error;
  }
  return db;
}

/** What every module shares: the database, the clock, the outbox, the change feed, the options it reads. */
function sandboxContext(
  db: Database,
  resolved: ReturnType<typeof resolveSandboxOptions>,
  { logger, clock, bruteForce }: { logger: Logger; clock: () => number; bruteForce: SandboxOptions['bruteForce'] },
): SandboxContext {
  const changes = new ChangeFeed();
  // Pay deliveries are what the merchant console shows: a campaign's thousand push callbacks must not make it read them
  // a thousand times.
  const outbox = new Outbox({
    db,
    clock,
    logger,
    timeScale: resolved.timeScale,
    onAttempt: (topic) => {
      if (topic === 'pay') changes.publish('webhooks');
    },
  });
  const authLimiter = limiterFrom(bruteForce, clock);
  return {
    db,
    clock,
    logger,
    outbox,
    demo: resolved.demo,
    timeScale: resolved.timeScale,
    changes,
    dialect: resolved.dialect,
    strict: resolved.strict,
    ...(authLimiter ? { authLimiter } : {}),
  };
}
