import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');

function newest(dir: string, suffix: string): number {
  let latest = 0;
  for (const entry of readdirSync(join(root, dir), { recursive: true, withFileTypes: true })) {
    if (
      entry.isFile() &&
      entry.name.endsWith(suffix) &&
      !entry.parentPath.includes('node_modules') &&
      !entry.parentPath.includes(`${dir}/build`)
    ) {
      latest = Math.max(latest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
    }
  }
  return latest;
}

function mtime(path: string): number {
  return existsSync(join(root, path)) ? statSync(join(root, path)).mtimeMs : 0;
}

/**
 * Tests that spawn the CLI (`npm start`) run the compiled package: rebuild it
 * first when the sources are newer, so no test ever runs stale output.
 */
export default function setup(): void {
  if (newest('assembly', '.ts') > mtime('build/core.wasm'))
    execSync('npm run build:wasm', { cwd: root, stdio: 'inherit' });
  const sources = Math.max(newest('src', '.ts'), newest('adapters', '.ts'));
  if (sources > mtime('dist/src/cli/main.js')) {
    try {
      execSync('npm run build:ts', { cwd: root, stdio: 'inherit' });
    } catch {
      // A type error somewhere else in a work tree being edited must not stop unrelated tests;
      // tsc still wrote its output, and the tests that spawn the CLI fail on their own if it is wrong.
      console.warn(
        'global setup: `npm run build:ts` reported errors; tests that spawn the CLI run on its output as written',
      );
    }
  }
  // Servers the tests start from src/ run their payments thread on the built worker, now current, not on the sources
  // loaded again through tsx in every thread (src/server/payments-thread.ts).
  const worker = join(root, 'dist', 'src', 'server', 'payments-worker.js');
  if (existsSync(worker)) process.env.WPK_PAYMENTS_WORKER = worker;
  // The console's pages (web/): the browser tests load the build, so it must not be older than its sources.
  if (
    Math.max(newest('web', '.tsx'), newest('web', '.ts'), newest('web', '.css'), newest('web', '.html')) >
    mtime('dist/web/wallet.html')
  ) {
    try {
      execSync('npm run build:web', { cwd: root, stdio: 'inherit' });
    } catch {
      console.warn('global setup: `npm run build:web` failed; the browser tests run on the pages as last built');
    }
  }
  // After build:ts (the script is compiled). Every PGlite the tests open loads this snapshot instead of running initdb;
  // the script does nothing when it is up to date.
  try {
    execSync('npm run build:pglite', { cwd: root, stdio: 'ignore' });
  } catch {
    console.warn('global setup: `npm run build:pglite` failed; PGlite runs initdb for each database (slower)');
  }
}
