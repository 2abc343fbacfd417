import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { destination, pino, type Logger } from 'pino';

/** Where `npm run build:pglite` writes the snapshot, from `src/db` (tsx, tests) or `dist/src/db` (the package). */
const CANDIDATES = ['../..', '../../..'].map((up) => join(import.meta.dirname, up, 'build'));

let debugLogger: Logger | undefined;

/** Start-up details for `LOG_LEVEL=debug`, on stderr so a CLI's stdout stays its banner and logs. */
function debug(message: string, details: Record<string, unknown> = {}): void {
  if (process.env.LOG_LEVEL !== 'debug' && process.env.LOG_LEVEL !== 'trace') return;
  debugLogger ??= pino({ level: 'debug' }, destination(2));
  debugLogger.debug(details, message);
}

function installedPgliteVersion(): string | undefined {
  try {
    const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
    return (JSON.parse(readFileSync(join(dirname(entry), '..', 'package.json'), 'utf8')) as { version?: string }).version;
  } catch {
    return undefined;
  }
}

/**
 * Reads the first `build/pglite-base.tar` found in `dirs`, if the installed
 * PGlite made it; `undefined` otherwise (with a debug line saying why).
 */
export function readPgliteBase(dirs: readonly string[] = CANDIDATES): Blob | undefined {
  const version = installedPgliteVersion();
  for (const dir of dirs) {
    const tar = join(dir, 'pglite-base.tar');
    if (!existsSync(tar)) continue;
    try {
      const stamp = JSON.parse(readFileSync(join(dir, 'pglite-base.json'), 'utf8')) as { pglite?: string };
      if (stamp.pglite !== version) {
        debug('pglite: snapshot made by another PGlite version; running initdb instead (npm run build:pglite)', { tar, snapshot: stamp.pglite, installed: version });
        return undefined;
      }
      return new Blob([readFileSync(tar)]);
    } catch (error) {
      debug('pglite: snapshot unreadable; running initdb instead', { tar, err: error });
      return undefined;
    }
  }
  debug('pglite: no snapshot (build/pglite-base.tar); running initdb instead (npm run build:pglite makes it)');
  return undefined;
}

let cached: Blob | null | undefined;

/**
 * The data directory of a fresh database, made at build time (`npm run
 * build:pglite`): loading it skips initdb, the bulk of PGlite's start-up.
 * Read once per process; `undefined` when missing or made by another PGlite version.
 */
export function pgliteBase(): Blob | undefined {
  if (cached === undefined) cached = readPgliteBase() ?? null;
  return cached ?? undefined;
}
