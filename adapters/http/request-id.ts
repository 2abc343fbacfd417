import type { IncomingMessage } from 'node:http';
import { requestIdFrom } from '../../src/log/request-id.js';

const ID = Symbol('wpk.requestId');

/**
 * The id of a request to the cash desk server: its sane `X-Request-Id`, else
 * a new UUID, made once per request and kept on the Node request, so the
 * answer's header, its refusal's `requestId` and its log lines agree.
 */
export function requestIdOf(incoming: IncomingMessage): string {
  const held = incoming as IncomingMessage & { [ID]?: string };
  held[ID] ??= requestIdFrom(incoming.headers['x-request-id']);
  return held[ID];
}
