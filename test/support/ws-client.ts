import { request as httpRequest } from 'node:http';
import WebSocket, { type ClientOptions } from 'ws';

/** The bridge's subprotocol (kept literal here so the client does not import the code under test). */
export const WS_SUBPROTOCOL = 'wallet-pos.v1';

/** How to open a test connection. */
export interface ConnectOptions {
  /** Sent as `Authorization: Bearer <key>`. */
  key?: string;
  /** Subprotocols offered; default `['wallet-pos.v1']`. */
  protocols?: string[];
  headers?: Record<string, string>;
  /** Passed to `ws` as is (`autoPong`, `maxPayload`, ...). */
  ws?: ClientOptions;
}

/** A JSON-RPC error received as a rejection: `code` is `error.data.code` (e.g. `REQUEST_DATA_INVALID`). */
export class RpcError extends Error {
  readonly code: string;
  readonly rpcCode: number;
  readonly data: unknown;

  constructor(error: { code: number; message: string; data?: { code?: string } }) {
    super(error.message);
    this.name = 'RpcError';
    this.rpcCode = error.code;
    this.code = error.data?.code ?? String(error.code);
    this.data = error.data;
  }
}

/** Why and how a connection ended. */
export interface Closed {
  code: number;
  reason: string;
}

/**
 * A tiny JSON-RPC 2.0 client over `ws` for tests: typed calls that resolve to
 * the result or reject with `RpcError`, plus raw access (send anything, read
 * the next frame) for the protocol tests.
 */
export class RpcClient {
  readonly ws: WebSocket;
  /** Resolves when the connection closes, with the close code and reason. */
  readonly closed: Promise<Closed>;
  readonly #pending = new Map<string | number, (response: Record<string, unknown>) => void>();
  readonly #inbox: unknown[] = [];
  readonly #waiting: Array<(message: unknown) => void> = [];
  #nextId = 1;

  private constructor(ws: WebSocket) {
    this.ws = ws;
    this.closed = new Promise((resolve) =>
      ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
    ws.on('error', () => {
      /* surfaced through `closed` */
    });
    ws.on('message', (data) => this.#receive(String(data)));
  }

  /** Opens a connection; rejects with the HTTP status when the upgrade is refused. */
  static connect(url: string, options: ConnectOptions = {}): Promise<RpcClient> {
    const headers = { ...options.headers, ...(options.key ? { Authorization: `Bearer ${options.key}` } : {}) };
    const ws = new WebSocket(url, options.protocols ?? [WS_SUBPROTOCOL], { ...options.ws, headers });
    const client = new RpcClient(ws);
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(client));
      ws.once('unexpected-response', (_req, res) => {
        reject(Object.assign(new Error(`upgrade refused: ${res.statusCode}`), { status: res.statusCode }));
        res.resume();
        ws.terminate();
      });
      ws.once('error', reject);
    });
  }

  /** Calls a method and resolves to its result; a JSON-RPC error rejects with `RpcError`. */
  async call<R = unknown>(method: string, params?: unknown): Promise<R> {
    const response = await this.request({
      jsonrpc: '2.0',
      id: this.#nextId++,
      method,
      ...(params === undefined ? {} : { params }),
    });
    if ('error' in response) throw new RpcError(response.error as ConstructorParameters<typeof RpcError>[0]);
    return response.result as R;
  }

  /** Sends a request object (its `id` must be a string or number) and resolves to the response with that id. */
  request(message: { id: string | number } & Record<string, unknown>): Promise<Record<string, unknown>> {
    return new Promise((resolve) => {
      this.#pending.set(message.id, resolve);
      this.ws.send(JSON.stringify(message));
    });
  }

  /** Sends raw data: a string as a text frame, a Buffer as a binary frame, anything else as JSON text. */
  send(data: unknown): void {
    if (Buffer.isBuffer(data)) this.ws.send(data, { binary: true });
    else this.ws.send(typeof data === 'string' ? data : JSON.stringify(data));
  }

  /** The next frame not claimed by `request`/`call`, parsed. */
  next(timeoutMs = 5_000): Promise<unknown> {
    const queued = this.#inbox.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no frame within ${timeoutMs} ms`)), timeoutMs);
      this.#waiting.push((message) => {
        clearTimeout(timer);
        resolve(message);
      });
    });
  }

  /** Resolves to true if no unclaimed frame arrives within `ms`. */
  async silentFor(ms: number): Promise<boolean> {
    if (this.#inbox.length > 0) return false;
    return new Promise((resolve) => {
      const listener = (message: unknown): void => {
        clearTimeout(timer);
        this.#inbox.unshift(message);
        resolve(false);
      };
      const timer = setTimeout(() => {
        this.#waiting.splice(this.#waiting.indexOf(listener), 1);
        resolve(true);
      }, ms);
      this.#waiting.push(listener);
    });
  }

  /** Closes normally and waits for the close to complete. */
  async close(): Promise<Closed> {
    if (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING) this.ws.close(1000);
    return this.closed;
  }

  #receive(text: string): void {
    const message: unknown = JSON.parse(text);
    const id =
      !Array.isArray(message) && typeof message === 'object' && message !== null
        ? (message as { id?: unknown }).id
        : undefined;
    const pending = typeof id === 'string' || typeof id === 'number' ? this.#pending.get(id) : undefined;
    if (pending) {
      this.#pending.delete(id as string | number);
      pending(message as Record<string, unknown>);
      return;
    }
    const waiter = this.#waiting.shift();
    if (waiter) waiter(message);
    else this.#inbox.push(message);
  }
}

/** The answer to a hand-made upgrade request: a status and a body, or 101. */
export interface UpgradeAnswer {
  status: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

/**
 * Sends a WebSocket upgrade request by hand (to see refusals exactly as a till
 * would: status line, headers, body) and closes whatever comes back.
 */
export function rawUpgrade(url: string, headers: Record<string, string> = {}): Promise<UpgradeAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url.replace(/^ws/, 'http'), {
      headers: {
        Connection: 'Upgrade',
        Upgrade: 'websocket',
        'Sec-WebSocket-Version': '13',
        'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==',
        ...headers,
      },
    });
    req.on('upgrade', (res, socket) => {
      socket.destroy();
      resolve({ status: res.statusCode ?? 0, body: '', headers: res.headers });
    });
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}
