import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the fake server received. */
export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** How the fake answers one request: a status and body, no answer (`destroy`), or never (`hang`). */
export type Script =
  | { status: number; body?: unknown; headers?: Record<string, string> }
  | { destroy: true }
  | { hang: true };

/**
 * A scripted stand-in for a Pay API server on a real socket, for the cases the
 * sandbox cannot produce on demand (garbage answers, hangs, Retry-After). Each
 * request takes the next script of its path; without one it answers 500.
 */
export async function startFakePayServer(): Promise<{
  url: string;
  received: Received[];
  script(path: string, ...answers: Script[]): void;
  /** Forgets what was received and the scripts not used yet. */
  reset(): void;
  close(): Promise<void>;
}> {
  const scripts = new Map<string, Script[]>();
  const received: Received[] = [];
  const hanging = new Set<ServerResponse>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks) });
      const next = scripts.get(path)?.shift() ?? { status: 500, body: { status: 'INTERNAL', errors: ['unscripted'] } };
      if ('destroy' in next) return void req.socket.destroy();
      if ('hang' in next) return void hanging.add(res);
      const text = typeof next.body === 'string' ? next.body : JSON.stringify(next.body ?? {});
      res.writeHead(next.status, {
        'content-type': 'application/json',
        'x-request-id': `srv-${received.length}`,
        ...next.headers,
      });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    script(path, ...answers) {
      scripts.set(path, [...(scripts.get(path) ?? []), ...answers]);
    },
    reset() {
      scripts.clear();
      received.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.socket?.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
