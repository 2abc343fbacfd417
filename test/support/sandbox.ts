import { openDatabase } from '../../src/db/index.js';
import type { SandboxModule } from '../../src/sandbox/module.js';
import { startSandbox, type RunningSandbox, type StartSandboxOptions } from '../../src/entries/sandbox.js';
import { uniqueSchema } from './databases.js';
import { DATABASE_URL, haveService } from './services.js';

/** The options that choose a sandbox's database. */
export type SandboxDatabaseOptions = Pick<StartSandboxOptions, 'databaseUrl' | 'databaseSchema' | 'dataDir'>;

/** Options of {@link startTestSandbox}: the sandbox's own (default port 0), and which database it runs on. */
export type TestSandboxOptions = StartSandboxOptions & {
  /**
   * `'postgres'`: a schema of its own at DATABASE_URL, dropped on close. Default `'pglite'`: in memory, or what
   * `databaseUrl`/`databaseSchema`/`dataDir` name (then the caller owns that data).
   */
  database?: 'pglite' | 'postgres';
};

/** Drops a schema at DATABASE_URL (what a PostgreSQL sandbox case made); a missing one is no error. */
export async function dropSchema(schema: string): Promise<void> {
  const db = await openDatabase({ url: DATABASE_URL! });
  try {
    await db.exec(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await db.close();
  }
}

/**
 * The one way a test starts the sandbox: on a free port, on the database `options.database` names; `close()`
 * stops it and drops the schema it made.
 */
export async function startTestSandbox(
  { database = 'pglite', ...options }: TestSandboxOptions = {},
  modules?: readonly SandboxModule[],
): Promise<RunningSandbox> {
  const schema = database === 'postgres' ? uniqueSchema('sandbox') : undefined;
  const onServer = schema === undefined ? {} : { databaseUrl: DATABASE_URL!, databaseSchema: schema };
  const running = await startSandbox({ port: 0, ...options, ...onServer }, modules);
  if (schema === undefined) return running;
  const close = running.close.bind(running);
  return Object.assign(running, {
    async close() {
      await close();
      await dropSchema(schema).catch(() => {});
    },
  });
}

/** A database a sandbox test runs on: `describe.each(sandboxCases('what'))`. */
export interface SandboxCase {
  readonly name: 'pglite' | 'postgres';
  /** Starts a sandbox on this database (a fresh schema on PostgreSQL, dropped on close). */
  start(options?: StartSandboxOptions, modules?: readonly SandboxModule[]): Promise<RunningSandbox>;
  /** Database options to start (and restart) on yourself; {@link SandboxCase.cleanup} drops what they made. */
  options(): SandboxDatabaseOptions;
  /** Drops what {@link SandboxCase.options} made. */
  cleanup(options: SandboxDatabaseOptions): Promise<void>;
}

/** PGlite always; PostgreSQL when DATABASE_URL is set (one line says so when it is not). */
export function sandboxCases(what: string): SandboxCase[] {
  const cases: SandboxCase[] = [
    {
      name: 'pglite',
      start: (options = {}, modules) => startTestSandbox(options, modules),
      options: () => ({}),
      cleanup: async () => {},
    },
  ];
  if (haveService('DATABASE_URL', DATABASE_URL, `${what} on PostgreSQL`)) {
    cases.push({
      name: 'postgres',
      start: (options = {}, modules) => startTestSandbox({ ...options, database: 'postgres' }, modules),
      options: () => ({ databaseUrl: DATABASE_URL!, databaseSchema: uniqueSchema('sandbox') }),
      cleanup: async ({ databaseSchema }) => {
        if (databaseSchema) await dropSchema(databaseSchema);
      },
    });
  }
  return cases;
}
