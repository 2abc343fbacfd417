import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A span as a collector received it (OTLP/HTTP JSON), with the `service.name` of its resource. */
export interface ReceivedSpan {
  service: string;
  name: string;
  /** OTLP's enum: 1 internal, 2 server, 3 client. */
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  attributes: Record<string, unknown>;
  status: { code?: number; message?: string };
}

/** OTLP's span kinds, as numbers in the JSON encoding. */
export const SPAN_KIND = { internal: 1, server: 2, client: 3 } as const;

interface AnyValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}
interface KeyValue {
  key: string;
  value: AnyValue;
}
interface OtlpSpan {
  name: string;
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  attributes?: KeyValue[];
  status?: { code?: number; message?: string };
}
interface ExportRequest {
  resourceSpans?: Array<{ resource?: { attributes?: KeyValue[] }; scopeSpans?: Array<{ spans?: OtlpSpan[] }> }>;
}

const attributeValue = (v: AnyValue): unknown =>
  v.stringValue ?? (v.intValue === undefined ? undefined : Number(v.intValue)) ?? v.boolValue ?? v.doubleValue;
const attributesOf = (list: KeyValue[] | undefined) =>
  Object.fromEntries((list ?? []).map(({ key, value }) => [key, attributeValue(value)]));

/**
 * A tiny OpenTelemetry collector for tests: `POST /v1/traces` with `http/json` (OTLP/HTTP JSON), every span kept
 * and anyone waiting on one woken. Anything else is answered 404 (415 for a body that is not JSON).
 */
export class OtlpCollector {
  readonly spans: ReceivedSpan[] = [];
  /** Content types the exports came with. */
  readonly contentTypes: string[] = [];
  readonly #server: Server;
  readonly #waiters = new Set<() => void>();

  private constructor(server: Server) {
    this.#server = server;
  }

  /** Starts one on an ephemeral port of 127.0.0.1. */
  static async start(): Promise<OtlpCollector> {
    const collector: OtlpCollector = new OtlpCollector(
      createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (chunk: Buffer) => chunks.push(chunk));
        req.on('end', () => {
          if (req.method !== 'POST' || req.url !== '/v1/traces') return void res.writeHead(404).end();
          collector.contentTypes.push(String(req.headers['content-type']));
          try {
            collector.#receive(JSON.parse(Buffer.concat(chunks).toString('utf8')) as ExportRequest);
          } catch {
            return void res.writeHead(415).end();
          }
          res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        });
      }),
    );
    await new Promise<void>((resolve) => collector.#server.listen(0, '127.0.0.1', resolve));
    return collector;
  }

  /** `http://127.0.0.1:<port>`: the value of `OTEL_EXPORTER_OTLP_ENDPOINT`. */
  get url(): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  /** The first span that fits, once received (no timeout of its own: the test's bounds it). */
  async until(fits: (span: ReceivedSpan) => boolean): Promise<ReceivedSpan> {
    for (;;) {
      const found = this.spans.find(fits);
      if (found !== undefined) return found;
      await new Promise<void>((resolve) => {
        const wake = () => {
          this.#waiters.delete(wake);
          resolve();
        };
        this.#waiters.add(wake);
      });
    }
  }

  close(): Promise<void> {
    this.#server.closeAllConnections();
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }

  #receive(request: ExportRequest): void {
    for (const { resource, scopeSpans } of request.resourceSpans ?? []) {
      const service = String(attributesOf(resource?.attributes)['service.name']);
      for (const { spans } of scopeSpans ?? []) {
        for (const s of spans ?? []) {
          this.spans.push({
            service,
            name: s.name,
            kind: s.kind,
            traceId: s.traceId,
            spanId: s.spanId,
            parentSpanId: s.parentSpanId || undefined,
            attributes: attributesOf(s.attributes),
            status: s.status ?? {},
          });
        }
      }
    }
    for (const wake of this.#waiters) wake();
  }
}
