// The connecting parts of a bridge's AsyncAPI document: its server, security schemes and the upgrade request.
import type { RpcBridgeDescription } from './asyncapi-description.js';

/** The parts of the document about connecting: server, security, the upgrade's headers and query. */
export function connection(d: RpcBridgeDescription) {
  const securitySchemes = {
    tillKey: {
      type: 'http',
      scheme: 'bearer',
      description: "The till's key: `Authorization: Bearer <key>` on the upgrade request.",
    },
    tillTicket: {
      type: 'httpApiKey',
      in: 'query',
      name: 'ticket',
      description:
        'A one-use ticket from `POST /v1/tickets` (30 s, that till only, the issuing instance) as `?ticket=`, for ' +
        'clients that cannot set headers (browsers): the key stays out of URLs. Such upgrades are checked against ' +
        'the allowed origins; a wrong, expired or spent ticket counts as a wrong key.',
    },
    tillKeyQuery: {
      type: 'httpApiKey',
      in: 'query',
      name: 'key',
      description:
        "Deprecated: the till's key as `?key=` (it lands in proxies' access logs); use `tillTicket`. " +
        'Such upgrades are checked against the allowed origins.',
    },
  };
  const server = {
    host: d.demoHost,
    protocol: 'ws',
    title: 'demo',
    description:
      'The cash desk server as `npm start` runs it; ' + 'point tills at the real server (`wss` behind TLS) instead.',
    security: ['tillKey', 'tillTicket', 'tillKeyQuery'].map((scheme) => ({
      $ref: `#/components/securitySchemes/${scheme}`,
    })),
  };
  const escaped = d.subprotocol.replace(/\./g, '\\.');
  const protocol = {
    type: 'string',
    pattern: `(^|,\\s*)${escaped}(\\s*,|$)`,
    description:
      `The subprotocol \`${d.subprotocol}\` must be offered; the server selects it. ` + 'Without it: HTTP 400.',
  };
  const authorization = {
    type: 'string',
    pattern: '^Bearer .+$',
    description: "`Bearer <till key>`: the till's key (or `?key=`).",
  };
  const key = { type: 'string', description: "Deprecated: the till's key; use `ticket`." };
  const ticket = { type: 'string', description: 'A one-use ticket from `POST /v1/tickets`.' };
  // The WebSockets binding describes the upgrade request: the one place the subprotocol and the key are given.
  const upgrade = {
    method: 'GET',
    headers: {
      type: 'object',
      required: ['Sec-WebSocket-Protocol'],
      properties: { 'Sec-WebSocket-Protocol': protocol, Authorization: authorization },
    },
    query: { type: 'object', properties: { ticket, key } },
    bindingVersion: '0.1.0',
  };
  return { securitySchemes, server, upgrade };
}
