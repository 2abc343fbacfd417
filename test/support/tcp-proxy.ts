import { createServer, type Server, type Socket, connect } from 'node:net';

/**
 * A TCP proxy a test owns, in front of a server it must not disturb (the shared PostgreSQL): `partition()` stops
 * every byte both ways without closing anything (packets dropped, no FIN, no reset), as a cut network does;
 * `heal()` lets them through again. Loopback only, an ephemeral port.
 */
export interface TcpProxy {
  readonly port: number;
  partition(): void;
  heal(): void;
  close(): Promise<void>;
}

/** Starts a proxy to `host:port`. */
export async function startTcpProxy(host: string, port: number): Promise<TcpProxy> {
  const pairs = new Set<[Socket, Socket]>();
  let cut = false;
  const server: Server = createServer((inbound) => {
    const outbound = connect(port, host);
    const pair: [Socket, Socket] = [inbound, outbound];
    pairs.add(pair);
    inbound.pipe(outbound);
    outbound.pipe(inbound);
    if (cut) for (const socket of pair) socket.pause();
    const end = () => {
      pairs.delete(pair);
      inbound.destroy();
      outbound.destroy();
    };
    inbound.on('error', end).on('close', end);
    outbound.on('error', end).on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port: own } = server.address() as { port: number };
  // Paused sockets read nothing: bytes wait in the kernel's buffers, and the other side hears nothing at all.
  const each = (act: (socket: Socket) => void) => {
    for (const pair of pairs) for (const socket of pair) act(socket);
  };
  return {
    port: own,
    partition() {
      cut = true;
      each((s) => s.pause());
    },
    heal() {
      cut = false;
      each((s) => s.resume());
    },
    async close() {
      each((s) => s.destroy());
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
