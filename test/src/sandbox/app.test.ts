import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/errors.js';
import { startSandbox } from '../../../src/entries/sandbox.js';
import { createSandbox } from '../../../src/sandbox/app.js';
import { resolveSandboxOptions } from '../../../src/sandbox/options.js';
import type { SandboxModule } from '../../../src/sandbox/module.js';

const echoModule = (calls: string[]): SandboxModule => ({
  name: 'echo',
  migrations: [{ id: '001-echo', sql: 'CREATE TABLE echo (v TEXT)' }],
  mount(app, ctx) {
    app.get('/echo', async (c) =>
      c.json({ rows: (await ctx.db.query('SELECT v FROM echo')).rows, demo: ctx.demo, timeScale: ctx.timeScale }),
    );
  },
  async seedDemo(ctx) {
    await ctx.db.query("INSERT INTO echo VALUES ('seeded')");
    return ['Echo       {url}/echo'];
  },
  start() {
    calls.push('start');
  },
  async close() {
    calls.push('close');
  },
});

describe('resolveSandboxOptions', () => {
  it('defaults to loopback, port 8090, memory, real time', () => {
    expect(resolveSandboxOptions({})).toMatchObject({ host: '127.0.0.1', port: 8090, demo: false, timeScale: 1 });
  });

  it('names every bad option at once', () => {
    const error = (() => {
      try {
        resolveSandboxOptions({ port: 70000, timeScale: 0, dataDir: '/tmp/x', databaseUrl: 'postgres://h/db' });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).issues).toEqual(
      expect.arrayContaining([
        'port: must be an integer from 0 to 65535',
        'timeScale: must be at least 1',
        'sandbox: give dataDir or databaseUrl, not both',
      ]),
    );
  });
});

describe('createSandbox', () => {
  it('applies the modules migrations, seeds demo records, mounts routes and serves the document', async () => {
    const calls: string[] = [];
    const sandbox = await createSandbox({ demo: true, timeScale: 100 }, [echoModule(calls)]);
    try {
      expect(sandbox.banner).toEqual(['Echo       {url}/echo']);
      expect(await (await sandbox.app.request('/echo')).json()).toEqual({
        rows: [{ v: 'seeded' }],
        demo: true,
        timeScale: 100,
      });
      expect(await (await sandbox.app.request('/healthz')).json()).toMatchObject({ status: 'ok', database: 'pglite' });
      expect(await (await sandbox.app.request('/openapi.json')).json()).toMatchObject({ openapi: '3.1.0' });
      sandbox.start();
    } finally {
      await sandbox.close();
    }
    expect(calls).toEqual(['start', 'close']);
  });
});

describe('startSandbox', () => {
  it('listens on a real socket and says so when the port is taken, closing what it opened', async () => {
    const running = await startSandbox({ port: 0 }, []);
    try {
      expect((await fetch(`${running.url}/healthz`)).status).toBe(200);
      const blocker = createServer();
      await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
      const port = (blocker.address() as { port: number }).port;
      await expect(startSandbox({ port }, [])).rejects.toMatchObject({ code: 'EADDRINUSE' });
      blocker.close();
    } finally {
      await running.close();
    }
  });

  const seeding = (calls: string[]): SandboxModule => {
    const echo = echoModule(calls);
    return {
      ...echo,
      async seedDemo(ctx) {
        calls.push('seed');
        return echo.seedDemo!(ctx);
      },
    };
  };

  it(
    'with PGlite in memory, listens before its database is ready; a request ' + 'sent then is answered by the sandbox',
    async () => {
      const calls: string[] = [];
      let atListening: string[] | undefined;
      let early: Promise<{ status: number; body: unknown; health: number }> | undefined;
      const started = await startSandbox(
        {
          port: 0,
          demo: true,
          onListening(url) {
            atListening = [...calls];
            // Answered before or after readiness, whichever the machine makes of it: the answers must be the real ones.
            early = (async () => {
              const health = (await fetch(`${url}/healthz`)).status;
              const res = await fetch(`${url}/echo`);
              return { status: res.status, body: await res.json(), health };
            })();
          },
        },
        [seeding(calls)],
      );
      try {
        expect(atListening).toEqual([]);
        const { status, body, health } = await early!;
        expect([200, 503]).toContain(health);
        expect([status, body]).toEqual([200, { rows: [{ v: 'seeded' }], demo: true, timeScale: 1 }]);
        expect((await fetch(`${started.url}/healthz`)).status).toBe(200);
      } finally {
        await started.close();
      }
    },
  );

  it(
    'with a data folder, listens only once the database is ready (a locked ' + 'folder fails before anything listens)',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'wpk-sandbox-late-'));
      const calls: string[] = [];
      let atListening: string[] | undefined;
      const started = await startSandbox(
        {
          port: 0,
          demo: true,
          dataDir: dir,
          onListening() {
            atListening = [...calls];
          },
        },
        [seeding(calls)],
      );
      try {
        expect(atListening).toEqual(['seed']);
      } finally {
        await started.close();
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
