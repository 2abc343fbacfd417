// `npm run build:pglite` (run by prepare and build, after build:ts): builds build/pglite-base.tar, the data directory
// PGlite databases start from (in memory, or a new --data folder): initdb done and every kit migration applied, so
// start-up loads it instead of running initdb (~5 s) and the migrations (~1 s). Small (~10 MB instead of 40), because
// loading costs about its size: no template databases (the kit never runs CREATE DATABASE), 1 MB WAL segments and only
// the one holding the last checkpoint; and shut down cleanly, so a start needs no crash recovery. Idempotent: it does
// nothing when the snapshot was made by the installed PGlite, this recipe and the current migrations.
// A build script (the build layer of docs/architecture.md): it reads every module's migrations.
import { createRequire } from 'node:module';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { CALLBACK_MIGRATIONS } from '../callback/migrations.js';
import { auditMigrations } from '../cashdesk/back-office/audit-migrations.js';
import { paymentMigrations } from '../cashdesk/payments/migrations.js';
import { loyaltyMigrations } from '../loyalty-program/migrations.js';
import { SANDBOX_MODULES } from '../sandbox/modules.js';
import { outboxMigrations } from '../sandbox/outbox/migrations.js';
import { migrationDigest } from '../db/baked-migrations.js';
import type { Database, Queryable } from '../db/database.js';
import { migrate, type Migration } from '../db/migrate.js';
import type { PgliteBaseStamp } from '../db/pglite-base.js';
import { databaseShape } from '../db/pglite-spares.js';
import { pgliteStartParams } from '../db/pglite-settings.js';
import { tarFolder } from '../db/tar.js';

/** Bump when the way the snapshot is made changes, so existing ones are rebuilt. */
const RECIPE = 3;

/** Every module the kit migrates, under the name its `migrate()` call uses. */
const KIT_MIGRATIONS: ReadonlyArray<readonly [module: string, migrations: readonly Migration[]]> = [
  ['outbox', outboxMigrations],
  ...SANDBOX_MODULES.map((m) => [m.name, m.migrations] as const),
  ['loyalty', loyaltyMigrations],
  ['cashdesk-payments', paymentMigrations],
  ['cashdesk-audit', auditMigrations],
  ['callback', CALLBACK_MIGRATIONS],
];

/** The `name` and `version` fields of a package.json. */
function readPackageJson(path: string): { name?: string; version?: string } {
  return JSON.parse(readFileSync(path, 'utf8')) as { name?: string; version?: string };
}

/** The package root: the nearest folder above `from` (src/build under tsx, dist/src/build once built) that holds
 * our package.json. */
function packageRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'package.json');
    if (existsSync(candidate) && readPackageJson(candidate).name === 'wallet-partner-kit') return dir;
    if (dirname(dir) === dir) throw new Error('build-pglite-base: cannot find the wallet-partner-kit package root');
  }
}

const root = packageRoot(import.meta.dirname);
const tar = join(root, 'build', 'pglite-base.tar');
const stampPath = join(root, 'build', 'pglite-base.json');
const pgliteEntry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
const version = readPackageJson(join(dirname(pgliteEntry), '..', 'package.json')).version!;
const stamp: PgliteBaseStamp = {
  pglite: version,
  recipe: RECIPE,
  migrations: Object.fromEntries(
    KIT_MIGRATIONS.map(([module, migrations]) => [
      module,
      Object.fromEntries(migrations.map((m) => [m.id, migrationDigest(m)])),
    ]),
  ),
};

function upToDate(): boolean {
  try {
    // The shape is read off the snapshot once built: what it is made from is the rest.
    const { shape, ...made } = JSON.parse(readFileSync(stampPath, 'utf8')) as PgliteBaseStamp;
    return existsSync(tar) && shape !== undefined && isDeepStrictEqual(made, stamp);
  } catch {
    return false;
  }
}

/** Just what migrate() needs, over a PGlite this script owns. */
function asDatabase(pg: PGlite): Database {
  const wrap = (runner: Pick<PGlite, 'query'>): Queryable => ({
    async query<Row>(sql: string, params: readonly unknown[] = []) {
      const result = await runner.query<Row>(sql, params as unknown[]);
      return { rows: result.rows, rowCount: result.affectedRows ?? 0 };
    },
  });
  return {
    kind: 'pglite',
    ...wrap(pg),
    async exec(sql) {
      await pg.exec(sql);
    },
    transaction: (fn) => pg.transaction((tx) => fn(wrap(tx))),
    close: () => pg.close(),
  };
}

/**
 * After a clean shutdown PostgreSQL reads only the WAL segment holding the
 * last checkpoint (and the next, if the record may cross into it); the others
 * are old or preallocated. pg_control: `state` (int32) at byte 16, 1 = shut
 * down; `checkPoint` (uint64) at byte 32, unchanged since PostgreSQL 9.
 */
function trimWal(dataDir: string): void {
  const control = readFileSync(join(dataDir, 'global', 'pg_control'));
  if (control.readInt32LE(16) !== 1) throw new Error('build-pglite-base: the database did not shut down cleanly');
  const checkpoint = control.readBigUInt64LE(32);
  const walDir = join(dataDir, 'pg_wal');
  const segments = readdirSync(walDir).filter((name) => /^[0-9A-F]{24}$/.test(name));
  const segmentSize = BigInt(statSync(join(walDir, segments[0]!)).size);
  const perId = 0x1_0000_0000n / segmentSize;
  const keep = checkpoint / segmentSize;
  const last = checkpoint % segmentSize > segmentSize - 8192n ? keep + 1n : keep;
  for (const name of segments) {
    const segment = BigInt(`0x${name.slice(8, 16)}`) * perId + BigInt(`0x${name.slice(16)}`);
    if (segment < keep || segment > last) rmSync(join(walDir, name));
  }
}

/**
 * Loads `bytes` as the kit will and checks the migrations are there; its shape (what a reused in-memory database
 * is checked against), or undefined when it does not load or lacks migrations.
 */
async function verify(bytes: Buffer, expected: number): Promise<{ shape: string | null } | undefined> {
  try {
    const pg = await PGlite.create({
      loadDataDir: new Blob([new Uint8Array(bytes)]),
      startParams: pgliteStartParams(),
    });
    try {
      const { rows } = await pg.query<{ n: number }>('SELECT count(*)::int AS n FROM wpk_migrations');
      return rows[0]?.n === expected ? { shape: await databaseShape(pg) } : undefined;
    } finally {
      await pg.close();
    }
  } catch (error) {
    console.warn(`build-pglite-base: a candidate snapshot does not load (${(error as Error).message})`);
    return undefined;
  }
}

async function build(): Promise<number> {
  const work = mkdtempSync(join(tmpdir(), 'wpk-pglite-base-'));
  try {
    const dataDir = join(work, 'pgdata');
    const pg = await PGlite.create({
      dataDir,
      initDbStartParams: ['--wal-segsize=1'],
      startParams: pgliteStartParams(),
    });
    const db = asDatabase(pg);
    for (const [module, migrations] of KIT_MIGRATIONS) await migrate(db, module, migrations);
    for (const template of ['template0', 'template1']) {
      await pg.exec(`ALTER DATABASE ${template} IS_TEMPLATE false`);
      await pg.exec(`DROP DATABASE ${template}`);
    }
    // Compacts the catalogs the migrations and drops left dead rows in (~1 MB less to load).
    await pg.exec('VACUUM FULL');
    await pg.close();
    // Rewritten catalogs invalidate the relation cache's init files; a start writes them again, so loads need not.
    const again = await PGlite.create({ dataDir, startParams: pgliteStartParams() });
    await again.query('SELECT 1');
    await again.close();
    const expected = KIT_MIGRATIONS.reduce((n, [, migrations]) => n + migrations.length, 0);
    const full = tarFolder(dataDir);
    trimWal(dataDir);
    const trimmed = tarFolder(dataDir);
    // The trimmed one unless it fails to load (a PostgreSQL whose control file moved): then the whole folder.
    let chosen = trimmed;
    let loaded = await verify(trimmed, expected);
    if (loaded === undefined) [chosen, loaded] = [full, await verify(full, expected)];
    if (loaded === undefined) throw new Error('build-pglite-base: the snapshot does not load');
    mkdirSync(dirname(tar), { recursive: true });
    // Write then rename: a reader never sees half a snapshot, and the stamp follows the tarball.
    writeFileSync(`${tar}.${process.pid}`, chosen);
    renameSync(`${tar}.${process.pid}`, tar);
    writeFileSync(stampPath, `${JSON.stringify({ ...stamp, shape: loaded.shape })}\n`);
    return chosen.length;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (upToDate() && !process.argv.includes('--force')) {
  console.log(`build/pglite-base.tar is up to date (PGlite ${version})`);
} else {
  const started = Date.now();
  const size = await build();
  console.log(
    `build/pglite-base.tar: PGlite ${version} data directory with the kit's migrations ` +
      `(${(size / 1e6).toFixed(1)} MB, ${Date.now() - started} ms)`,
  );
}
