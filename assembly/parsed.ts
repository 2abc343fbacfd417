// The parts of the last parsed barcode: written by the split (barcode.ts, or
// batch.ts restoring an earlier one), read by the password check (match.ts).
// Their own module, so the split and the check need not import each other.

// Where the parts of the last parsed barcode are, relative to its first byte.
export let parsedCard: i32 = 0;
export let parsedCardLength: i32 = 0;
export let parsedSession: i32 = 0;
export let parsedSessionLength: i32 = 0;
export let parsedPassword: i32 = 0;

/** Restores the parts of an earlier parsed barcode (the batch checks passwords after splitting them all). */
export function setParsed(card: i32, cardLen: i32, session: i32, sessionLen: i32, password: i32): void {
  parsedCard = card;
  parsedCardLength = cardLen;
  parsedSession = session;
  parsedSessionLength = sessionLen;
  parsedPassword = password;
}
