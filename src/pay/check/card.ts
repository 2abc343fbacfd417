import type { BarcodeVerification } from '../../contracts/barcode.js';
import { ConfigError } from '../../errors.js';

/** Something that splits and checks a barcode: the kit's verifier fits. */
export interface BarcodeSplitter {
  barcodeVerify(fullBarcode: string): BarcodeVerification | Promise<BarcodeVerification>;
}

const WHY: Record<string, string> = {
  PREFIX_MISMATCH: 'its prefix is not the configured one',
  MALFORMED: 'it does not have the configured layout (prefix, delimiter, lengths)',
  CODE_MISMATCH:
    'its password does not match the key now: another key or scheme, or drawn too long ago (scan a fresh one)',
  REPLAYED: 'it was used before',
  LOCKED: 'the card is locked after too many wrong passwords',
};

/**
 * The card session of a scanned barcode, split and checked by the kit's
 * verifier (the partner key and layout it was created with). Throws
 * ConfigError naming why when the barcode gives none.
 */
export async function cardSessionOfBarcode(verifier: BarcodeSplitter, barcode: string): Promise<string> {
  const result = await verifier.barcodeVerify(barcode);
  if (result.cardSession !== null) return result.cardSession;
  const why =
    result.resultCode === 'CARDSESSION_NOT_AVAILABLE'
      ? 'it carries no card session (wallet payment is off for this card)'
      : (WHY[result.reason] ?? result.reason);
  throw new ConfigError([`barcode: no card session: ${why}`], 'pay check arguments');
}

/** Options of {@link sandboxCardSession}. */
export interface SandboxCardOptions {
  /** The sandbox partner to issue the card for. Default: the sandbox's only partner. */
  partnerId?: string;
  fetch?: typeof fetch;
  /** Per request. Default 10 000 ms. */
  timeoutMs?: number;
}

/**
 * When `baseUrl` is the kit's sandbox (its GET /openapi.json lists
 * `/sandbox/cards`), has its wallet-app simulator issue a card with a card
 * session, as `POST /sandbox/cards` does for a person. Undefined when the URL
 * is not a kit sandbox; nothing is sent to it but that GET. Throws ConfigError
 * when the sandbox refuses to issue one.
 */
export async function sandboxCardSession(
  baseUrl: string,
  options: SandboxCardOptions = {},
): Promise<{ cardNumber: string; cardSession: string } | undefined> {
  const doFetch = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const root = baseUrl.replace(/\/+$/, '');
  let paths: unknown;
  try {
    const res = await doFetch(`${root}/openapi.json`, { signal: AbortSignal.timeout(timeoutMs) });
    paths = res.ok ? ((await res.json()) as { paths?: unknown }).paths : undefined;
  } catch {
    return undefined;
  }
  if (typeof paths !== 'object' || paths === null || !Object.hasOwn(paths, '/sandbox/cards')) return undefined;
  const res = await doFetch(`${root}/sandbox/cards`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    signal: AbortSignal.timeout(timeoutMs),
    body: JSON.stringify(options.partnerId === undefined ? {} : { partnerId: options.partnerId }),
  });
  const text = await res.text();
  let card: { cardNumber?: unknown; cardSession?: unknown; errors?: unknown } | undefined;
  try {
    card = JSON.parse(text) as typeof card;
  } catch {
    card = undefined;
  }
  if (res.ok && typeof card?.cardSession === 'string' && typeof card.cardNumber === 'string') {
    return { cardNumber: card.cardNumber, cardSession: card.cardSession };
  }
  const errors = Array.isArray(card?.errors)
    ? card.errors.filter((e): e is string => typeof e === 'string').join('; ')
    : text.slice(0, 200);
  throw new ConfigError(
    [`card session: the sandbox issued no card (POST /sandbox/cards: ${res.status}${errors ? ` ${errors}` : ''})`],
    'pay check arguments',
  );
}
