// Static linear-memory layout. Nothing in the core allocates: every buffer is
// reserved here once, and the JS side builds its typed-array views over these
// addresses a single time at instantiation.

/** Capacity of the barcode input buffer; longer input is reported as truncated. */
export const BARCODE_CAP: i32 = 1024;
/** Capacity of the general I/O buffer (message chunks, session bytes, card numbers). */
export const IO_CAP: i32 = 65536;
/** Capacity of the key input buffer (raw key bytes, wiped after use). */
export const KEY_CAP: i32 = 1024;
/** Capacity of the output buffer (digests, digits, tokens). */
export const OUT_CAP: i32 = 1024;
/** Capacity of the configuration buffer (prefix, delimiter, token header tail). */
export const CONFIG_CAP: i32 = 512;
/** Size of the random pool the host refills for token ids. */
export const RANDOM_CAP: i32 = 4096;

export const BARCODE: usize = memory.data(BARCODE_CAP, 16);
export const IO: usize = memory.data(IO_CAP, 16);
export const KEY: usize = memory.data(KEY_CAP, 16);
export const OUT: usize = memory.data(OUT_CAP, 16);
export const CONFIG: usize = memory.data(CONFIG_CAP, 16);
export const RANDOM: usize = memory.data(RANDOM_CAP, 16);
/** Verification details for the host: i32 slots, see `Slot`. */
export const RESULT: usize = memory.data(64, 16);

// Offsets inside CONFIG.
export const CONFIG_PREFIX: usize = 0; // up to 64 bytes
export const CONFIG_DELIM: usize = 64; // up to 16 bytes
export const CONFIG_KID: usize = 128; // header tail: `,"kid":"..."` up to 256 bytes

/** Slots of RESULT (i32 each). */
export const SLOT_CARD_OFFSET: i32 = 0;
export const SLOT_CARD_LENGTH: i32 = 1;
export const SLOT_SESSION_OFFSET: i32 = 2;
export const SLOT_SESSION_LENGTH: i32 = 3;
export const SLOT_PASSWORD_OFFSET: i32 = 4;
export const SLOT_MATCHED_DELTA: i32 = 5;
export const SLOT_COUNTER_LO: i32 = 6;
export const SLOT_COUNTER_HI: i32 = 7;
/** Which verification key matched: 0 the current one, 1.. the previous ones in order. */
export const SLOT_KEY_INDEX: i32 = 8;

/** Overwrites `len` bytes at `ptr` with zeros (key hygiene). */
export function wipe(ptr: usize, len: i32): void {
  memory.fill(ptr, 0, <usize>len);
}

/** Barcodes a batch call takes (each fits IO, in a BARCODE_CAP slot of its own if need be). */
export const BATCH_MAX: i32 = IO_CAP / BARCODE_CAP;
/**
 * Per barcode of a batch, two i32: where its bytes start in IO, and its byte length plus BATCH_TRUNCATED when the host
 * could not fit it.
 */
export const BATCH_SPANS: usize = memory.data(BATCH_MAX * 8, 16);
export const BATCH_TRUNCATED: i32 = 0x10000;
/** Per barcode of a batch: BATCH_STRIDE i32 slots, the RESULT slots then its VERIFY_* code at SLOT_CODE. */
export const BATCH_STRIDE: i32 = 16;
export const SLOT_CODE: i32 = 9;
export const BATCH_RESULTS: usize = memory.data(BATCH_MAX * BATCH_STRIDE * 4, 16);
