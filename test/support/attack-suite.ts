import { get } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerLimits } from '../../adapters/http-server/server-limits.js';
import { destroyAll, hugeBody, openIdleSockets, slowBody, until } from './attacks.js';

/** A server under attack, listening with the given limits. */
export interface AttackTarget {
  readonly url: string;
  close(): Promise<void>;
}

/** What the suite listens with: each call one more listener (on a port of its own) for the same app. */
export type Listen = (limits: Partial<ServerLimits>) => Promise<AttackTarget>;

/** How to reach a POST route of the server that reads a body (headers that get past any check made before the body). */
export interface AttackRoute {
  path: string;
  headers: Record<string, string>;
  /** Its body limit, for the chunked huge body. */
  bodyLimitBytes: number;
  /** What a body that never ends gets once the request timeout passes. Default 408. */
  slowStatus?: number;
}

/** Five times the cap: enough to show the cap holds, not so many that the run is spent opening sockets. */
const IDLE_SOCKETS = 500;
const CAP = 100;

/** The status of `GET /livez` on a fresh connection, 0 when the socket was closed unanswered (over the cap). */
function livez(url: string): Promise<number> {
  return new Promise((resolve) => {
    const req = get(`${url}/livez`, { agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', () => resolve(0));
  });
}

/**
 * The hostile-client attacks, over real loopback sockets, against one server: 500
 * idle sockets (only the cap kept), idle and slow-body clients ended by the
 * timeouts (tiny here, so nothing waits long), and a huge body refused 413
 * long before it could have been sent. Asserts on socket events and answers,
 * never on durations.
 */
export function attackSuite(start: Listen, route: AttackRoute): void {
  describe('with a connection cap (and long timeouts)', () => {
    let target: AttackTarget;
    beforeAll(async () => {
      target = await start({ maxConnections: CAP, headersTimeoutMs: 600_000, requestTimeoutMs: 600_000 });
    });
    afterAll(async () => {
      await target?.close();
    });

    it(`keeps only its cap of ${CAP} of ${IDLE_SOCKETS} idle sockets, answers the rest 503 and closes them, and ` +
      `answers a real request after`, async () => {
      const sockets = await openIdleSockets(target.url, IDLE_SOCKETS);
      const refused = () => sockets.filter((s) => s.closed).length;
      await until(() => refused() >= IDLE_SOCKETS - CAP, 'sockets over the cap closed');
      expect(refused()).toBe(IDLE_SOCKETS - CAP);
      // Refused with a 503 saying when to retry, never a bare close; the kept ones are still open, waiting for their
      // headers.
      const answers = sockets.filter((s) => s.closed).map((s) => s.received);
      expect(answers.every((a) => a.startsWith('HTTP/1.1 503 ') && /\r\nretry-after: 1\r\n/.test(a))).toBe(true);
      await destroyAll(sockets);
      // The server counts the sockets just closed against its cap as it sees them go: retried until it has.
      let status = 0;
      for (let attempt = 0; attempt < 200 && status !== 200; attempt++) status = await livez(target.url);
      expect(status).toBe(200);
    }, 60_000);

    it('answers 413 to a body declared huge without reading it', async () => {
      const declared = 64 * 1024 * 1024;
      const outcome = await hugeBody(target.url, route.path, route.headers, declared);
      expect(outcome.statusLine).toMatch(/^HTTP\/1\.1 413 /);
      expect(outcome.sentBeforeAnswer).toBeLessThan(declared / 2);
    });

    it('refuses a chunked body once it passes the limit, before it ends', async () => {
      const declared = 64 * 1024 * 1024;
      const outcome = await hugeBody(target.url, route.path, route.headers, declared, { chunked: true });
      expect(outcome.statusLine).toMatch(/^HTTP\/1\.1 (413|401) /);
      expect(outcome.sentBeforeAnswer).toBeLessThan(Math.max(route.bodyLimitBytes * 4, 16 * 1024 * 1024));
      expect(await livez(target.url)).toBe(200);
    });
  });

  describe('with tiny timeouts', () => {
    let target: AttackTarget;
    beforeAll(async () => {
      target = await start({ headersTimeoutMs: 100, requestTimeoutMs: 200, keepAliveTimeoutMs: 50 });
    });
    afterAll(async () => {
      await target?.close();
    });

    it('answers 408 and closes sockets that never send their headers', async () => {
      const sockets = await openIdleSockets(target.url, 20);
      await Promise.all(
        sockets.map(
          (s) => new Promise<void>((resolve) => (s.closed ? resolve() : s.socket.once('close', () => resolve()))),
        ),
      );
      expect(sockets.every((s) => s.received.startsWith('HTTP/1.1 408'))).toBe(true);
      expect(await livez(target.url)).toBe(200);
    });

    it('ends a client that sends its body too slowly', async () => {
      const outcome = await slowBody(target.url, route.path, route.headers);
      // Resolved on the socket's 'close': the server ended it.
      expect(outcome.statusLine).toMatch(new RegExp(`^HTTP/1\\.1 ${route.slowStatus ?? 408} `));
      expect(await livez(target.url)).toBe(200);
    });
  });
}
