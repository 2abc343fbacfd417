import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DataDirInUseError, lockDataDir } from '../../../src/db/index.js';
import { LOCK_FILE } from '../../../src/db/data-dir-lock.js';

/** The pid of a process that has exited and been reaped. */
function deadPid(): number {
  return Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString());
}

describe('lockDataDir', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'wpk-lock-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes our pid, refuses the folder while we hold it, and frees it on release', () => {
    const release = lockDataDir(dir);
    expect(readFileSync(join(dir, LOCK_FILE), 'utf8')).toBe(`${process.pid}\n`);
    const error = (() => {
      try {
        lockDataDir(dir);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(DataDirInUseError);
    expect(error).toMatchObject({
      code: 'DATA_DIR_IN_USE',
      pid: process.pid,
      message: `the data folder ${dir} is in use by pid ${process.pid}`,
    });
    release();
    release();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
    lockDataDir(dir)();
  });

  it('takes over the lock of a process that is gone', () => {
    const pid = deadPid();
    writeFileSync(join(dir, LOCK_FILE), `${pid}\n`);
    const release = lockDataDir(dir);
    expect(readFileSync(join(dir, LOCK_FILE), 'utf8')).toBe(`${process.pid}\n`);
    release();
  });

  it('takes over a lock file that holds no pid', () => {
    writeFileSync(join(dir, LOCK_FILE), 'garbage');
    lockDataDir(dir)();
  });

  it('creates a folder that does not exist yet', () => {
    const nested = join(dir, 'a', 'b');
    lockDataDir(nested)();
    expect(existsSync(nested)).toBe(true);
  });

  it('leaves a lock another holder wrote alone on release', () => {
    const release = lockDataDir(dir);
    writeFileSync(join(dir, LOCK_FILE), '1\n');
    release();
    expect(readFileSync(join(dir, LOCK_FILE), 'utf8')).toBe('1\n');
  });
});
