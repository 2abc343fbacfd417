// The verifier's configuration, set once by the host after it has validated
// every field (the host is the boundary; the core trusts what it is given).

import { CONFIG, CONFIG_DELIM, CONFIG_PREFIX, KEY, wipe } from './buffers';
import { CTX_SIZE, hashUpdate, SHA256 } from './hash';
import { cardCacheClear } from './cardcache';
import { hmacBegin, hmacEnd, hmacKey, PADS_SIZE } from './hmac';
import { memoReset } from './memo';

export let algorithm: i32 = SHA256;
export let passLength: i32 = 8;
export let intervalSeconds: u64 = 30;
export let sessionLength: i32 = 8;
export let window: i32 = 1;
export let prefixLength: i32 = 0;
export let delimiterLength: i32 = 0;
export let keyed: bool = false;

/**
 * Password schemes (the README's Barcodes): plain RFC 6238 TOTP of the partner key, or per-card keys with the session
 * in the MAC.
 */
export const SCHEME_RFC6238: i32 = 0;
export const SCHEME_CARD_BOUND: i32 = 1;
export let scheme: i32 = SCHEME_RFC6238;

/** The current key and up to four previous ones (a key rotation) are accepted for verification. */
export const MAX_KEYS: i32 = 5;
/** How many verification keys are absorbed in KEY_PADS (index 0: the current key). */
export let keyCount: i32 = 0;
/** HMAC pads under the configured algorithm of each verification key, PADS_SIZE apart. */
export const KEY_PADS: usize = memory.data(PADS_SIZE * MAX_KEYS, 16);
/** HMAC pads of the current partner key (card key derivation, the stand-alone helpers). */
export const PARTNER_PADS: usize = KEY_PADS;
/** HMAC-SHA256 pads of tokenKey = HMAC-SHA256(partnerKey, "token"). */
export const TOKEN_PADS: usize = memory.data(PADS_SIZE, 16);

const SCRATCH_PADS: usize = memory.data(PADS_SIZE, 16);
const SCRATCH_CTX: usize = memory.data(<i32>CTX_SIZE, 16);
const TOKEN_KEY: usize = memory.data(32, 16);
const TOKEN_LABEL: usize = memory.data<u8>([0x74, 0x6f, 0x6b, 0x65, 0x6e]); // "token"

export const PREFIX: usize = CONFIG + CONFIG_PREFIX;
export const DELIMITER: usize = CONFIG + CONFIG_DELIM;

/** Sets the barcode layout and OTP parameters; prefix and delimiter bytes are already in CONFIG. */
export function configure(
  alg: i32, digits: i32, interval: u32, sessionLen: i32, win: i32, prefixLen: i32, delimLen: i32, schemeId: i32,
): void {
  scheme = schemeId;
  algorithm = alg;
  passLength = digits;
  intervalSeconds = <u64>interval;
  sessionLength = sessionLen;
  window = win;
  memoReset();
  prefixLength = prefixLen;
  delimiterLength = delimLen;
}

/**
 * Absorbs the partner key (raw bytes in KEY) into the card-derivation pads and
 * derives the token key, then wipes every copy of the raw key.
 */
export function setPartnerKey(keyLen: i32): void {
  hmacKey(algorithm, PARTNER_PADS, KEY, keyLen);
  hmacKey(SHA256, SCRATCH_PADS, KEY, keyLen);
  hmacBegin(SCRATCH_CTX, SHA256, SCRATCH_PADS);
  hashUpdate(SCRATCH_CTX, SHA256, TOKEN_LABEL, 5);
  hmacEnd(SCRATCH_CTX, SHA256, SCRATCH_PADS, TOKEN_KEY);
  hmacKey(SHA256, TOKEN_PADS, TOKEN_KEY, 32);
  wipe(KEY, keyLen);
  wipe(TOKEN_KEY, 32);
  wipe(SCRATCH_PADS, PADS_SIZE);
  wipe(SCRATCH_CTX, <i32>CTX_SIZE);
  keyCount = 1;
  keyed = true;
  memoReset();
  cardCacheClear();
}

/**
 * Absorbs a previous partner key (raw bytes in KEY), accepted for verification
 * only, never for tokens; wipes the raw key. Returns its index, or -1 when
 * MAX_KEYS are absorbed already. Call after `setPartnerKey`.
 */
export function addPreviousKey(keyLen: i32): i32 {
  if (keyCount < 1 || keyCount >= MAX_KEYS) {
    wipe(KEY, keyLen);
    return -1;
  }
  hmacKey(algorithm, KEY_PADS + <usize>(keyCount * PADS_SIZE), KEY, keyLen);
  wipe(KEY, keyLen);
  memoReset();
  return keyCount++;
}
