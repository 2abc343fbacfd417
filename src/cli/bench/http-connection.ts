import net from 'node:net';
import tls from 'node:tls';

/** An HTTP answer: its status and its body as text. */
export interface Answer {
  status: number;
  body: string;
}

const HEAD_END = Buffer.from('\r\n\r\n');

/**
 * One keep-alive HTTP/1.1 connection sending one POST at a time, on a bare
 * socket: node:http's client costs more CPU per request than the cash desk
 * spends answering it, and a load generator must not be the limit it measures.
 * Reads `content-length` and `chunked` answers; reconnects after `Connection: close`.
 */
export class KeepAliveConnection {
  readonly #url: URL;
  readonly #head: string;
  #socket: net.Socket | undefined;
  #buffer: Buffer = Buffer.alloc(0);
  #pending: { resolve(answer: Answer): void; reject(error: Error): void } | undefined;
  #closeAfter = false;

  /** `url`: where to POST; `headers`: sent with every request (content-length is added). */
  constructor(url: URL, headers: Record<string, string>) {
    this.#url = url;
    const lines = [`POST ${url.pathname}${url.search} HTTP/1.1`, `host: ${url.host}`, 'connection: keep-alive'];
    for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
    this.#head = lines.join('\r\n');
  }

  /** POSTs `body` (JSON text) and resolves with the answer; rejects when the connection fails. */
  post(body: string): Promise<Answer> {
    const socket = this.#socket ?? this.#connect();
    return new Promise<Answer>((resolve, reject) => {
      this.#pending = { resolve, reject };
      socket.write(`${this.#head}\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    });
  }

  /** Closes the socket. */
  close(): void {
    this.#socket?.destroy();
    this.#socket = undefined;
  }

  #connect(): net.Socket {
    const port = Number(this.#url.port || (this.#url.protocol === 'https:' ? 443 : 80));
    const host = this.#url.hostname.replace(/^\[|\]$/g, '');
    const socket =
      this.#url.protocol === 'https:'
        ? tls.connect({ host, port, servername: net.isIP(host) ? undefined : host })
        : net.connect({ host, port });
    socket.setNoDelay(true);
    this.#buffer = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      this.#buffer = this.#buffer.length === 0 ? chunk : Buffer.concat([this.#buffer, chunk]);
      this.#parse();
    });
    const fail = (error: Error) => {
      // A socket already let go (after `connection: close`) closes late: the request now pending is another socket's.
      if (this.#socket !== socket) return;
      this.#socket = undefined;
      const pending = this.#pending;
      this.#pending = undefined;
      pending?.reject(error);
    };
    socket.on('error', fail);
    socket.on('close', () =>
      fail(Object.assign(new Error('the server closed the connection'), { code: 'ECONNRESET' })),
    );
    this.#socket = socket;
    return socket;
  }

  #parse(): void {
    const headEnd = this.#buffer.indexOf(HEAD_END);
    if (headEnd < 0) return;
    const head = this.#buffer.toString('latin1', 0, headEnd);
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0);
    const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
    const start = headEnd + 4;
    let body: Buffer;
    let end: number;
    if (length) {
      end = start + Number(length[1]);
      if (this.#buffer.length < end) return;
      body = this.#buffer.subarray(start, end);
    } else if (/\r\ntransfer-encoding:[^\r]*chunked/i.test(head)) {
      const parts: Buffer[] = [];
      let at = start;
      for (;;) {
        const lineEnd = this.#buffer.indexOf('\r\n', at);
        if (lineEnd < 0) return;
        const size = parseInt(this.#buffer.toString('latin1', at, lineEnd), 16);
        if (Number.isNaN(size)) {
          this.#socket?.destroy(new Error('a chunked answer that does not parse'));
          return;
        }
        if (this.#buffer.length < lineEnd + 2 + size + 2) return;
        parts.push(this.#buffer.subarray(lineEnd + 2, lineEnd + 2 + size));
        at = lineEnd + 2 + size + 2;
        if (size === 0) break; // no trailers expected from a JSON API
      }
      body = Buffer.concat(parts);
      end = at;
    } else {
      this.#socket?.destroy(new Error('an answer with neither content-length nor chunked'));
      return;
    }
    this.#closeAfter = /\r\nconnection:\s*close/i.test(head);
    this.#buffer = this.#buffer.subarray(end);
    const pending = this.#pending;
    this.#pending = undefined;
    if (this.#closeAfter) this.close();
    pending?.resolve({ status, body: body.toString('utf8') });
  }
}
