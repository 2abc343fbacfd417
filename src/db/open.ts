import { z } from 'zod';
import { ConfigError } from '../errors.js';
import type { AvailabilityLogger } from './availability.js';
import type { Database } from './database.js';
import { validationErrors } from '../contracts/validation-errors.js';

const SCHEMA = /^[a-z_][a-z0-9_]{0,62}$/;

const optionsSchema = z
  .object({
    url: z
      .string()
      .regex(/^postgres(ql)?:\/\//, { error: 'must be a postgres:// URL' })
      .optional(),
    dataDir: z.string().min(1).optional(),
    schema: z.string().regex(SCHEMA, { error: 'must be 1 to 63 of [a-z0-9_], not starting with a digit' }).optional(),
    maxConnections: z.number().int().min(1).max(100).optional(),
    logger: z
      .custom<AvailabilityLogger>((v) => typeof v === 'object' && v !== null, { error: 'must be a logger' })
      .optional(),
  })
  .strict()
  .refine((o) => !(o.url !== undefined && o.dataDir !== undefined), { error: 'give url or dataDir, not both' });

/** Where the kit keeps its data. */
export interface DatabaseOptions {
  /** A PostgreSQL server (`postgres://...`, e.g. `DATABASE_URL`). Default: PGlite in this process. */
  url?: string;
  /** PGlite only: a folder that keeps the data across restarts. Default: in memory. */
  dataDir?: string;
  /** A schema of its own (created when missing), e.g. to keep tests or tenants apart. */
  schema?: string;
  /** PostgreSQL only: connection pool size. Default 10. */
  maxConnections?: number;
  /**
   * PostgreSQL only: where the pool writes one line when the server stops answering and one when it answers
   * again (a pino logger fits). Default JSON lines on stderr.
   */
  logger?: AvailabilityLogger;
}

/**
 * Opens the kit's database: PGlite (in memory, or in `dataDir`) by default, a
 * PostgreSQL server when `url` is given.
 *
 * @throws ConfigError when the options are invalid.
 * @example
 * const db = await openDatabase({ url: process.env.DATABASE_URL });
 * await migrate(db, 'pay', payMigrations);
 */
export async function openDatabase(options: DatabaseOptions = {}): Promise<Database> {
  const parsed = optionsSchema.safeParse(options);
  if (!parsed.success) {
    throw new ConfigError(validationErrors(parsed.error, 'database'), 'database options');
  }
  const { url, dataDir, schema, maxConnections, logger } = parsed.data;
  // Imported on use: a process loads PGlite (wasm) or pg, not both (start-up time).
  if (url === undefined) return (await import('./pglite.js')).openPglite(dataDir, schema);
  return (await import('./postgres.js')).openPostgres({ url, schema, maxConnections, ...(logger ? { logger } : {}) });
}
