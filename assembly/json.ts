// A streaming JSON validator (RFC 8259 grammar), fed the same chunks the token
// MAC absorbs. It builds nothing, so checking a request body costs one pass
// over bytes already in cache. Input is UTF-8 from the host's TextEncoder,
// which never yields invalid sequences, so strings only need control checks.

const MAX_DEPTH: i32 = 1024;
/** 1 = inside an object, 0 = inside an array, per nesting level. */
const STACK: usize = memory.data(MAX_DEPTH);

// States of the automaton.
const VALUE: i32 = 0; // a value must come
const AFTER_VALUE: i32 = 1; // ',' or the container's close must come
const KEY_OR_CLOSE: i32 = 2; // just after '{'
const KEY: i32 = 3; // after ',' in an object
const COLON: i32 = 4;
const STRING: i32 = 5;
const ESCAPE: i32 = 6;
const UNICODE: i32 = 7; // reading the 4 hex digits of \u
const MINUS: i32 = 8;
const ZERO: i32 = 9;
const INT: i32 = 10;
const DOT: i32 = 11;
const FRAC: i32 = 12;
const EXP_MARK: i32 = 13;
const EXP_SIGN: i32 = 14;
const EXP: i32 = 15;
const LITERAL: i32 = 16;
const VALUE_OR_CLOSE: i32 = 17; // just after '['
const DONE: i32 = 18; // the top-level value ended: only white space may follow
const FAILED: i32 = 19;

// "true", "false", "null" laid end to end; a literal is matched by index.
const LITERALS: usize = memory.data<u8>([116, 114, 117, 101, 102, 97, 108, 115, 101, 110, 117, 108, 108]);

let state: i32 = VALUE;
let depth: i32 = 0;
let stringIsKey: bool = false;
let hexLeft: i32 = 0;
let literalAt: i32 = 0;
let literalEnd: i32 = 0;
let failedAt: i32 = -1;
let consumed: i32 = 0;

/** Starts validating a new document. */
export function jsonReset(): void {
  state = VALUE;
  depth = 0;
  failedAt = -1;
  consumed = 0;
}

@inline function isSpace(c: u32): bool {
  return c == 0x20 || c == 0x0a || c == 0x0d || c == 0x09;
}

@inline function isDigit(c: u32): bool {
  return c - 48 < 10;
}

@inline function isHexDigit(c: u32): bool {
  return c - 48 < 10 || (c | 32) - 97 < 6;
}

function endValue(): i32 {
  return depth == 0 ? DONE : AFTER_VALUE;
}

function open(isObject: u8): i32 {
  if (depth == MAX_DEPTH) return FAILED;
  store<u8>(STACK + <usize>depth, isObject);
  depth++;
  return isObject ? KEY_OR_CLOSE : VALUE_OR_CLOSE;
}

function close(isObject: u8): i32 {
  if (depth == 0 || load<u8>(STACK + <usize>(depth - 1)) != isObject) return FAILED;
  depth--;
  return endValue();
}

/** The state after a value-starting byte `c` (or FAILED). */
function startValue(c: u32): i32 {
  if (c == 0x22) {
    stringIsKey = false;
    return STRING;
  }
  if (c == 0x7b) return open(1);
  if (c == 0x5b) return open(0);
  if (c == 0x2d) return MINUS;
  if (c == 0x30) return ZERO;
  if (isDigit(c)) return INT;
  if (c == 0x74) { literalAt = 1; literalEnd = 4; return LITERAL; }
  if (c == 0x66) { literalAt = 5; literalEnd = 9; return LITERAL; }
  if (c == 0x6e) { literalAt = 10; literalEnd = 13; return LITERAL; }
  return FAILED;
}

/** The state after byte `c` in a state where a value has just ended (numbers end on the next byte). */
function afterValue(c: u32): i32 {
  if (isSpace(c)) return state == DONE ? DONE : AFTER_VALUE;
  if (state == DONE || depth == 0) return FAILED;
  const inObject = load<u8>(STACK + <usize>(depth - 1)) == 1;
  if (c == 0x2c) return inObject ? KEY : VALUE;
  if (c == 0x7d) return close(1);
  if (c == 0x5d) return close(0);
  return FAILED;
}

/** Validates the next `len` bytes at `ptr`. */
export function jsonUpdate(ptr: usize, len: i32): void {
  let s = state;
  for (let i = 0; i < len; i++) {
    if (s == FAILED) break;
    const c = <u32>load<u8>(ptr + <usize>i);
    switch (s) {
      case STRING: {
        // The hot loop: run through plain string bytes without leaving this case.
        let j = i;
        let b = c;
        while (b != 0x22 && b != 0x5c && b >= 0x20) {
          if (++j == len) break;
          b = <u32>load<u8>(ptr + <usize>j);
        }
        i = j;
        if (j == len) break;
        if (b == 0x22) s = stringIsKey ? COLON : endValue();
        else if (b == 0x5c) s = ESCAPE;
        else s = FAILED;
        break;
      }
      case VALUE: if (!isSpace(c)) s = startValue(c); break;
      case VALUE_OR_CLOSE: if (!isSpace(c)) s = c == 0x5d ? close(0) : startValue(c); break;
      case AFTER_VALUE:
      case DONE: state = s; s = afterValue(c); break;
      case KEY_OR_CLOSE:
        if (isSpace(c)) break;
        if (c == 0x7d) s = close(1);
        else if (c == 0x22) { stringIsKey = true; s = STRING; } else s = FAILED;
        break;
      case KEY:
        if (isSpace(c)) break;
        if (c == 0x22) { stringIsKey = true; s = STRING; } else s = FAILED;
        break;
      case COLON: if (!isSpace(c)) s = c == 0x3a ? VALUE : FAILED; break;
      case ESCAPE:
        if (c == 0x75) { hexLeft = 4; s = UNICODE; }
        else if (
          c == 0x22 || c == 0x5c || c == 0x2f || c == 0x62 || c == 0x66 || c == 0x6e || c == 0x72 || c == 0x74
        ) s = STRING;
        else s = FAILED;
        break;
      case UNICODE: s = !isHexDigit(c) ? FAILED : --hexLeft == 0 ? STRING : UNICODE; break;
      case LITERAL:
        if (c != <u32>load<u8>(LITERALS + <usize>literalAt)) s = FAILED;
        else if (++literalAt == literalEnd) s = endValue();
        break;
      case MINUS: s = c == 0x30 ? ZERO : isDigit(c) ? INT : FAILED; break;
      case INT:
        if (isDigit(c)) break;
      // falls through: after the integer part, the same as after a zero
      case ZERO:
        if (c == 0x2e) s = DOT;
        else if ((c | 32) == 0x65) s = EXP_MARK;
        else { state = endValue(); s = afterValue(c); }
        break;
      case DOT: s = isDigit(c) ? FRAC : FAILED; break;
      case FRAC:
        if (isDigit(c)) break;
        if ((c | 32) == 0x65) s = EXP_MARK;
        else { state = endValue(); s = afterValue(c); }
        break;
      case EXP_MARK: s = isDigit(c) ? EXP : c == 0x2b || c == 0x2d ? EXP_SIGN : FAILED; break;
      case EXP_SIGN: s = isDigit(c) ? EXP : FAILED; break;
      case EXP:
        if (!isDigit(c)) { state = endValue(); s = afterValue(c); }
        break;
      default: s = FAILED;
    }
    if (s == FAILED && failedAt < 0) failedAt = consumed + i;
  }
  consumed += len;
  state = s;
}

/**
 * Finishes the document: -1 when it is complete, valid JSON, else the byte
 * offset where it went wrong (the length, when it ended too early).
 */
export function jsonFinish(): i32 {
  let s = state;
  // A number may run to the very end of the text.
  if (depth == 0 && (s == ZERO || s == INT || s == FRAC || s == EXP)) s = DONE;
  if (s == DONE) return -1;
  return failedAt >= 0 ? failedAt : consumed;
}
