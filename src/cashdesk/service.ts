import { performance } from 'node:perf_hooks';
import type { Logger } from 'pino';
import { pino } from 'pino';
import type { Verifier } from '../../adapters/node/verifier-api.js';
import type { BarcodeVerification } from '../contracts/barcode.js';
import { KitError, type LockoutError } from '../errors.js';
import { FailureLimiter, type FailureLimiterOptions, type Lockout } from '../guard/failure-limiter.js';
import { ServerMetrics } from './metrics.js';
import type { Payments } from './payments/api.js';
import { AcceptedScans } from './scans.js';
import { TicketStore } from './tickets.js';
import type { Till, TillRegistry } from './tills.js';

/** What the cash desk service needs. */
export interface CashDeskServiceOptions {
  verifier: Verifier<BarcodeVerification | Promise<BarcodeVerification>>;
  tills: TillRegistry;
  metrics?: ServerMetrics;
  /** Package version reported by `health`. */
  version?: string;
  /**
   * Brute-force limit on till keys: a limiter, its options, or `false`. A wrong
   * key names no till, so only the per-address budget applies (default 50
   * wrong keys per address per 5 min, then 429 for 5 min). Give options with
   * `shared` (`RedisFailureCounts`) to count for every instance together.
   */
  bruteForce?: FailureLimiter | FailureLimiterOptions | false;
  /** Where lockouts are logged (one line each, never the key). Default: silent. */
  logger?: Logger;
  /** Payments run for the tills; without them the `pay.*` methods answer PAY_NOT_CONFIGURED. */
  payments?: Payments;
  /**
   * Signs Pay API bodies instead of the verifier (`pay.token`'s module, loaded by `loadTokenSigner`), for the
   * server's own payments and the tills' `token.get` alike. Default: the verifier's `getToken`.
   */
  signer?: { getToken(requestData: string): string | Promise<string> };
  /** The one-use tickets of the bridge's upgrade (`POST /v1/tickets`). Default: a `TicketStore` with its defaults. */
  tickets?: TicketStore;
}

/** The answer of `health`. */
export interface Health {
  status: 'ok';
  backend: 'wasm' | 'native';
  version: string;
  uptimeSeconds: number;
}

/**
 * The cash desk server's operations, shared by every transport (WebSocket
 * bridge, HTTP): verification and token signing with metrics, and till auth.
 * Transports validate their own input and map errors to their own shapes.
 */
export class CashDeskService {
  readonly metrics: ServerMetrics;
  /** Payments run for the tills, when the server has a Pay API configured. */
  readonly payments: Payments | undefined;
  /** One-use tickets for the bridge's upgrade, so a browser till's key stays out of URLs. */
  readonly tickets: TicketStore;
  readonly #verifier: CashDeskServiceOptions['verifier'];
  readonly #signer: NonNullable<CashDeskServiceOptions['signer']>;
  readonly #tills: TillRegistry;
  readonly #version: string;
  readonly #limiter: FailureLimiter | undefined;
  readonly #log: Logger;
  readonly #started = performance.now();
  /**
   * Counter handles by result code, then reason, made on first use: no label text (nor a joined key) per verification.
   */
  readonly #series = new Map<string, Map<string, { inc(): void }>>();
  /** Counter handles per key index, made on first use. */
  readonly #keySeries: Array<{ inc(): void }> = [];
  /** Scans each till's own verification accepted, not yet used by a payment: one scan serves loyalty and payment. */
  readonly #scans = new AcceptedScans();

  constructor(options: CashDeskServiceOptions) {
    this.#verifier = options.verifier;
    this.#signer = options.signer ?? options.verifier;
    this.#tills = options.tills;
    this.metrics = options.metrics ?? new ServerMetrics();
    this.#version = options.version ?? '0.0.0';
    const limiter = options.bruteForce;
    this.#limiter =
      limiter === false
        ? undefined
        : limiter instanceof FailureLimiter
          ? limiter
          : new FailureLimiter({ ...limiter, perCredential: false });
    this.#log = options.logger ?? pino({ level: 'silent' });
    this.payments = options.payments;
    this.tickets = options.tickets ?? new TicketStore();
  }

  /**
   * The till a presented key belongs to, from `remoteAddress`; counts
   * refusals per transport.
   *
   * @throws LockoutError while `remoteAddress` is locked out after too many
   *   wrong keys: the key is then not even checked.
   */
  authenticate(key: string | undefined, transport: 'ws' | 'http', remoteAddress?: string): Till | undefined {
    this.admit(remoteAddress);
    const till = this.#tills.authenticate(key);
    if (till === undefined) this.wrongKey(transport, remoteAddress);
    return till;
  }

  /**
   * The till a one-use ticket (`tickets`) was issued to, for the bridge's upgrade from `remoteAddress`. A wrong,
   * expired or spent ticket is refused and counted exactly as a wrong key.
   *
   * @throws LockoutError while `remoteAddress` is locked out: the ticket is then not even looked at (nor spent).
   */
  redeemTicket(ticket: string | undefined, remoteAddress?: string): Till | undefined {
    this.admit(remoteAddress);
    const till = this.tickets.redeem(ticket);
    if (till === undefined) this.wrongKey('ws', remoteAddress);
    return till;
  }

  /**
   * Counts a wrong key from `remoteAddress` against its budget (till keys, tickets and back-office keys share it),
   * locking the address out once it is spent.
   */
  wrongKey(transport: 'ws' | 'http', remoteAddress: string | undefined): void {
    this.metrics.authFailures.inc({ transport });
    // A lockout is begun by this process's count at once, or by the instances' shared count a moment later.
    const lockout = this.#limiter?.failed(remoteAddress, undefined, (shared) => this.#lockedOut(shared, transport));
    if (lockout !== undefined) this.#lockedOut(lockout, transport);
    else if (this.#limiter?.firstFailureOf(remoteAddress)) {
      this.#log.warn({ transport, remoteAddress }, 'till authentication failed (told once per address and window)');
    }
  }

  #lockedOut(lockout: Lockout, transport: 'ws' | 'http'): void {
    this.metrics.authLockouts.inc({ transport });
    const { address: remoteAddress, retryAfterSeconds } = lockout;
    this.#log.warn({ transport, remoteAddress, retryAfterSeconds }, 'till authentication locked out');
  }

  /**
   * Throws `LockoutError` while `remoteAddress` is locked out. For transports
   * that remember keys already checked: a remembered key must not get past a
   * lockout either, or the lookup itself would check guesses.
   */
  admit(remoteAddress: string | undefined): void {
    const refusal: LockoutError | undefined = this.#limiter?.check(remoteAddress);
    if (refusal !== undefined) throw refusal;
  }

  /**
   * Verifies a scanned barcode (section 2.2 result plus reason). `tillId`, the
   * requester, makes a retry idempotent: the same till asking again about the
   * same barcode gets its first answer with `repeated: true`.
   */
  async verify(fullBarcode: string, tillId?: string): Promise<BarcodeVerification> {
    return this.verifySync(fullBarcode, tillId);
  }

  /**
   * `verify` without a promise when the verifier has none to give: the result
   * itself with an in-process store, a promise of it with a shared (Redis)
   * one. Same metrics. A synchronous verifier's throw is thrown here. For
   * transports where a promise per call is a measurable cost (the bridge).
   */
  verifySync(fullBarcode: string, tillId?: string): BarcodeVerification | Promise<BarcodeVerification> {
    const started = performance.now();
    const result = this.#verifier.barcodeVerify(fullBarcode, tillId === undefined ? undefined : { requester: tillId });
    // Checked by `then`, as `await` would: any thenable a verifier returns is waited on.
    if (typeof (result as { then?: unknown }).then === 'function') {
      return Promise.resolve(result).then((settled) => this.#verified(settled, started, tillId));
    }
    return this.#verified(result as BarcodeVerification, started, tillId);
  }

  /**
   * Verifies a scan for a payment of `tillId` (`pay.start`, `pay.rescan`). A
   * scan that till's own `verify` accepted, and no payment used yet, is that
   * same scan: the verifier is asked on the till's behalf and answers it again
   * (while its replay mark lives: the password's window). Any other scan is
   * verified afresh, so one another till or an earlier payment used is REPLAYED.
   */
  async verifyForPayment(fullBarcode: string, tillId: string): Promise<BarcodeVerification> {
    const own = this.#scans.take(tillId, fullBarcode);
    const started = performance.now();
    const result = await this.#verifier.barcodeVerify(fullBarcode, own ? { requester: tillId } : undefined);
    return this.#verified(result, started);
  }

  /**
   * Verifies several barcodes of one till in one call to the verifier
   * (`barcodeVerifyBatch`), answering in their order, each as `verifySync`
   * would one after the other: the same results, the same metrics (each
   * verification observes the batch's mean duration). An array with an
   * in-process store, a promise of one with a shared (Redis) store.
   *
   * @example
   * const [first, second] = await service.verifyBatchSync([scanA, scanB], till.id);
   */
  verifyBatchSync(
    fullBarcodes: readonly string[],
    tillId?: string,
  ): BarcodeVerification[] | Promise<BarcodeVerification[]> {
    const started = performance.now();
    const results = this.#verifier.barcodeVerifyBatch(
      fullBarcodes,
      tillId === undefined ? undefined : { requester: tillId },
    );
    if (typeof (results as { then?: unknown }).then === 'function') {
      return Promise.resolve(results).then((settled) => this.#verifiedBatch(settled, started, tillId));
    }
    return this.#verifiedBatch(results as BarcodeVerification[], started, tillId);
  }

  #verifiedBatch(results: BarcodeVerification[], started: number, tillId: string | undefined): BarcodeVerification[] {
    const each = results.length === 0 ? 0 : (performance.now() - started) / results.length;
    for (const result of results) this.#remember(this.#record(result, each), tillId);
    return results;
  }

  #verified(result: BarcodeVerification, started: number, tillId?: string): BarcodeVerification {
    return this.#remember(this.#record(result, performance.now() - started), tillId);
  }

  /** A scan the till's own verification accepted with a card session: its payment may use it (once). */
  #remember(result: BarcodeVerification, tillId: string | undefined): BarcodeVerification {
    if (tillId !== undefined && result.resultCode === 'CARDSESSION_AVAILABLE')
      this.#scans.remember(tillId, result.fullBarcode);
    return result;
  }

  /** Counts one verification that took `ms`. */
  #record(result: BarcodeVerification, ms: number): BarcodeVerification {
    this.metrics.verifyDuration.observe(ms / 1000);
    this.#verificationSeries(result).inc();
    if (result.keyIndex !== undefined) {
      const index = result.keyIndex;
      let series = this.#keySeries[index];
      if (series === undefined) {
        series = this.metrics.keyMatches.series({ key_index: String(index) });
        this.#keySeries[index] = series;
      }
      series.inc();
      this.metrics.driftSteps.observe(result.driftSteps ?? 0);
    }
    return result;
  }

  /** Signs the JSON text of a Pay API request body: at once, or through a promise with a signer module. */
  token(requestData: string): string | Promise<string> {
    try {
      const token = this.#signer.getToken(requestData);
      if (typeof token === 'string') return this.#issued(token);
      return token.then(
        (value) => this.#issued(value),
        (error: unknown) => this.#tokenFailed(error),
      );
    } catch (error) {
      return this.#tokenFailed(error);
    }
  }

  /** The `token.get` / `POST /v1/token` answer: `{ token }`, at once or through a promise. */
  tokenAnswer(requestData: string): { token: string } | Promise<{ token: string }> {
    const token = this.token(requestData);
    return typeof token === 'string' ? { token } : token.then((value) => ({ token: value }));
  }

  #issued(token: string): string {
    this.metrics.tokens.inc({ outcome: 'issued' });
    return token;
  }

  #tokenFailed(error: unknown): never {
    this.metrics.tokens.inc({ outcome: error instanceof KitError ? error.code : 'error' });
    throw error;
  }

  #verificationSeries(result: BarcodeVerification): { inc(): void } {
    let byReason = this.#series.get(result.resultCode);
    if (byReason === undefined) {
      byReason = new Map();
      this.#series.set(result.resultCode, byReason);
    }
    let series = byReason.get(result.reason);
    if (series === undefined) {
      series = this.metrics.verifications.series({ result_code: result.resultCode, reason: result.reason });
      byReason.set(result.reason, series);
    }
    return series;
  }

  health(): Health {
    return {
      status: 'ok',
      backend: this.#verifier.backend,
      version: this.#version,
      uptimeSeconds: Math.round((performance.now() - this.#started) / 1000),
    };
  }
}
