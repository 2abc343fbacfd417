// What a JSON-RPC bridge's AsyncAPI document is built from: its methods, notifications and error kinds.
import type { z } from 'zod';

/** One kind of JSON-RPC error: a fixed `error.code`, and the `error.data.code` values it carries. */
export interface RpcErrorKind {
  /** Its schema's name in `components.schemas`. */
  name: string;
  /** The JSON-RPC `error.code`. */
  rpcCode: number;
  /** The `error.data.code` values; empty: any code (one the document does not list). */
  dataCodes: readonly string[];
  /** When it is sent (CommonMark). */
  description: string;
  /** Members of `error.data` beside `code`, `errors` and `requestId`. */
  data?: Readonly<Record<string, z.ZodType>>;
}

/** One method a till calls. */
export interface RpcMethodDoc {
  method: string;
  summary: string;
  /** The schema the bridge checks params with. */
  params: z.ZodType;
  /** The schema of `result`. */
  result: z.ZodType;
  /** The errors of this method, beside the protocol errors any call can get. */
  errors: readonly RpcErrorKind[];
}

/** One notification the server sends (no id, never answered). */
export interface RpcNotificationDoc {
  method: string;
  summary: string;
  description: string;
  params: z.ZodType;
}

/** What the document says; everything else is JSON-RPC 2.0 and WebSocket. */
export interface RpcBridgeDescription {
  title: string;
  version: string;
  /** CommonMark, first in `info.description`. */
  description: string;
  subprotocol: string;
  /** The upgrade path, e.g. `/ws`. */
  path: string;
  /** `host:port` of the demo server. */
  demoHost: string;
  /** Most calls in one batch array (the default; a server may be configured otherwise). */
  maxBatch: number;
  methods: readonly RpcMethodDoc[];
  notifications: readonly RpcNotificationDoc[];
  /** Errors of a frame or of any call: not JSON, not a request, no such method, a bug. */
  protocolErrors: readonly RpcErrorKind[];
}
