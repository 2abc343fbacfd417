import type { z } from '@hono/zod-openapi';
import type { RpcErrorKind, RpcMethodDoc } from './asyncapi-description.js';
import { rpcBridgeAsyncApiDocument } from './asyncapi-document.js';
import { Health, TokenResponse, Verification } from '../../src/contracts/cashdesk.js';
import { SessionUpdate } from '../../src/contracts/cashdesk-payments.js';
import { INTENT_NAMES, intentOf } from '../../src/cashdesk/payments/intents.js';
import { VERSION } from '../../src/version.js';
import {
  INVALID_PARAMS,
  OTHER_KIT_ERROR,
  PAY_ERRORS,
  PROTOCOL_ERRORS,
  REQUEST_DATA_INVALID,
  VERIFY_ERRORS,
} from './asyncapi-errors.js';
import { type BridgeMethodName, type BridgeMethods, paramsSchemas } from './methods.js';
import { DEFAULT_MAX_BATCH } from './options.js';
import type { PayMethodName } from './pay-methods.js';
import { SESSION_UPDATED } from './pay-notifications.js';
import { SUBPROTOCOL } from './upgrade.js';

/** What the document says of a method beside its params; `R`: what the method returns. */
interface MethodDoc<R> {
  summary: string;
  result: z.ZodType<R>;
  errors: readonly RpcErrorKind[];
}

/**
 * What the document says of each method beside its params: a record over the
 * names, so none can be left out, each result schema typed by what the method
 * returns, so a result that changes shape fails to compile until its schema does.
 */
const METHOD_DOCS: { [M in BridgeMethodName]: MethodDoc<BridgeMethods[M]['result']> } = {
  'barcode.verify': {
    summary:
      'Verifies a scanned barcode: the Verification of the HTTP API ' + '(a retry by the same till: `repeated: true`).',
    result: Verification,
    errors: [INVALID_PARAMS, ...VERIFY_ERRORS, OTHER_KIT_ERROR],
  },
  'token.get': {
    summary: 'Signs the JSON text of a Pay API request body; `token` goes in `X-Wallet-Token`.',
    result: TokenResponse,
    errors: [INVALID_PARAMS, REQUEST_DATA_INVALID, OTHER_KIT_ERROR],
  },
  health: { summary: 'Liveness and version of the server.', result: Health, errors: [INVALID_PARAMS] },
  ...payMethodDocs(),
};

/** The errors of a `pay.*` method, with `more` of its own. */
function payErrors(more: readonly RpcErrorKind[] = []): RpcErrorKind[] {
  return [INVALID_PARAMS, ...PAY_ERRORS, ...more, OTHER_KIT_ERROR];
}

/** The `pay.*` methods' docs, from their intents' declarations: a scan's verification adds the verifier's errors. */
function payMethodDocs(): { [M in PayMethodName]: MethodDoc<BridgeMethods[M]['result']> } {
  const docs = INTENT_NAMES.map((name) => {
    const { summary, result, errors } = intentOf(name);
    const own = new Set<string>(errors);
    const verifies = VERIFY_ERRORS.filter((kind) => kind.dataCodes.some((code) => own.has(code)));
    return [`pay.${name}`, { summary, result, errors: payErrors(verifies) }] as const;
  });
  return Object.fromEntries(docs) as unknown as { [M in PayMethodName]: MethodDoc<BridgeMethods[M]['result']> };
}

const DESCRIPTION = [
  "The cash desk server's bridge for tills: JSON-RPC 2.0 over one WebSocket connection, " +
    `subprotocol \`${SUBPROTOCOL}\`.`,
  '',
  `**Connecting.** Offer the subprotocol \`${SUBPROTOCOL}\` (\`Sec-WebSocket-Protocol\`) and give the till key as ` +
    '`Authorization: Bearer <key>`, or as `?key=<key>` where headers cannot be set (browsers: such upgrades are ' +
    'checked against the allowed origins). Refusals are plain HTTP answers to the upgrade: 400 without the ' +
    'subprotocol, 401 without a valid key, 403 an origin not allowed, 429 and 503 with `Retry-After`.',
  '',
  '**Calls.** Text frames holding a request object, or a batch: a JSON array of them, answered by one array. ' +
    'Params are named (a JSON object). A call without `id` is a notification: run, never answered. Answers carry ' +
    'the id exactly as sent: match them by id, never by order.',
  '',
  '**Errors.** `error.code` is the JSON-RPC number; `error.data.code` is the stable code to branch on, and ' +
    "`error.data.requestId` the failure's id in the server's log lines.",
  '',
  `**Notifications.** \`${SESSION_UPDATED}\` tells every phase change and session event of the till's payments; ` +
    "`seq` numbers each payment's events, and a till that reconnects is told the ones it missed.",
].join('\n');

/**
 * The AsyncAPI 3.0 document of the bridge `wallet-pos.v1`, built from the
 * schemas the bridge validates params with and the contracts of its results:
 * `GET /asyncapi.json` of the cash desk server answers it, and the build
 * writes it to openapi/asyncapi.json.
 */
export function cashDeskBridgeAsyncApiDocument(version: string = VERSION): object {
  const params = paramsSchemas();
  const methods: RpcMethodDoc[] = (Object.keys(params) as BridgeMethodName[]).map((method) => ({
    method,
    params: params[method],
    ...METHOD_DOCS[method],
  }));
  return rpcBridgeAsyncApiDocument({
    title: `wallet-partner-kit cash desk bridge (${SUBPROTOCOL})`,
    version,
    description: DESCRIPTION,
    subprotocol: SUBPROTOCOL,
    path: '/ws',
    demoHost: '127.0.0.1:8080',
    maxBatch: DEFAULT_MAX_BATCH,
    methods,
    notifications: [
      {
        method: SESSION_UPDATED,
        summary: "Every phase change and session event of the till's payments.",
        description:
          'Sent from connection on: first the current state of each open payment, then each change. ' +
          "`seq` is the payment's event number (1, 2, ...), stored with it: after a reconnection the till is told " +
          'the events it missed.',
        params: SessionUpdate,
      },
    ],
    protocolErrors: PROTOCOL_ERRORS,
  });
}
