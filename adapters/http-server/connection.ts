import type { IncomingHttpHeaders } from 'node:http';

/**
 * True when a request declares a body (chunked, or a non-zero Content-Length).
 *
 * Every refusal of such a request is sent with `Connection: close` (see
 * `writeProblem`, reply.ts). A refusal may come before the body is read (401, 413, 415,
 * 404), and the Node adapter then drains it only briefly before dropping the
 * socket; a keep-alive client would reuse that socket and see its next request
 * fail. Closing says so up front, and costs the till only a reconnect after an error.
 */
export function carriesBody(headers: IncomingHttpHeaders): boolean {
  const length = headers['content-length'];
  return headers['transfer-encoding'] !== undefined || (length !== undefined && length.trim() !== '0');
}
