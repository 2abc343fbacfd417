import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { demoConfig } from '../../../src/entries/index.js';
import { createLoyaltyClient } from '../../../src/entries/loyalty.js';
import { bannerUrl, exited, runCli, spawnCli } from './support.js';

const { login, password } = demoConfig.loyalty;

describe('one process per --data folder', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wpk-lock-cli-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses a second process on the folder with one line, and takes over the lock of a process killed with -9, ' +
    'data intact', async () => {
    const args = ['loyalty', '--demo', '--port', '0', '--data', dir];
    const first = spawnCli(args);
    try {
      const url = await bannerUrl(first);
      const card = await createLoyaltyClient({ baseUrl: url, login, password }).issueAnonymousCard('lock-1');

      const second = await runCli(args);
      expect(second.code).toBe(1);
      expect(second.stderr).toBe(`wallet-partner-kit: the data folder ${dir} is in use by pid ${first.pid}\n`);

      first.kill('SIGKILL');
      expect(await exited(first)).toBe('SIGKILL');

      const third = spawnCli(args);
      try {
        const again = await bannerUrl(third);
        // Same request id, same card: the first process's acknowledged write survived.
        expect(await createLoyaltyClient({ baseUrl: again, login, password }).issueAnonymousCard('lock-1')).toEqual(
          card,
        );
        third.kill('SIGTERM');
        expect(await exited(third)).toBe(0);
      } finally {
        third.kill('SIGKILL');
      }
    } finally {
      first.kill('SIGKILL');
    }
  }, 300_000);
});
