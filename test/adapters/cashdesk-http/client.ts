import type { TillVerificationsOptions } from '../../../src/cashdesk/verifications.js';
import type { VerifierConfig } from '../../../adapters/node/config.js';
import { createHttpApp, type HttpAdapterOptions } from '../../../adapters/cashdesk-http/index.js';
import { serveHttp } from '../../../adapters/http-server/index.js';
import { CashDeskService } from '../../../src/cashdesk/service.js';
import { TillRegistry } from '../../../src/cashdesk/tills.js';
import { createVerifier, generateBarcode } from '../../../src/entries/index.js';
import { BASE_CONFIG, NOW } from '../../support/fixtures.js';

/** The key of the one till the test servers know. */
export const TILL_KEY = 'till-key-0123456789abcdef';

/** The card of {@link barcode}. */
export const CARD = '4000123412341234';

/** A valid barcode at NOW for the base config (HMACSHA256, 8 digits, `;`). */
export function barcode(cardNumber = CARD, cardSession: string | undefined = 'AB12CD34'): string {
  return generateBarcode({
    ...BASE_CONFIG,
    cardNumber,
    cardSession,
    at: NOW,
  });
}

/** What the service is built from: the real wasm verifier, or a stand-in for failure tests. */
export type TestVerifier = TillVerificationsOptions['verifier'];

/** A listening HTTP adapter over a service with one till. */
export interface TestServer {
  url: string;
  /** The Node server, e.g. to wait on its connections rather than on a timer. */
  server: import('node:http').Server;
  service: CashDeskService;
  close(): Promise<void>;
}

/**
 * Starts the adapter on 127.0.0.1:0 over a wasm verifier built from `config`
 * (clock fixed at NOW unless given), or over `verifier` when supplied.
 */
export async function startServer({
  config = {},
  options,
  verifier,
}: {
  config?: Partial<VerifierConfig>;
  options?: HttpAdapterOptions;
  verifier?: TestVerifier;
} = {}): Promise<TestServer> {
  const used =
    verifier ?? createVerifier({ ...BASE_CONFIG, backend: 'wasm', clock: () => NOW, ...config } as VerifierConfig);
  const service = new CashDeskService({
    verifier: used,
    tills: new TillRegistry([{ id: 'till-1', key: TILL_KEY }]),
    version: '9.9.9',
  });
  const http = await serveHttp(createHttpApp(service, options));
  return {
    url: http.url,
    server: http.server,
    service,
    async close() {
      await http.close();
      await used.close();
    },
  };
}

/** One answer, with the body parsed when it is JSON. */
export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  body: any; // tests assert on the shape
}

/** Options of {@link request}. */
export interface RequestOptions {
  method?: string;
  /** A string or bytes is sent as is; anything else as JSON text. */
  body?: unknown;
  /** Sent as `Authorization: Bearer`; null for none. Default: the till's key. */
  key?: string | null;
  /** null for no Content-Type header (send bytes). Default `application/json` when there is a body. */
  contentType?: string | null;
  headers?: Record<string, string>;
}

/** Sends one request with global fetch and reads the whole answer. */
export async function request(base: string, path: string, options: RequestOptions = {}): Promise<Reply> {
  const { method = options.body === undefined ? 'GET' : 'POST', key = TILL_KEY } = options;
  const headers: Record<string, string> = { ...options.headers };
  if (key !== null) headers.authorization = `Bearer ${key}`;
  let body: BodyInit | undefined;
  if (options.body !== undefined) {
    body =
      typeof options.body === 'string' || options.body instanceof Uint8Array
        ? (options.body as BodyInit)
        : JSON.stringify(options.body);
    const contentType = options.contentType === undefined ? 'application/json' : options.contentType;
    if (contentType !== null) headers['content-type'] = contentType;
  }
  const response = await fetch(new URL(path, base), { method, headers, body });
  const text = await response.text();
  const isJson = response.headers.get('content-type')?.startsWith('application/json') ?? false;
  return {
    status: response.status,
    headers: response.headers,
    text,
    body: isJson && text !== '' ? JSON.parse(text) : undefined,
  };
}
