import { TokenRequest } from '../../src/contracts/cashdesk.js';
import { invalidBody, requestDataInvalid } from '../http-server/refusals.js';

// fatal: bytes that are not UTF-8 cannot be signed as the text the till sent.
// ignoreBOM: a BOM is kept (so the core refuses it) rather than silently dropped from what is signed.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

// Only an object can be the { requestData } form; skip the parse for anything else.
const STARTS_AS_OBJECT = /^[\t\n\r ]*\{/;

/**
 * The text `POST /v1/token` signs, from the raw body bytes. The body is either
 * the Pay API request body itself, signed byte for byte as received (never
 * re-serialised, so the signature matches what the till sends on), or
 * `{ "requestData": "<json text>" }` (an object whose only key is `requestData`),
 * whose string is signed.
 *
 * @throws HttpProblem 400 REQUEST_DATA_INVALID for bytes that are not UTF-8,
 *   400 BAD_REQUEST when `requestData` is not a string. Text that is not JSON
 *   is left to the core, which names the byte offset.
 */
export function requestDataFrom(bytes: Uint8Array): string {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw requestDataInvalid('not UTF-8');
  }
  return wrappedRequestData(text) ?? text;
}

function wrappedRequestData(text: string): string | undefined {
  if (!STARTS_AS_OBJECT.test(text)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined; // not JSON: signed as is, so the core refuses it with the offset
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
  const keys = Object.keys(parsed);
  if (keys.length !== 1 || keys[0] !== 'requestData') return undefined;
  // The wrapper with a non-string value is refused rather than signed as a body:
  // no Pay API body has requestData as its only field, so the caller meant the wrapper.
  const result = TokenRequest.safeParse(parsed);
  if (!result.success) throw invalidBody(result.error);
  return result.data.requestData;
}
