import {
  MAX_BARCODE_LENGTH,
  MAX_VERIFY_BATCH,
  VerifyBatchRequest,
  VerifyRequest,
} from '../../src/contracts/cashdesk.js';
import { bodyNotJson, invalidBody } from '../http-server/refusals.js';

const BOM = 0xfeff;

/** A body parsed as a web `Request.json()` would: UTF-8, invalid bytes replaced, a leading BOM dropped. */
function jsonBody(body: Buffer): unknown {
  let text = body.toString('utf8');
  if (text.charCodeAt(0) === BOM) text = text.slice(1);
  try {
    return JSON.parse(text);
  } catch {
    throw bodyNotJson();
  }
}

/**
 * The barcode of a `POST /v1/barcode/verify` body, `{ "fullBarcode": "<barcode>" }`,
 * validated with the same `VerifyRequest` schema the OpenAPI document shows.
 *
 * @throws HttpProblem 400 `body: must be JSON` when the body does not parse,
 *   400 with one `<field>: <message>` line per schema problem otherwise.
 */
export function fullBarcodeFrom(body: Buffer): string {
  const parsed = jsonBody(body);
  const barcode = onlyBarcode(parsed);
  if (barcode !== undefined) return barcode;
  const result = VerifyRequest.safeParse(parsed);
  if (!result.success) throw invalidBody(result.error);
  return result.data.fullBarcode;
}

/**
 * The common valid verify body, checked by hand before the schema (zod's
 * safeParse was ~2% of the server's CPU per request): says yes only to what
 * the schema accepts unchanged, anything else goes to the schema, which names
 * what is wrong.
 */
function onlyBarcode(parsed: unknown): string | undefined {
  const barcode = soleMember(parsed, 'fullBarcode');
  return typeof barcode === 'string' && barcode.length <= MAX_BARCODE_LENGTH ? barcode : undefined;
}

/**
 * The barcodes of a `POST /v1/barcode/verify-batch` body, `{ "fullBarcodes": ["<barcode>", ...] }`
 * (1 to `MAX_VERIFY_BATCH`), validated with `VerifyBatchRequest`.
 *
 * @throws HttpProblem 400 as {@link fullBarcodeFrom} does; an item's problem is named by its index (`fullBarcodes.3:
 * ...`).
 */
export function fullBarcodesFrom(body: Buffer): readonly string[] {
  const parsed = jsonBody(body);
  const barcodes = onlyBarcodes(parsed);
  if (barcodes !== undefined) return barcodes;
  const result = VerifyBatchRequest.safeParse(parsed);
  if (!result.success) throw invalidBody(result.error);
  return result.data.fullBarcodes;
}

/**
 * The common valid body, checked by hand before the schema (zod walks every
 * item through its checks): says yes only to what the schema accepts unchanged,
 * anything else goes to the schema, which names what is wrong.
 */
function onlyBarcodes(parsed: unknown): readonly string[] | undefined {
  const barcodes = soleMember(parsed, 'fullBarcodes');
  if (!Array.isArray(barcodes) || barcodes.length === 0 || barcodes.length > MAX_VERIFY_BATCH) return undefined;
  for (const barcode of barcodes)
    if (typeof barcode !== 'string' || barcode.length > MAX_BARCODE_LENGTH) return undefined;
  return barcodes as string[];
}

/**
 * The value of `parsed`'s one member when it is an object whose only member is
 * `name`, else undefined (JSON holds no undefined, so nothing real is lost).
 */
function soleMember(parsed: unknown, name: string): unknown {
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  let members = 0;
  for (const key in parsed) {
    if (key !== name) return undefined;
    members++;
  }
  return members === 1 ? (parsed as Record<string, unknown>)[name] : undefined;
}
