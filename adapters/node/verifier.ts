import type { AcceptedVerification, BarcodeVerification } from '../../src/contracts/barcode.js';
import { KitError, RequestDataError } from '../../src/errors.js';
import { MemoryStore } from '../../src/stores/memory.js';
import type { SyncStore, VerificationStore } from '../../src/stores/store.js';
import type { CoreBackend } from '../core/contract.js';
import { selectBackend } from './backends.js';
import { byteSlice } from './byte-slice.js';
import { type BonusAnswer, type BonusHook, type ResolvedConfig, resolveConfig, type VerifierConfig } from './config.js';
import { BATCH_CODE, BATCH_STRIDE, Slot, VerifyCode } from '../core/core.js';
import { Decision, REASON_BY_DECISION, StorePolicy } from './policy.js';
import { anotherInstance, failed, REASON_BY_CODE, valid } from './verdicts.js';
import type { Verifier, VerifyOptions, VerifyResult } from './verifier-api.js';
import { checkedToken, hmacToken, signerThrew } from './token-scheme.js';
import { withBonus } from './bonus-answer.js';

/**
 * Creates a verifier from the seven init parameters plus options. Its
 * `barcodeVerify` answers synchronously unless the config's `replay` store is
 * asynchronous or its `bonusAvailable` hook answers with a promise; the type
 * says which ({@link VerifyResult}), from the config's literal or its declared
 * `VerifierConfig<S, A>`.
 *
 * @example
 * const verifier = createVerifier({ algorythm: 'HMACSHA256', passLength: 8, prefix: 'CM',
 *   key: process.env.PARTNER_KEY!, interval: 30, cardSessionLength: 8, delimeter: ';' });
 * const result = verifier.barcodeVerify(scanned); // { resultCode: 'CARDSESSION_AVAILABLE', ... }
 */
export function createVerifier<
  S extends VerificationStore | false = SyncStore | false,
  A extends BonusAnswer = boolean,
>(config: VerifierConfig<S, A>): Verifier<VerifyResult<S, A>>;
export function createVerifier(
  config: VerifierConfig<VerificationStore | false, BonusAnswer>,
): Verifier<BarcodeVerification | Promise<BarcodeVerification>> {
  const resolved = resolveConfig(config);
  return new KitVerifier(resolved, selectBackend(resolved));
}

class KitVerifier implements Verifier<BarcodeVerification | Promise<BarcodeVerification>> {
  readonly #core: CoreBackend;
  readonly #clock: () => number;
  readonly #store: VerificationStore | undefined;
  readonly #policy: StorePolicy;
  readonly #ownsStore: boolean;
  readonly #replay: boolean;
  readonly #stepMs: number;
  readonly #window: number;
  readonly #bonus: BonusHook | undefined;
  readonly #tokenScheme: string;
  /** Any token computation but the kit's (the core's); undefined for the kit's. */
  readonly #otherToken: ((requestData: string) => string) | undefined;
  /** The key's bytes for an HMAC scheme, wiped on close like the core's copy. */
  readonly #tokenKey: Buffer | undefined;
  #closed = false;

  constructor(config: ResolvedConfig, core: CoreBackend) {
    this.#core = core;
    this.#clock = config.clock;
    this.#replay = config.replay !== false;
    const maxFailures = config.lockout === false ? 0 : config.lockout.maxFailures;
    const needsStore = this.#replay || maxFailures > 0;
    this.#ownsStore = needsStore && (config.replay === undefined || config.replay === false);
    // A store of our own keeps time by the verifier's clock, so lockouts and replay marks expire with it.
    this.#store = !needsStore
      ? undefined
      : this.#ownsStore
        ? new MemoryStore({ clock: config.clock })
        : (config.replay as VerificationStore);
    this.#policy = new StorePolicy(
      this.#store,
      maxFailures,
      config.lockout === false ? 0 : config.lockout.coolDownSeconds * 1000,
    );
    this.#stepMs = config.interval * 1000;
    this.#window = config.window;
    this.#bonus = config.bonusAvailable;
    const { token } = config;
    if ('sign' in token) {
      const { sign } = token;
      const keyHex = config.key;
      this.#tokenScheme = 'sign';
      this.#otherToken = (text) => {
        let value: unknown;
        try {
          value = sign(text, keyHex);
        } catch (cause) {
          throw signerThrew('sign', cause);
        }
        return checkedToken('sign', value);
      };
    } else if (token.scheme !== 'kit') {
      const { scheme } = token;
      const key = Buffer.from(config.key, 'hex');
      this.#tokenKey = key;
      this.#tokenScheme = scheme;
      this.#otherToken = (text) => hmacToken(scheme, key, text);
    } else {
      this.#tokenScheme = 'kit';
    }
  }

  get tokenScheme(): string {
    return this.#tokenScheme;
  }

  get backend(): 'wasm' | 'native' {
    return this.#core.name;
  }

  barcodeVerify(fullBarcode: string, options?: VerifyOptions): BarcodeVerification | Promise<BarcodeVerification> {
    if (this.#closed) throw new KitError('VERIFIER_CLOSED', 'barcodeVerify: the verifier is closed');
    if (typeof fullBarcode !== 'string') throw notAString('barcodeVerify: fullBarcode', fullBarcode);
    const now = this.#now();
    const code = this.#core.verify(fullBarcode, now);
    return this.#answer(fullBarcode, code, this.#core.result, 0, now, options?.requester);
  }

  barcodeVerifyBatch(
    fullBarcodes: readonly string[],
    options?: VerifyOptions,
  ): BarcodeVerification[] | Promise<BarcodeVerification[]> {
    if (this.#closed) throw new KitError('VERIFIER_CLOSED', 'barcodeVerifyBatch: the verifier is closed');
    if (!Array.isArray(fullBarcodes))
      throw new TypeError(`barcodeVerifyBatch: fullBarcodes must be an array, got ${typeof fullBarcodes}`);
    // As calls one after the other would: the strings before the first non-string are answered, then it throws.
    let end = 0;
    while (end < fullBarcodes.length && typeof fullBarcodes[end] === 'string') end++;
    const answers: Array<BarcodeVerification | Promise<BarcodeVerification>> = new Array(end);
    if (end > 0) {
      // One instant for the whole batch: the clock is read once.
      const now = this.#now();
      const core = this.#core;
      const slots = core.batchResult;
      const requester = options?.requester;
      for (let start = 0; start < end; start += core.batchMax) {
        const count = Math.min(core.batchMax, end - start);
        core.verifyBatch(fullBarcodes, start, count, now);
        for (let i = 0, base = 0; i < count; i++, base += BATCH_STRIDE) {
          answers[start + i] = this.#answer(
            fullBarcodes[start + i]!,
            slots[base + BATCH_CODE]!,
            slots,
            base,
            now,
            requester,
          );
        }
      }
    }
    // Promises come from an async store (every answer) or from a hook answering with one (valid answers only):
    // then the batch is one promise of results, never an array holding promises.
    const async =
      (this.#store !== undefined && !this.#store.synchronous) ||
      (this.#bonus !== undefined && answers.some((answer) => answer instanceof Promise));
    if (end < fullBarcodes.length) {
      if (async) for (const answer of answers) if (answer instanceof Promise) void answer.catch(() => undefined);
      throw notAString(`barcodeVerifyBatch: fullBarcodes[${end}]`, fullBarcodes[end]);
    }
    return async ? Promise.all(answers) : (answers as BarcodeVerification[]);
  }

  #now(): number {
    const now = this.#clock();
    if (!Number.isFinite(now) || now < 0) throw new KitError('CLOCK_INVALID', 'clock: must return ms since the epoch');
    return now;
  }

  /**
   * The answer for a barcode the core has checked: its `code`, its slots at `base` of `slots`, the policy around them.
   */
  #answer(
    fullBarcode: string,
    code: number,
    slots: Int32Array,
    base: number,
    now: number,
    requester: string | undefined,
  ): BarcodeVerification | Promise<BarcodeVerification> {
    const cardLength = slots[base + Slot.CardLength]!;
    if (code === VerifyCode.PrefixMismatch) return this.#settle(anotherInstance(fullBarcode));
    const cardOffset = slots[base + Slot.CardOffset]!;
    const cardNumber = cardLength > 0 ? byteSlice(fullBarcode, cardOffset, cardLength) : null;
    if (code === VerifyCode.Malformed || cardNumber === null)
      return this.#settle(failed(fullBarcode, cardNumber, 'MALFORMED'));

    const sessionLength = slots[base + Slot.SessionLength]!;
    const sessionOffset = slots[base + Slot.SessionOffset]!;
    const cardSession = sessionLength > 0 ? byteSlice(fullBarcode, sessionOffset, sessionLength) : null;
    const ok = code === VerifyCode.Ok;
    // Read now: the slots belong to the next call after this one.
    const keyIndex = slots[base + Slot.KeyIndex]!;
    const driftSteps = slots[base + Slot.MatchedDelta]!;
    const store = this.#store;
    if (store === undefined) {
      return ok
        ? this.#valid(fullBarcode, cardNumber, cardSession, keyIndex, driftSteps)
        : failed(fullBarcode, cardNumber, REASON_BY_CODE[code]!);
    }

    // The barcode is part of the owner: the same card and password in another barcode is not a retry.
    const owner =
      requester === undefined || store.claimFor === undefined
        ? undefined
        : `${requester.length}:${requester}:${fullBarcode}`;
    const markKey =
      ok && this.#replay ? replayKey(fullBarcode, cardNumber, slots[base + Slot.PasswordOffset]!) : undefined;
    const markTtl = markKey === undefined ? 0 : this.#markTtl(slots, base, now);
    if (store.synchronous) {
      const decision = this.#policy.decideSync(store, ok, cardNumber, markKey, markTtl, owner);
      return this.#verdict(decision, fullBarcode, cardNumber, cardSession, keyIndex, driftSteps);
    }
    return this.#policy
      .decideAsync(store, ok, cardNumber, markKey, markTtl, owner)
      .then((decision) => this.#verdict(decision, fullBarcode, cardNumber, cardSession, keyIndex, driftSteps));
  }

  /** The answer the store's `decision` makes for a barcode of this instance. */
  #verdict(
    decision: Decision,
    fullBarcode: string,
    cardNumber: string,
    cardSession: string | null,
    keyIndex: number,
    driftSteps: number,
  ): BarcodeVerification | Promise<BarcodeVerification> {
    if (decision === Decision.Valid) return this.#valid(fullBarcode, cardNumber, cardSession, keyIndex, driftSteps);
    if (decision !== Decision.Repeated) return failed(fullBarcode, cardNumber, REASON_BY_DECISION[decision]!);
    // A password already accepted, asked again by its requester: the first answer again, marked `repeated`.
    const answer = this.#valid(fullBarcode, cardNumber, cardSession, keyIndex, driftSteps);
    return answer instanceof Promise
      ? answer.then((first) => ({ ...first, repeated: true }))
      : { ...answer, repeated: true };
  }

  /** The valid result, with what the bonus hook says for the card ({@link withBonus}). */
  #valid(
    fullBarcode: string,
    cardNumber: string,
    cardSession: string | null,
    keyIndex: number,
    driftSteps: number,
  ): AcceptedVerification | Promise<AcceptedVerification> {
    return withBonus(this.#bonus, cardNumber, (available) =>
      valid(fullBarcode, cardNumber, cardSession, keyIndex, driftSteps, available),
    );
  }

  /**
   * How long the password just accepted (its step in the slots at `base`) could still be valid: its replay mark's life.
   */
  #markTtl(slots: Int32Array, base: number, now: number): number {
    const counter = slots[base + Slot.CounterHi]! * 2 ** 32 + (slots[base + Slot.CounterLo]! >>> 0);
    // A password stays acceptable until its step has left the window.
    return (counter + this.#window + 1) * this.#stepMs - now;
  }

  /** A verifier over an async store answers every string with a Promise, early results included. */
  #settle(result: BarcodeVerification): BarcodeVerification | Promise<BarcodeVerification> {
    return this.#store !== undefined && !this.#store.synchronous ? Promise.resolve(result) : result;
  }

  getToken(requestData: string): string {
    if (this.#closed) throw new KitError('VERIFIER_CLOSED', 'getToken: the verifier is closed');
    if (typeof requestData !== 'string') {
      throw new TypeError(
        `getToken: requestData must be a string (the JSON text of the request body), got ${typeof requestData}`,
      );
    }
    if (this.#otherToken !== undefined) return this.#otherToken(requestData);
    const token = this.#core.sign(requestData, Math.floor(this.#clock() / 1000));
    if (typeof token === 'number') {
      // Say where, never what: request bodies hold personal data.
      throw new RequestDataError(
        `getToken: requestData must be the JSON text of the request body (invalid at byte ${token})`,
        token,
      );
    }
    return token;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#core.wipe();
    this.#tokenKey?.fill(0);
    if (this.#ownsStore) await this.#store?.close();
  }
}

/** The replay mark of a password: its card and its digits (from `passwordOffset` to the end). */
function replayKey(fullBarcode: string, cardNumber: string, passwordOffset: number): string {
  return `replay:${cardNumber}:${fullBarcode.slice(passwordOffset)}`;
}

function notAString(what: string, value: unknown): TypeError {
  return new TypeError(`${what} must be a string, got ${value === null ? 'null' : typeof value}`);
}
