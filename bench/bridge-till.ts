import WebSocket from 'ws';

/** A `pay.sessionUpdated` notification's params, as far as the benchmark reads them. */
export interface SessionUpdate {
  paymentId: string;
  phase: string;
  transactionId?: string;
  status?: string;
}

/** A JSON-RPC error answer, thrown by {@link BridgeTill.call}. */
export class BridgeCallError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * One till on the WebSocket bridge for the benchmarks: calls resolve with
 * their result, `pay.sessionUpdated` notifications go to `onUpdate`.
 */
export class BridgeTill {
  readonly #pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  #next = 1;
  onUpdate: (update: SessionUpdate) => void = () => {};

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const frame = JSON.parse(String(data)) as {
        id?: number;
        result?: unknown;
        error?: { message: string; data?: { code?: string } };
        method?: string;
        params?: SessionUpdate;
      };
      if (frame.method === 'pay.sessionUpdated' && frame.params) {
        this.onUpdate(frame.params);
        return;
      }
      const waiter = frame.id === undefined ? undefined : this.#pending.get(frame.id);
      if (waiter === undefined) return;
      this.#pending.delete(frame.id!);
      if (frame.error) waiter.reject(new BridgeCallError(frame.error.data?.code ?? 'RPC_ERROR', frame.error.message));
      else waiter.resolve(frame.result);
    });
    ws.on('close', () => {
      for (const waiter of this.#pending.values()) waiter.reject(new Error('bridge connection closed'));
      this.#pending.clear();
    });
  }

  /** Connects as the till with this key. */
  static connect(wsUrl: string, key: string): Promise<BridgeTill> {
    const ws = new WebSocket(wsUrl, 'wallet-pos.v1', {
      headers: { Authorization: `Bearer ${key}` },
      perMessageDeflate: false,
    });
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(new BridgeTill(ws)));
      ws.once('error', reject);
    });
  }

  /** Calls a method; resolves with its result, rejects with {@link BridgeCallError}. */
  call<T>(method: string, params: unknown): Promise<T> {
    const id = this.#next++;
    return new Promise<T>((resolve, reject) => {
      this.#pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    });
  }

  close(): void {
    this.ws.terminate();
  }
}
