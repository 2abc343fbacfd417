/**
 * The fiscal receipt QR string the wallet app scans off a cash receipt, e.g.
 * `t=20240315T1425&s=1020.00&fn=9289000100242345&i=12345&fp=3826350066&n=1`.
 * Parts may come in any order; parts other than these six are ignored (some
 * cash registers add their own). Each bad part gets its own message, starting
 * with the part's name, so `qrCode: fn must be ...` says exactly what to fix.
 */

/** Operation type `n`: 1 income (a purchase), 2 income return, 3 expense, 4 expense return. */
export type ReceiptOperationType = 1 | 2 | 3 | 4;

/** A parsed receipt QR string. */
export interface FiscalReceipt {
  /** `t`: the receipt's local time as printed, `YYYY-MM-DDTHH:mm:ss` (no zone: the register's clock). */
  time: string;
  /** `s`: the total, in kopecks. */
  sum: number;
  /** `fn`: the 16-digit fiscal drive number. */
  fiscalDriveNumber: string;
  /** `i`: the fiscal document number. */
  documentNumber: number;
  /** `fp`: the fiscal sign, digits without leading zeros. */
  fiscalSign: string;
  /** `n`: the operation type. */
  operationType: ReceiptOperationType;
}

/** Longest QR string accepted. */
export const MAX_RECEIPT_QR_LENGTH = 512;

const PARTS = ['t', 's', 'fn', 'i', 'fp', 'n'] as const;
type Part = (typeof PARTS)[number];

const MESSAGES: Record<Part, string> = {
  t: 't must be the receipt time as yyyyMMddTHHmm or yyyyMMddTHHmmss, e.g. 20240315T1425',
  s: 's must be the sum in roubles with two decimals, e.g. 1020.00',
  fn: 'fn must be the 16-digit fiscal drive number',
  i: 'i must be the fiscal document number, 1 to 10 digits, not 0',
  fp: 'fp must be the fiscal sign, 1 to 10 digits',
  n: 'n must be the operation type 1 to 4 (1 income, 2 income return, 3 expense, 4 expense return)',
};

/** Parsed, or the list of problems (each without the `qrCode: ` field prefix). */
export type ReceiptQrParse = { ok: true; receipt: FiscalReceipt } | { ok: false; problems: string[] };

function parseTime(value: string): string | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})?$/.exec(value);
  if (!m) return undefined;
  const [y, mo, d, h, mi, s = '00'] = m.slice(1) as [string, string, string, string, string, string | undefined];
  const date = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)));
  // Date.UTC rolls 31 February over into March; a real calendar time survives the round trip.
  if (
    Number(y) < 2000 ||
    date.getUTCMonth() !== Number(mo) - 1 ||
    date.getUTCDate() !== Number(d) ||
    date.getUTCHours() !== Number(h) ||
    date.getUTCMinutes() !== Number(mi) ||
    date.getUTCSeconds() !== Number(s)
  )
    return undefined;
  return `${y}-${mo}-${d}T${h}:${mi}:${s}`;
}

/**
 * Parses and validates a fiscal receipt QR string. Never throws.
 *
 * @example
 * parseReceiptQr('t=20240315T1425&s=1020.00&fn=9289000100242345&i=12345&fp=3826350066&n=1')
 * // { ok: true, receipt: { time: '2024-03-15T14:25:00', sum: 102000, fiscalDriveNumber: '9289000100242345', ... } }
 */
export function parseReceiptQr(text: string): ReceiptQrParse {
  if (text.length === 0) return { ok: false, problems: ['must not be empty'] };
  if (text.length > MAX_RECEIPT_QR_LENGTH)
    return { ok: false, problems: [`must be at most ${MAX_RECEIPT_QR_LENGTH} characters`] };
  const values = new Map<Part, string>();
  const problems: string[] = [];
  for (const piece of text.split('&')) {
    const eq = piece.indexOf('=');
    if (eq <= 0) {
      problems.push('must be key=value parts joined by &, e.g. t=20240315T1425&s=1020.00&fn=...&i=...&fp=...&n=1');
      return { ok: false, problems };
    }
    const key = piece.slice(0, eq);
    if (!(PARTS as readonly string[]).includes(key)) continue;
    if (values.has(key as Part)) problems.push(`${key} must appear once`);
    else values.set(key as Part, piece.slice(eq + 1));
  }
  for (const part of PARTS)
    if (!values.has(part) && !problems.includes(`${part} must appear once`)) problems.push(`${part} is missing`);

  const raw = (part: Part) => values.get(part);
  const bad = (part: Part) => problems.push(MESSAGES[part]);
  let time: string | undefined;
  let sum: number | undefined;
  let documentNumber: number | undefined;
  let operationType: ReceiptOperationType | undefined;
  const t = raw('t');
  if (t !== undefined) {
    time = parseTime(t);
    if (time === undefined) bad('t');
  }
  const s = raw('s');
  if (s !== undefined) {
    const m = /^(\d{1,10})\.(\d{2})$/.exec(s);
    if (m) sum = Number(m[1]) * 100 + Number(m[2]);
    else bad('s');
  }
  const fn = raw('fn');
  if (fn !== undefined && !/^\d{16}$/.test(fn)) bad('fn');
  const i = raw('i');
  if (i !== undefined) {
    if (/^\d{1,10}$/.test(i) && Number(i) > 0) documentNumber = Number(i);
    else bad('i');
  }
  const fp = raw('fp');
  if (fp !== undefined && !/^\d{1,10}$/.test(fp)) bad('fp');
  const n = raw('n');
  if (n !== undefined) {
    if (/^[1-4]$/.test(n)) operationType = Number(n) as ReceiptOperationType;
    else bad('n');
  }
  if (problems.length > 0) return { ok: false, problems };
  return {
    ok: true,
    receipt: {
      time: time!,
      sum: sum!,
      fiscalDriveNumber: fn!,
      documentNumber: documentNumber!,
      fiscalSign: String(Number(fp)),
      operationType: operationType!,
    },
  };
}

function two(n: number): string {
  return String(n).padStart(2, '0');
}

/**
 * Writes a receipt as its QR string (the inverse of {@link parseReceiptQr}),
 * e.g. for a simulator or a conformance check that "scans" a receipt.
 *
 * @example
 * formatReceiptQr({ time: '2024-03-15T14:25:00', sum: 102000, fiscalDriveNumber: '9289000100242345',
 *   documentNumber: 12345, fiscalSign: '3826350066', operationType: 1 })
 * // 't=20240315T142500&s=1020.00&fn=9289000100242345&i=12345&fp=3826350066&n=1'
 */
export function formatReceiptQr(receipt: FiscalReceipt): string {
  const t = receipt.time.replace(/[-:]/g, '');
  const s = `${Math.floor(receipt.sum / 100)}.${two(receipt.sum % 100)}`;
  const fiscal = `fn=${receipt.fiscalDriveNumber}&i=${receipt.documentNumber}&fp=${receipt.fiscalSign}`;
  return `t=${t}&s=${s}&${fiscal}&n=${receipt.operationType}`;
}

/** `YYYY-MM-DDTHH:mm:ss` of a moment in UTC, the form of {@link FiscalReceipt.time}. */
export function receiptTimeOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19);
}
