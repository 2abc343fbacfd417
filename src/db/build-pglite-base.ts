// `npm run build:pglite` (run by prepare and build, after build:ts): builds build/pglite-base.tar: the data directory of a fresh PGlite database
// (initdb done), so the kit opens in-memory databases and new data folders by
// loading it (~1 s) instead of running initdb each time (~5 s). Idempotent: it
// does nothing when the snapshot was made by the installed PGlite version.
import { createRequire } from 'node:module';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';

/** The package root: the nearest folder above this file (src/db under tsx, dist/src/db once built) with our package.json. */
function packageRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'package.json');
    if (existsSync(candidate) && (JSON.parse(readFileSync(candidate, 'utf8')) as { name?: string }).name === 'wallet-partner-kit') return dir;
    if (dirname(dir) === dir) throw new Error('build-pglite-base: cannot find the wallet-partner-kit package root');
  }
}

const root = packageRoot(import.meta.dirname);
const tar = join(root, 'build', 'pglite-base.tar');
const stamp = join(root, 'build', 'pglite-base.json');
const version = (JSON.parse(readFileSync(join(dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite')), '..', 'package.json'), 'utf8')) as { version: string }).version;

function upToDate() {
  try {
    return existsSync(tar) && (JSON.parse(readFileSync(stamp, 'utf8')) as { pglite?: string }).pglite === version;
  } catch {
    return false;
  }
}

if (upToDate() && !process.argv.includes('--force')) {
  console.log(`build/pglite-base.tar is up to date (PGlite ${version})`);
} else {
  const started = Date.now();
  const pg = await PGlite.create();
  const blob = await pg.dumpDataDir('none');
  await pg.close();
  mkdirSync(dirname(tar), { recursive: true });
  // Write then rename: a reader never sees half a snapshot, and the stamp follows the tarball.
  writeFileSync(`${tar}.${process.pid}`, Buffer.from(await blob.arrayBuffer()));
  renameSync(`${tar}.${process.pid}`, tar);
  writeFileSync(stamp, `${JSON.stringify({ pglite: version })}\n`);
  console.log(`build/pglite-base.tar: PGlite ${version} data directory snapshot (${Math.round(blob.size / 1e6)} MB, ${Date.now() - started} ms)`);
}
