import { VerifyRequest } from '../../src/contracts/cashdesk.js';
import { bodyNotJson, invalidBody } from './problems.js';

const BOM = 0xfeff;

/**
 * The barcode of a `POST /v1/barcode/verify` body, `{ "fullBarcode": "<barcode>" }`,
 * validated with the same `VerifyRequest` schema the OpenAPI document shows.
 * Decoded as a web `Request.json()` would: UTF-8, invalid bytes replaced, a leading BOM dropped.
 *
 * @throws HttpProblem 400 `body: must be JSON` when the body does not parse,
 *   400 with one `<field>: <message>` line per schema problem otherwise.
 */
export function fullBarcodeFrom(body: Buffer): string {
  let text = body.toString('utf8');
  if (text.charCodeAt(0) === BOM) text = text.slice(1);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw bodyNotJson();
  }
  const result = VerifyRequest.safeParse(parsed);
  if (!result.success) throw invalidBody(result.error);
  return result.data.fullBarcode;
}
