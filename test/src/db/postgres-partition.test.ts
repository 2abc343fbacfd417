import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../src/db/index.js';
import { openPostgres } from '../../../src/db/postgres.js';
import { DATABASE_URL, haveService } from '../../support/services.js';
import { startTcpProxy, type TcpProxy } from '../../support/tcp-proxy.js';

const quiet = { warn() {}, info() {} };

describe.runIf(haveService('DATABASE_URL', DATABASE_URL, 'the partitioned PostgreSQL pool test'))(
  'a PostgreSQL pool cut off from its server without a reset',
  () => {
    let proxy: TcpProxy;
    let db: Database;
    beforeAll(async () => {
      const target = new URL(DATABASE_URL!);
      proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
      const through = new URL(DATABASE_URL!);
      through.hostname = '127.0.0.1';
      through.port = String(proxy.port);
      db = await openPostgres({ url: through.toString(), queryTimeoutMs: 300, connectTimeoutMs: 300, logger: quiet });
    });
    afterAll(async () => {
      proxy?.heal();
      await db?.close();
      await proxy?.close();
    });

    it('fails a query with DATABASE_UNAVAILABLE instead of waiting for TCP to give up', async () => {
      expect((await db.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
      expect(db.reachable?.()).toBe(true);
      proxy.partition();
      await expect(db.query('SELECT 1')).rejects.toMatchObject({ code: 'DATABASE_UNAVAILABLE' });
      // The pool's own view, which /healthz reads without a query of its own.
      expect(db.reachable?.()).toBe(false);
      // A new connection meanwhile cannot be had either: refused in time, not held.
      await expect(db.transaction((tx) => tx.query('SELECT 1'))).rejects.toMatchObject({
        code: 'DATABASE_UNAVAILABLE',
      });
    }, 60_000);

    it('answers again once the network is back', async () => {
      proxy.heal();
      let answered = false;
      for (let round = 0; round < 200 && !answered; round++) {
        answered = await db.query('SELECT 1').then(
          () => true,
          () => false,
        );
        if (!answered) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(answered).toBe(true);
      expect(db.reachable?.()).toBe(true);
    }, 60_000);
  },
);
