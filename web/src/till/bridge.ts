/** A JSON-RPC refusal: `code` is JSON-RPC's number, `kitCode` the stable `error.data.code` to branch on. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    readonly kitCode: string,
    message: string,
    readonly errors: string[],
  ) {
    super(errors.length > 0 ? `${kitCode}: ${errors.join('; ')}` : `${kitCode}: ${message}`);
  }
}

type Pending = { resolve: (value: unknown) => void; reject: (error: Error) => void };

/** Why the till could not connect, in words for the operator. */
export class ConnectError extends Error {}

/**
 * The till's side of the bridge (adapters/ws/README.md): JSON-RPC 2.0 over WebSocket, subprotocol `wallet-pos.v1`.
 * A browser cannot set headers on a WebSocket, and a key in the URL would land in proxies' access logs: the key goes
 * to `POST /v1/tickets` as a Bearer header, and the upgrade carries the one-use ticket (`?ticket=`) it answers. A
 * browser learns nothing of a refused upgrade (no status), so that POST's 401 or 429 is what says a key is wrong.
 */
export class BridgeClient {
  #socket: WebSocket | undefined;
  #nextId = 1;
  readonly #pending = new Map<number, Pending>();

  constructor(
    private readonly onNotification: (method: string, params: unknown) => void,
    private readonly onClosed: (reason: string) => void,
  ) {}

  async connect(key: string): Promise<void> {
    let probe: Response;
    try {
      probe = await fetch('/v1/tickets', { method: 'POST', headers: { authorization: `Bearer ${key}` } });
    } catch {
      throw new ConnectError('The cash desk server does not answer.');
    }
    if (probe.status === 401)
      throw new ConnectError('The till key was refused (401 UNAUTHORIZED): check the key configured for this till.');
    if (probe.status === 429)
      throw new ConnectError(
        `Too many wrong till keys from this address: try again in ${probe.headers.get('retry-after') ?? 'a few'} s.`,
      );
    if (!probe.ok) throw new ConnectError(`The cash desk server refused a ticket (HTTP ${probe.status}).`);
    const { ticket } = (await probe.json()) as { ticket: string };
    const url = new URL(`ws${location.protocol === 'https:' ? 's' : ''}://${location.host}/ws`);
    url.searchParams.set('ticket', ticket);
    const socket = new WebSocket(url, 'wallet-pos.v1');
    await new Promise<void>((resolve, reject) => {
      socket.onopen = () => resolve();
      socket.onclose = () =>
        reject(
          new ConnectError(
            'The bridge refused the connection (origin not allowed, or too many connections for this till).',
          ),
        );
    });
    this.#socket = socket;
    socket.onmessage = (event) => this.#receive(String(event.data));
    socket.onclose = (event) => {
      this.#socket = undefined;
      for (const pending of this.#pending.values())
        pending.reject(new RpcError(0, 'DISCONNECTED', 'the bridge connection closed', []));
      this.#pending.clear();
      this.onClosed(event.reason || `closed (${event.code})`);
    };
  }

  get connected(): boolean {
    return this.#socket?.readyState === WebSocket.OPEN;
  }

  call<T>(method: string, params?: unknown): Promise<T> {
    const socket = this.#socket;
    if (socket === undefined) return Promise.reject(new RpcError(0, 'DISCONNECTED', 'not connected to the bridge', []));
    const id = this.#nextId++;
    return new Promise<T>((resolve, reject) => {
      this.#pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      socket.send(JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) }));
    });
  }

  close(): void {
    this.#socket?.close(1000, 'till closed');
  }

  #receive(text: string): void {
    let frame: {
      id?: number;
      method?: string;
      params?: unknown;
      result?: unknown;
      error?: { code: number; message: string; data?: { code?: string; errors?: string[] } };
    };
    try {
      frame = JSON.parse(text);
    } catch {
      return;
    }
    if (frame.method !== undefined && frame.id === undefined) {
      this.onNotification(frame.method, frame.params);
      return;
    }
    const pending = frame.id === undefined ? undefined : this.#pending.get(frame.id);
    if (pending === undefined) return;
    this.#pending.delete(frame.id!);
    if (frame.error !== undefined) {
      const { code, message, data } = frame.error;
      pending.reject(new RpcError(code, data?.code ?? 'ERROR', message, data?.errors ?? []));
    } else pending.resolve(frame.result);
  }
}
