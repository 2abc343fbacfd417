import { closeSync, linkSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { KitError } from '../errors.js';

/** The lock file's name inside a data folder; PostgreSQL ignores files it does not know. */
export const LOCK_FILE = 'wallet-partner-kit.lock';

/** Another live process holds the data folder: two writers would lose each other's acknowledged data. */
export class DataDirInUseError extends KitError {
  readonly dir: string;
  readonly pid: number;

  constructor(dir: string, pid: number) {
    super('DATA_DIR_IN_USE', `the data folder ${dir} is in use by pid ${pid}`);
    this.dir = dir;
    this.pid = pid;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function owner(path: string): number | undefined {
  try {
    const pid = Number(readFileSync(path, 'utf8').trim());
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Links a complete pid file into place: like O_EXCL, fails with EEXIST, and no reader ever sees it half-written. */
function tryCreate(path: string): boolean {
  const temp = `${path}.${process.pid}.tmp`;
  const fd = openSync(temp, 'w');
  try {
    writeSync(fd, `${process.pid}\n`);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(temp, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    unlinkSync(temp);
  }
}

/**
 * Takes `dir` for this process (one process per data folder): a lock file
 * holding our pid. A lock whose pid is no longer alive (kill -9, a crash) is
 * taken over. Returns the release function (idempotent; also run at exit).
 *
 * @throws DataDirInUseError when a live process holds it.
 */
export function lockDataDir(dir: string): () => void {
  const folder = resolve(dir);
  mkdirSync(folder, { recursive: true });
  const path = join(folder, LOCK_FILE);
  for (let attempt = 0; ; attempt++) {
    if (tryCreate(path)) break;
    const pid = owner(path);
    if (pid !== undefined && alive(pid)) throw new DataDirInUseError(dir, pid);
    if (attempt >= 2) throw new DataDirInUseError(dir, pid ?? 0);
    // Stale: remove it only if it is still the one we judged, then race for it again.
    if (owner(path) === pid) {
      try {
        unlinkSync(path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
  }
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.off('exit', release);
    if (owner(path) === process.pid) unlinkSync(path);
  };
  process.on('exit', release);
  return release;
}
