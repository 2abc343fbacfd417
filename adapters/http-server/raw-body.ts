import type { IncomingMessage } from 'node:http';
import { KitError } from '../../src/errors.js';
import { payloadTooLarge } from './refusals.js';

/**
 * The client went away before its body ended (closed the socket, or reset it):
 * nobody is left to answer, and it is no fault of the server's.
 */
export class ClientAborted extends KitError {
  declare readonly code: 'CLIENT_CLOSED_REQUEST';

  constructor() {
    super('CLIENT_CLOSED_REQUEST', 'request closed before its body ended');
  }
}

/** Where {@link readRawBody} delivers the body: exactly one of the two is called, once. */
export interface BodySink {
  bodyRead(body: Buffer): void;
  bodyFailed(error: unknown): void;
}

/** One body being read, kept on the request so the listeners below need no per-request closures. */
interface Reading {
  sink: BodySink;
  chunks: Buffer[];
  size: number;
  limitBytes: number;
}

const READING = Symbol('reading');
type ReadRequest = IncomingMessage & { [READING]?: Reading | undefined };
const EMPTY = Buffer.alloc(0);

// The listeners stay on the request once it is settled (removing three costs more than
// leaving them): a later event finds no reading and does nothing. After a refusal the
// rest of the body is thus read to nowhere until the refusal's Connection: close ends
// the socket; the node-server adapter caps that drain.
function finish(request: ReadRequest): Reading | undefined {
  const reading = request[READING];
  request[READING] = undefined;
  return reading;
}

// Module-level listeners, called with the request as `this`: nothing to build per
// request (closures cost, and more so under tsx, which names each one).
function onData(this: ReadRequest, chunk: Buffer): void {
  const reading = this[READING];
  if (reading === undefined) return;
  reading.size += chunk.length;
  if (reading.size <= reading.limitBytes) reading.chunks.push(chunk);
  else finish(this)!.sink.bodyFailed(payloadTooLarge(reading.limitBytes));
}

function onEnd(this: ReadRequest): void {
  const reading = finish(this);
  if (reading === undefined) return;
  const { sink, chunks, size } = reading;
  sink.bodyRead(chunks.length === 1 ? chunks[0]! : chunks.length === 0 ? EMPTY : Buffer.concat(chunks, size));
}

// 'close' before 'end' means the client went away mid-body (closed or reset its socket). No 'error' listener:
// a request emits 'error' only when one is listening (IncomingMessage#_destroy), and 'close' follows either way.
function onClose(this: ReadRequest): void {
  finish(this)?.sink.bodyFailed(new ClientAborted());
}

/**
 * Reads a request body whole from the Node request (not through a web
 * `ReadableStream`, which costs more than the verification it feeds) and
 * hands it to `sink`. The limit is enforced as the bytes arrive, so a chunked
 * body without Content-Length is refused as soon as it passes `limitBytes`,
 * never buffered whole.
 *
 * `sink.bodyFailed` gets an HttpProblem 413 once the body passes `limitBytes`,
 * or {@link ClientAborted} when the client goes away mid-body.
 * A callback rather than a promise: this is the hot path, and each promise
 * hop showed in its profile.
 */
export function readRawBody(incoming: IncomingMessage, limitBytes: number, sink: BodySink): void {
  if (incoming.destroyed) {
    sink.bodyFailed(new ClientAborted());
    return;
  }
  (incoming as ReadRequest)[READING] = { sink, chunks: [], size: 0, limitBytes };
  incoming.on('data', onData).on('end', onEnd).on('close', onClose);
}
