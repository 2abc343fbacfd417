import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { errorEnvelope } from '../../src/contracts/errors.js';
import { type ErrorCode, httpStatusOf } from '../../src/errors/codes.js';

/** The refusal of each failure Node's HTTP server reports as `clientError`, by the error's code. */
function refusalFor(code: string | undefined): { code: ErrorCode; message: string } {
  switch (code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { code: 'REQUEST_TIMEOUT', message: 'request: not received in time' };
    case 'HPE_HEADER_OVERFLOW':
      return { code: 'REQUEST_HEADER_FIELDS_TOO_LARGE', message: 'headers: larger than the server accepts' };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { code: 'PAYLOAD_TOO_LARGE', message: 'body: chunk extensions larger than the server accepts' };
    default:
      // The parser's code (HPE_INVALID_HEADER_TOKEN, HPE_UNEXPECTED_CONTENT_LENGTH...) says what was wrong, never what
      // was sent.
      return {
        code: 'BAD_REQUEST',
        message: `request: not valid HTTP/1.1${code?.startsWith('HPE_') ? ` (${code})` : ''}`,
      };
  }
}

/** How long a refused client may take to read its refusal before the socket is dropped. */
const FLUSH_MS = 1_000;

/**
 * The `clientError` listener of every server of the kit (`serveHttp`): what
 * Node's HTTP server answers by itself (a head it cannot parse: a NUL or other
 * control byte in a header or the path, conflicting Content-Length, Content-Length
 * with Transfer-Encoding; a head too large; a request not received in time) is
 * answered, as every other refusal, in the error envelope `{ status, errors,
 * requestId }` with `X-Request-Id` and `Connection: close`, instead of Node's
 * bare status line. Under the same condition as Node's own answer: only while
 * no answer to the socket's current request has begun; a reset socket is just dropped.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } | null })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent === true) {
    socket.destroy();
    return;
  }
  const { code, message } = refusalFor(error.code);
  const status = httpStatusOf(code);
  const requestId = randomUUID();
  const body = JSON.stringify(errorEnvelope(code, [message], requestId));
  socket.on('error', () => socket.destroy());
  socket.once('finish', () => socket.destroy());
  // A peer that never reads would otherwise keep the socket; the answer is tiny.
  setTimeout(() => socket.destroy(), FLUSH_MS).unref();
  // Header names in lower case, as the kit's other answers write them (reply.ts).
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nconnection: close\r\ncontent-type: application/json\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\nx-request-id: ${requestId}\r\n\r\n${body}`,
  );
}
