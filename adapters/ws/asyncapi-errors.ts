import { z } from '@hono/zod-openapi';
import type { RpcErrorKind } from './asyncapi-description.js';
import type { PaymentsErrorCode } from '../../src/cashdesk/payments/errors.js';
import type { PayClientErrorCode, PaymentSessionErrorCode } from '../../src/pay/errors.js';
import { KIT_ERROR_RPC_CODES, PAYMENT_RPC_CODES } from './errors.js';
import { JsonRpcErrorCode } from './jsonrpc.js';
import { bridgeCodesOf } from './protocol-errors.js';

/**
 * The bridge's error kinds, for its AsyncAPI document: the JSON-RPC codes are
 * the ones the bridge answers with (jsonrpc.ts, errors.ts), and each list of
 * `data.code` values is a record over its code union, so a code added to the
 * union and not here fails to compile.
 */

/** Renders a code list as CommonMark: one "- `CODE`: when" line each. */
function listed(intro: string, codes: Readonly<Record<string, string>>): string {
  return [intro, '', ...Object.entries(codes).map(([code, when]) => `- \`${code}\`: ${when}`)].join('\n');
}

function kind(name: string, rpcCode: number, intro: string, codes: Readonly<Record<string, string>>): RpcErrorKind {
  return { name, rpcCode, dataCodes: Object.keys(codes), description: listed(intro, codes) };
}

const PAY_CODES: Record<PayClientErrorCode, string> = {
  TOKEN_INVALID: "the Pay service refused the server's token",
  BAD_REQUEST: 'the Pay service (or the client before sending) refused the request',
  NOT_FOUND: 'the Pay service does not know the transaction',
  CARD_SESSION_INVALID: 'the card session is no longer valid: scan the card again',
  IDEMPOTENCY_CONFLICT: 'the Pay service holds a different request under the same id',
  INVALID_STATE: 'the transaction is not in a state that allows this',
  AMOUNT_MISMATCH: 'the amounts do not add up',
  PAY_NETWORK: 'the Pay service did not answer (refused, reset, dropped): retry',
  PAY_TIMEOUT: 'the Pay service did not answer in time: retry',
  PAY_SERVER: 'the Pay service failed (5xx): retry',
  PAY_PROTOCOL: 'the Pay service answered something the server cannot read',
  PAY_UNSUPPORTED: 'the configured Pay API profile has no such operation: nothing was sent',
  PAY_REFUSED: 'the Pay service refused with a code the configured dialect does not map: nothing is retried',
  TOKEN_SIGNER_FAILED: "the server's token signer (pay.token) failed: nothing was sent, the card can still pay",
};

const SESSION_CODES: Record<PaymentSessionErrorCode, string> = {
  SESSION_STATE: "not allowed in the payment's phase",
  SESSION_BUSY: 'another operation of this payment is running',
  SESSION_OVER: 'the payment is over (refunded, blocked or abandoned): a rescan starts anew',
  RESCAN_FAILED: 'the till gave no new card session',
  OUTCOME_UNKNOWN: 'no answer even after recovery: the payment goes on, follow it',
  ALREADY_PAID: 'the payment succeeded before it could be cancelled: refund it',
  UNKNOWN_TRANSACTION: "the transaction named is none of this payment's",
};

const PAYMENTS_CODES: Record<PaymentsErrorCode, string> = {
  PAY_NOT_CONFIGURED: 'this server has no Pay API configured',
  PAYMENT_NOT_FOUND: 'no such payment for this till',
  BARCODE_REFUSED: "the scan is not a valid barcode with a card session (or another card's)",
  NO_RESCAN_PENDING: 'the payment is not waiting for a rescan',
  PAYMENT_BUSY: 'another server instance drives the payment and did not hand it over in time: retry',
  PAYMENT_MOVED: 'another server instance took the payment over meanwhile: retry, it is carried on there',
  PAYMENTS_CLOSED: 'the server is stopping',
};

const rpc = (code: keyof typeof KIT_ERROR_RPC_CODES): number => KIT_ERROR_RPC_CODES[code]!;

/** Every call: params the method's schema refuses. */
export const INVALID_PARAMS = kind(
  'InvalidParams',
  JsonRpcErrorCode.InvalidParams,
  'Params refused; `data.errors` lists `<field>: <message>`.',
  bridgeCodesOf(JsonRpcErrorCode.InvalidParams),
);

/** A kit error without a number of its own. */
export const OTHER_KIT_ERROR: RpcErrorKind = {
  name: 'KitError',
  rpcCode: JsonRpcErrorCode.ServerError,
  dataCodes: [],
  description: 'Any other kit error; `data.code` names it.',
};

/** Verifications: the replay store and the verifier. */
export const VERIFY_ERRORS: RpcErrorKind[] = [
  kind('StoreUnavailable', rpc('STORE_UNAVAILABLE'), 'The shared replay store failed.', {
    STORE_UNAVAILABLE: 'the barcode was neither accepted nor refused: retry',
  }),
  kind('VerifierClosed', rpc('VERIFIER_CLOSED'), 'The server is stopping.', {
    VERIFIER_CLOSED: 'the verifier is closed',
  }),
];

/** `token.get` on text that is not JSON. */
export const REQUEST_DATA_INVALID = kind(
  'RequestDataInvalid',
  rpc('REQUEST_DATA_INVALID'),
  '`requestData` is not JSON text.',
  { REQUEST_DATA_INVALID: 'the message says where the text stops being JSON' },
);

/** Every `pay.*` call: the database, and the three families of refusal. */
export const PAY_ERRORS: RpcErrorKind[] = [
  {
    ...kind('DatabaseUnavailable', rpc('DATABASE_UNAVAILABLE'), "The payments' database does not answer.", {
      DATABASE_UNAVAILABLE: 'send the same call again after `data.retryAfterMs`',
    }),
    data: {
      retryAfterMs: z.number().int().openapi({ description: 'How long to wait before the same call again, in ms.' }),
    },
  },
  kind('PayApiRefused', PAYMENT_RPC_CODES.pay, 'The Pay API refused, or gave no usable answer.', PAY_CODES),
  kind(
    'PaymentSessionRefused',
    PAYMENT_RPC_CODES.session,
    "Not allowed in the payment's phase, or no answer even after recovery.",
    SESSION_CODES,
  ),
  kind('PaymentsRefused', PAYMENT_RPC_CODES.payments, 'The cash desk server refused.', PAYMENTS_CODES),
];

/** Errors of a frame, or of any call whatever its method. */
export const PROTOCOL_ERRORS: RpcErrorKind[] = [
  kind(
    'ParseError',
    JsonRpcErrorCode.ParseError,
    'The frame is not JSON; `id` is null.',
    bridgeCodesOf(JsonRpcErrorCode.ParseError),
  ),
  kind(
    'InvalidRequest',
    JsonRpcErrorCode.InvalidRequest,
    'Not a request; `data.errors` says why.',
    bridgeCodesOf(JsonRpcErrorCode.InvalidRequest),
  ),
  kind(
    'MethodNotFound',
    JsonRpcErrorCode.MethodNotFound,
    'No such method.',
    bridgeCodesOf(JsonRpcErrorCode.MethodNotFound),
  ),
  kind('InternalError', JsonRpcErrorCode.InternalError, 'A bug on the server: logged, nothing about it is sent.', {
    INTERNAL: 'an unexpected failure; quote `data.requestId` when reporting it',
  }),
];
