import { pino } from 'pino';
import type { ServerLimits } from '../../adapters/http-server/server-limits.js';
import type { TlsFiles } from '../../adapters/http-server/tls.js';
import { serveWhileBuilding } from '../../adapters/http-server/serve-while-building.js';
import { openDatabase, type Database } from '../db/index.js';
import { preloadPglite } from '../db/pglite-preload.js';
import { demoConfig } from '../demo.js';
import { resolveLoyaltyProgramOptions, type LoyaltyProgramOptions } from './options.js';
import type { LoyaltyProgram } from './program.js';

/** Options of {@link startLoyaltyProgram}: the program's, where to listen, where the data lives, and demo mode. */
export type StartLoyaltyProgramOptions = Partial<LoyaltyProgramOptions> & {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 8091; 0 picks a free one. */
  port?: number;
  /** Timeouts and connection cap of the server; default `DEFAULT_SERVER_LIMITS`. */
  limits?: Partial<ServerLimits>;
  /** HTTPS with these PEM files (`reloadTls()` reads them again). Default plain HTTP. */
  tls?: TlsFiles;
  /** Proxies whose `Forwarded` / `X-Forwarded-For` name the client (src/net/client-address.ts). Default none. */
  trustedProxies?: readonly string[];
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
  /**
   * Called with the URL as soon as the port is bound: with PGlite in memory that
   * is before the database is open (requests meanwhile wait for it, `/healthz`
   * answers 503 `starting`), so a CLI can print its banner at once; otherwise
   * once the database is ready, so a locked folder or an unreachable server
   * fails before anything listens.
   */
  onListening?: (url: string) => void;
};

/** A listening default implementation. */
export interface RunningLoyaltyProgram extends LoyaltyProgram {
  /** `http://host:port`, or `https://` with TLS. */
  readonly url: string;
  readonly db: Database;
  /** Reads the TLS files again: new connections get the new certificate; bad files keep the old one (a `warn`). */
  reloadTls(): boolean;
  /** Stops listening, answers requests in flight, closes the database. Idempotent. */
  close(): Promise<void>;
}

/**
 * Opens the database, builds the default implementation and listens. Resolves
 * once it is ready: database open, migrations applied, demo records made.
 *
 * @example
 * const loyalty = await startLoyaltyProgram({ port: 0, demo: true });
 * // loyalty.url, loyalty.store; later: await loyalty.close();
 */
export async function startLoyaltyProgram(options: StartLoyaltyProgramOptions): Promise<RunningLoyaltyProgram> {
  const {
    host = '127.0.0.1',
    port = 8091,
    limits,
    tls,
    trustedProxies,
    dataDir,
    databaseUrl,
    databaseSchema,
    demo = false,
    onListening,
    ...given
  } = options;
  // An option given as undefined means "not given": it must not blank out a demo default.
  const rest = Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined));
  const programOptions = {
    ...(demo
      ? {
          partnerKey: demoConfig.verifier.key,
          algorythm: demoConfig.verifier.algorythm,
          scheme: demoConfig.verifier.scheme,
          credentials: { ...demoConfig.loyalty },
        }
      : {}),
    ...rest,
  } as LoyaltyProgramOptions;
  resolveLoyaltyProgramOptions(programOptions); // refuse bad options before opening anything
  let db: Database | undefined;
  // Listen first only where nothing but a bug can fail after it (no folder lock, no server to reach).
  const { http: server, built: program } = await serveWhileBuilding(
    {
      host,
      port,
      limits,
      ...(tls === undefined ? {} : { tls }),
      ...(trustedProxies === undefined ? {} : { trustedProxies }),
      ...(given.logger === undefined ? {} : { logger: given.logger }),
      early: dataDir === undefined && databaseUrl === undefined,
      ...(onListening ? { onListening } : {}),
    },
    async () => {
      // PGlite's wasm compiles on background threads while the server's own code loads, after listening:
      // together they are most of a start-up.
      if (databaseUrl === undefined) void preloadPglite();
      const opening = openDatabase({ url: databaseUrl, dataDir, schema: databaseSchema });
      const modules = Promise.all([import('./program.js'), import('./demo.js')]);
      // awaited below; this only keeps a failure while the database opens from being "unhandled"
      modules.catch(() => {});
      db = await opening;
      const [{ createLoyaltyProgram }, { seedDemoProgram }] = await modules;
      const built = await createLoyaltyProgram(db, {
        ...programOptions,
        logger: programOptions.logger ?? pino({ level: 'silent' }),
      });
      if (demo) await seedDemoProgram(built.store, (options.clock ?? Date.now)());
      return built;
    },
    (built) => built.app,
    async () => {
      await db?.close();
    },
  );
  const database = db!;
  let closing: Promise<void> | undefined;
  return {
    ...program,
    db: database,
    url: server.url,
    reloadTls: () => server.reloadTls(),
    close() {
      closing ??= (async () => {
        await server.close();
        await database.close();
      })();
      return closing;
    },
  };
}
