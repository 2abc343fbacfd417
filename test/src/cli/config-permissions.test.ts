import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkConfigPermissions, isLoopbackHost } from '../../../src/cli/config-permissions.js';
import { ConfigError } from '../../../src/errors.js';
import { captureLog } from '../../support/log-capture.js';

function configFile(mode: number): string {
  const path = join(mkdtempSync(join(tmpdir(), 'wpk-perm-')), 'config.json');
  writeFileSync(path, '{"tills":[]}');
  chmodSync(path, mode);
  return path;
}

describe('checkConfigPermissions', () => {
  it('warns once, naming the file and its mode, when every user may read it', () => {
    const path = configFile(0o644);
    const log = captureLog('info');
    checkConfigPermissions(path, log.logger, false);
    const warns = log.lines().filter((line) => line.level === 40);
    expect(warns).toHaveLength(1);
    expect(warns[0]).toMatchObject({ config: path, mode: '0644' });
  });

  it('refuses such a file with strict permissions', () => {
    const path = configFile(0o644);
    expect(() => checkConfigPermissions(path, captureLog().logger, true)).toThrow(ConfigError);
    expect(() => checkConfigPermissions(path, captureLog().logger, true)).toThrow(/readable by every user/);
  });

  it('says nothing of a file only its owner and group may read', () => {
    const path = configFile(0o640);
    const log = captureLog('info');
    checkConfigPermissions(path, log.logger, true);
    expect(log.text()).toBe('');
  });
});

describe('isLoopbackHost', () => {
  it('takes loopback addresses and refuses every other interface', () => {
    expect(['127.0.0.1', '127.0.0.2', '::1', 'localhost'].map(isLoopbackHost)).toEqual([true, true, true, true]);
    expect(['0.0.0.0', '::', '192.168.1.10', 'kit.example'].map(isLoopbackHost)).toEqual([false, false, false, false]);
  });
});
