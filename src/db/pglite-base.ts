import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { destination, pino, type Logger } from 'pino';
import { BytesBlob } from './bytes-blob.js';

/** Where `npm run build:pglite` writes the snapshot, from `src/db` (tsx, tests) or `dist/src/db` (the package). */
const CANDIDATES = ['../..', '../../..'].map((up) => join(import.meta.dirname, up, 'build'));

/** `build/pglite-base.json`: what the snapshot was made by and holds. */
export interface PgliteBaseStamp {
  /** The PGlite version that made it; another version's data directory is not loaded. */
  pglite: string;
  /** The build recipe's version (see src/build/pglite-base.ts); a newer recipe rebuilds. */
  recipe?: number;
  /** The migrations applied in it, per module: migration id to the SHA-256 of its SQL. */
  migrations?: Record<string, Record<string, string>>;
  /**
   * Its catalogue's shape (`databaseShape` in pglite-spares.ts), which a closed in-memory database must have again
   * after its reset to be reused; null when it holds rows a reset would delete (then none is reused).
   */
  shape?: string | null;
}

/** A loaded snapshot: the tarball for PGlite's `loadDataDir` and its stamp. */
export interface PgliteBase {
  readonly tar: Blob;
  readonly stamp: PgliteBaseStamp;
}

let debugLogger: Logger | undefined;

/** Start-up details for `LOG_LEVEL=debug`, on stderr so a CLI's stdout stays its banner and logs. */
function debug(message: string, details: Record<string, unknown> = {}): void {
  if (process.env.LOG_LEVEL !== 'debug' && process.env.LOG_LEVEL !== 'trace') return;
  debugLogger ??= pino({ level: 'debug' }, destination(2));
  debugLogger.debug(details, message);
}

/** The installed `@electric-sql/pglite` version, if it can be read. */
export function installedPgliteVersion(): string | undefined {
  try {
    const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
    return (JSON.parse(readFileSync(join(dirname(entry), '..', 'package.json'), 'utf8')) as { version?: string })
      .version;
  } catch {
    return undefined;
  }
}

/**
 * Reads the first `build/pglite-base.tar` found in `dirs`, if the installed
 * PGlite made it; `undefined` otherwise (with a debug line saying why).
 */
export function readPgliteBase(dirs: readonly string[] = CANDIDATES): PgliteBase | undefined {
  const version = installedPgliteVersion();
  for (const dir of dirs) {
    const tar = join(dir, 'pglite-base.tar');
    if (!existsSync(tar)) continue;
    try {
      const stamp = JSON.parse(readFileSync(join(dir, 'pglite-base.json'), 'utf8')) as PgliteBaseStamp;
      if (stamp.pglite !== version) {
        debug('pglite: snapshot made by another PGlite version; running initdb instead (npm run build:pglite)', {
          tar,
          snapshot: stamp.pglite,
          installed: version,
        });
        return undefined;
      }
      debug('pglite: starting from the snapshot (no initdb, no migrations)', { tar });
      return { tar: new BytesBlob(readFileSync(tar), 'application/x-tar'), stamp };
    } catch (error) {
      debug('pglite: snapshot unreadable; running initdb instead', { tar, err: error });
      return undefined;
    }
  }
  debug('pglite: no snapshot (build/pglite-base.tar); running initdb instead (npm run build:pglite makes it)');
  return undefined;
}

let cached: PgliteBase | null | undefined;

/**
 * The data directory of a fresh database with the kit's migrations applied,
 * made at build time (`npm run build:pglite`): loading it skips initdb and the
 * migrations, the bulk of PGlite's start-up. Read once per process; `undefined`
 * when missing or made by another PGlite version.
 */
export function pgliteBase(): PgliteBase | undefined {
  if (cached === undefined) cached = readPgliteBase() ?? null;
  return cached ?? undefined;
}
