import { connect, type Socket } from 'node:net';

/**
 * Hostile clients over real loopback sockets, for the per-server attack tests
 * (test/src/server/attacks.test.ts): they wait on socket events, never on wall-clock durations.
 */

function hostPort(url: string): { host: string; port: number } {
  const { hostname, port } = new URL(url);
  return { host: hostname.replace(/^\[|\]$/g, ''), port: Number(port) };
}

/** An idle socket and how it ended. */
export interface IdleSocket {
  readonly socket: Socket;
  /** Bytes the server sent before closing (a refused socket gets none; a timed-out one a 408). */
  received: string;
  closed: boolean;
}

/** `count` sockets that connect and send nothing, opened in waves so the listen backlog never overflows. */
export async function openIdleSockets(url: string, count: number, wave = 100): Promise<IdleSocket[]> {
  const { host, port } = hostPort(url);
  const all: IdleSocket[] = [];
  for (let start = 0; start < count; start += wave) {
    await Promise.all(
      Array.from(
        { length: Math.min(wave, count - start) },
        () =>
          new Promise<void>((resolve) => {
            const socket = connect(port, host);
            const idle: IdleSocket = { socket, received: '', closed: false };
            all.push(idle);
            socket.setEncoding('latin1');
            socket.on('data', (chunk: string) => {
              idle.received += chunk;
            });
            socket.on('error', () => {
              /* a refused socket may be reset: seen as 'close' */
            });
            socket.on('close', () => {
              idle.closed = true;
              resolve();
            });
            socket.on('connect', () => resolve());
          }),
      ),
    );
  }
  return all;
}

/** Polls `condition` every 10 ms (an event count, not a duration) until it holds or `limitMs` passes. */
export async function until(condition: () => boolean, what: string, limitMs = 15_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`${what}: not reached within ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Destroys the sockets still open and waits for their 'close'. */
export async function destroyAll(sockets: readonly IdleSocket[]): Promise<void> {
  await Promise.all(
    sockets
      .filter((s) => !s.closed)
      .map(
        (s) =>
          new Promise<void>((resolve) => {
            s.socket.once('close', () => resolve());
            s.socket.destroy();
          }),
      ),
  );
}

/** What the server did to a raw request: the status line it answered (if any), once it closed the socket. */
export interface RawOutcome {
  /** e.g. `HTTP/1.1 408 Request Timeout`, or undefined when closed without an answer. */
  statusLine: string | undefined;
  received: string;
}

/**
 * Sends a request head and `bodyStart` of a body declared longer, then
 * nothing: the server must end it (408) once its request timeout passes.
 * Resolves on the socket's 'close'.
 */
export function slowBody(
  url: string,
  path: string,
  headers: Record<string, string>,
  declaredLength = 1_000,
): Promise<RawOutcome> {
  const { host, port } = hostPort(url);
  return new Promise((resolve) => {
    const socket = connect(port, host);
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      received += chunk;
    });
    socket.on('error', () => {});
    socket.on('close', () => resolve({ statusLine: received.split('\r\n')[0] || undefined, received }));
    socket.on('connect', () => {
      const head = Object.entries({
        Host: `${host}:${port}`,
        'Content-Type': 'application/json',
        'Content-Length': String(declaredLength),
        ...headers,
      })
        .map(([name, value]) => `${name}: ${value}`)
        .join('\r\n');
      socket.write(`POST ${path} HTTP/1.1\r\n${head}\r\n\r\n{`);
    });
  });
}

/** Whether `received` holds a whole answer: its head and the `content-length` bytes of body it declares. */
function answerComplete(received: string): boolean {
  const headEnd = received.indexOf('\r\n\r\n');
  if (headEnd < 0) return false;
  const length = /\r\ncontent-length: *(\d+)\r\n/i.exec(received.slice(0, headEnd + 2))?.[1];
  return length !== undefined && received.length - headEnd - 4 >= Number(length);
}

/** The answer to a huge body, and how much of it the client managed to send before the answer. */
export interface HugeOutcome extends RawOutcome {
  /** Body bytes written before the server's answer arrived. */
  sentBeforeAnswer: number;
}

/**
 * POSTs a body declared as `declaredBytes` (Content-Length, or chunked when
 * `chunked`), writing 64 KiB chunks only while the server keeps reading, and
 * stops at its first answer: a server that refuses early answers long before
 * the body could have been sent, having buffered none of it.
 */
export function hugeBody(
  url: string,
  path: string,
  headers: Record<string, string>,
  declaredBytes: number,
  { chunked = false } = {},
): Promise<HugeOutcome> {
  const { host, port } = hostPort(url);
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  return new Promise((resolve) => {
    const socket = connect(port, host);
    let received = '';
    let sent = 0;
    let answeredAt: number | undefined;
    socket.setEncoding('latin1');
    socket.on('error', () => {});
    socket.on('data', (data: string) => {
      received += data;
      if (answeredAt === undefined) {
        answeredAt = sent;
        // Nothing more to send: the server closes once it has seen the end of the stream.
        socket.end();
      }
      // The whole answer is here: closed now, rather than when the server stops draining a body that never ends.
      if (answerComplete(received)) socket.destroy();
    });
    socket.on('close', () =>
      resolve({ statusLine: received.split('\r\n')[0] || undefined, received, sentBeforeAnswer: answeredAt ?? sent }),
    );
    const pump = (): void => {
      while (answeredAt === undefined && !socket.destroyed && sent < declaredBytes) {
        const piece = chunk.subarray(0, Math.min(chunk.length, declaredBytes - sent));
        sent += piece.length;
        const more = socket.write(
          chunked
            ? Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')])
            : piece,
        );
        if (!more) {
          socket.once('drain', pump);
          return;
        }
      }
    };
    socket.on('connect', () => {
      const framing = chunked ? { 'Transfer-Encoding': 'chunked' } : { 'Content-Length': String(declaredBytes) };
      const head = Object.entries({
        Host: `${host}:${port}`,
        'Content-Type': 'application/json',
        ...framing,
        ...headers,
      })
        .map(([name, value]) => `${name}: ${value}`)
        .join('\r\n');
      socket.write(`POST ${path} HTTP/1.1\r\n${head}\r\n\r\n`);
      pump();
    });
  });
}
