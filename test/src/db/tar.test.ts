import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tarFolder } from '../../../src/db/tar.js';

function haveTar(): boolean {
  try {
    execFileSync('tar', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    console.warn('tar.test: no tar command; the round trip through an independent tar is skipped');
    return false;
  }
}

describe('tarFolder', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'wpk-tar-'));
    mkdirSync(join(dir, 'src', 'base', '5'), { recursive: true });
    mkdirSync(join(dir, 'src', 'pg_wal', 'summaries'), { recursive: true });
    writeFileSync(join(dir, 'src', 'PG_VERSION'), '17\n');
    writeFileSync(join(dir, 'src', 'base', '5', '1255'), Buffer.alloc(8192 + 100, 7));
    writeFileSync(join(dir, 'src', 'base', '5', 'empty'), '');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes whole 512-byte blocks ending in two empty ones', () => {
    const tar = tarFolder(join(dir, 'src'));
    expect(tar.length % 512).toBe(0);
    expect(tar.subarray(-1024).every((b) => b === 0)).toBe(true);
  });

  it.runIf(haveTar())('is read back by the system tar: every folder (empty ones too), file and byte', () => {
    writeFileSync(join(dir, 'out.tar'), tarFolder(join(dir, 'src')));
    const names = execFileSync('tar', ['-tf', join(dir, 'out.tar')], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .sort();
    expect(names).toEqual([
      'PG_VERSION',
      'base/',
      'base/5/',
      'base/5/1255',
      'base/5/empty',
      'pg_wal/',
      'pg_wal/summaries/',
    ]);
    mkdirSync(join(dir, 'x'));
    execFileSync('tar', ['-xf', join(dir, 'out.tar'), '-C', join(dir, 'x')]);
    expect(readFileSync(join(dir, 'x', 'base', '5', '1255')).equals(Buffer.alloc(8192 + 100, 7))).toBe(true);
    expect(readFileSync(join(dir, 'x', 'PG_VERSION'), 'utf8')).toBe('17\n');
  });
});
