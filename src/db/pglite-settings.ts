import { PGlite } from '@electric-sql/pglite';

/**
 * Server settings of every PGlite the kit opens, in memory or in a folder
 * (command-line settings win over the folder's postgresql.conf).
 *
 * Why: PGlite starts by zeroing its shared memory in wasm, about 10 ms per MB
 * on a small machine, and PostgreSQL's defaults (128 MB of shared buffers, 100
 * connections) make that 146 MB: most of a start-up. PGlite is one backend in
 * single-user mode, so `max_connections` buys nothing; and the pages it evicts
 * go to PGlite's own memory file system (or the OS's page cache for a folder),
 * a copy away, so a small buffer pool costs little (bench/RESULTS.md, "Start-up").
 * Settings that exist in every PostgreSQL version PGlite has shipped, so an
 * upgrade cannot refuse to start on an unknown one.
 */
export const PGLITE_SETTINGS: Readonly<Record<string, string>> = {
  shared_buffers: '8MB',
  max_connections: '2',
  max_wal_senders: '0',
  max_replication_slots: '0',
};

/** PGlite's own start parameters followed by {@link PGLITE_SETTINGS} as `-c name=value`. */
export function pgliteStartParams(): string[] {
  return [
    ...PGlite.defaultStartParams,
    ...Object.entries(PGLITE_SETTINGS).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
  ];
}
