import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './support.js';

describe('CLI errors', () => {
  let holder: Server;
  let port: number;
  beforeAll(async () => {
    holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    port = (holder.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => holder.close(() => resolve())));

  it('names the port in use and suggests --port, in one line with exit code 1', async () => {
    const result = await runCli(['serve', '--demo', '--port', String(port)]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `wallet-partner-kit: port ${port} is already in use on 127.0.0.1; stop what holds it or choose another ` +
        `with --port\n`,
    );
  }, 60_000);

  it('names an unreachable DATABASE_URL without its password, in one line with exit code 1', async () => {
    const result = await runCli(['sandbox', '--port', '0'], {
      DATABASE_URL: 'postgres://kit:s3cret-pw@127.0.0.1:1/shop',
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'wallet-partner-kit: cannot reach the database at postgres://kit:***@127.0.0.1:1/shop (ECONNREFUSED)\n',
    );
    expect(result.stdout + result.stderr).not.toContain('s3cret-pw');
  }, 60_000);

  it('prints the stack as well with LOG_LEVEL=debug', async () => {
    const result = await runCli(['sandbox', '--port', '0'], {
      DATABASE_URL: 'postgres://kit:s3cret-pw@127.0.0.1:1/shop',
      LOG_LEVEL: 'debug',
    });
    expect(result.code).toBe(1);
    expect(result.stderr.split('\n')[0]).toBe(
      'wallet-partner-kit: cannot reach the database at postgres://kit:***@127.0.0.1:1/shop (ECONNREFUSED)',
    );
    expect(result.stderr).toMatch(/\n\s+at /);
  }, 60_000);

  it('points serve without configuration at --demo and --config, exit code 2', async () => {
    const result = await runCli(
      ['serve', '--port', '0'],
      Object.fromEntries(
        Object.keys(process.env)
          .filter((k) => k.startsWith('WPK_'))
          .map((k) => [k, undefined]),
      ),
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'wallet-partner-kit: Invalid server configuration: none given; try it with --demo, or give --config FILE ' +
        '(JSON; or WPK_CONFIG) or WPK_* variables\n',
    );
  }, 60_000);

  it("takes an option value that starts with a dash (--text '-20% today')", async () => {
    const result = await runCli([
      'push',
      'send',
      '--url',
      'http://127.0.0.1:1',
      '--login',
      'l',
      '--password',
      'p',
      '--sub-id',
      's',
      '--title',
      't',
      '--text',
      '-20% today',
    ]);
    // Parsing passed: the first thing missing is the file, not the text's value.
    expect(result).toMatchObject({ code: 2, stderr: 'wallet-partner-kit: --file is required\n' });
  }, 60_000);
});
