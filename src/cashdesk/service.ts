import { performance } from 'node:perf_hooks';
import type { Logger } from 'pino';
import { pino } from 'pino';
import type { BarcodeVerification } from '../contracts/barcode.js';
import { ConfigError, type LockoutError } from '../errors.js';
import { FailureLimiter, type FailureLimiterOptions, type Lockout } from '../guard/failure-limiter.js';
import { ServerMetrics } from './metrics.js';
import type { Payments } from './payments/api.js';
import { TicketStore } from './tickets.js';
import { TillVerifications, type TillVerificationsOptions, type TokenSigner } from './verifications.js';
import type { Till, TillRegistry } from './tills.js';

/** What the cash desk service needs. */
export interface CashDeskServiceOptions {
  /** Verifies the tills' scans (and signs, without `signer`). Give it, or `verifications` made of it. */
  verifier?: TillVerificationsOptions['verifier'];
  /**
   * Signs Pay API bodies instead of the verifier (`pay.token`'s module, loaded by `loadTokenSigner`), for the
   * server's own payments and the tills' `token.get` alike. Default: the verifier's `getToken`.
   */
  signer?: TokenSigner;
  /**
   * Instead of `verifier` and `signer`: the verifications made of them, shared with payments built before the
   * service (the server's payments verify scans and sign bodies through them).
   */
  verifications?: TillVerifications;
  /** Default: the metrics of `verifications`, or new ones. */
  metrics?: ServerMetrics;
  tills: TillRegistry;
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
  /** The verifications and tokens, with their metrics (the payments' scans and signatures go through them too). */
  readonly verifications: TillVerifications;
  readonly #tills: TillRegistry;
  readonly #version: string;
  readonly #limiter: FailureLimiter | undefined;
  readonly #log: Logger;
  readonly #started = performance.now();

  constructor(options: CashDeskServiceOptions) {
    this.#tills = options.tills;
    this.metrics = options.metrics ?? options.verifications?.metrics ?? new ServerMetrics();
    this.verifications = options.verifications ?? verificationsOf(options, this.metrics);
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
   * Verifies a scanned barcode (section 2.2 result plus reason). `tillId`, the requester, makes a retry
   * idempotent: the same till asking again about the same barcode gets its first answer with `repeated: true`.
   */
  verify(fullBarcode: string, tillId?: string): Promise<BarcodeVerification> {
    return this.verifications.verify(fullBarcode, tillId);
  }

  /** `verify` without a promise when the verifier has none to give (see {@link TillVerifications.verifySync}). */
  verifySync(fullBarcode: string, tillId?: string): BarcodeVerification | Promise<BarcodeVerification> {
    return this.verifications.verifySync(fullBarcode, tillId);
  }

  /** Verifies a scan for a payment of `tillId` (see {@link TillVerifications.verifyForPayment}). */
  verifyForPayment(fullBarcode: string, tillId: string): Promise<BarcodeVerification> {
    return this.verifications.verifyForPayment(fullBarcode, tillId);
  }

  /** Verifies several barcodes of one till in one call (see {@link TillVerifications.verifyBatchSync}). */
  verifyBatchSync(
    fullBarcodes: readonly string[],
    tillId?: string,
  ): BarcodeVerification[] | Promise<BarcodeVerification[]> {
    return this.verifications.verifyBatchSync(fullBarcodes, tillId);
  }

  /** Signs the JSON text of a Pay API request body: at once, or through a promise with a signer module. */
  token(requestData: string): string | Promise<string> {
    return this.verifications.token(requestData);
  }

  /** The `token.get` / `POST /v1/token` answer: `{ token }`, at once or through a promise. */
  tokenAnswer(requestData: string): { token: string } | Promise<{ token: string }> {
    const token = this.token(requestData);
    return typeof token === 'string' ? { token } : token.then((value) => ({ token: value }));
  }

  health(): Health {
    return {
      status: 'ok',
      backend: this.verifications.backend,
      version: this.#version,
      uptimeSeconds: Math.round((performance.now() - this.#started) / 1000),
    };
  }
}

/** The verifications of `verifier` and `signer`. */
function verificationsOf(options: CashDeskServiceOptions, metrics: ServerMetrics): TillVerifications {
  const { verifier, signer } = options;
  if (verifier === undefined) throw new ConfigError(['verifier: give verifier or verifications'], 'service options');
  return new TillVerifications({ verifier, metrics, ...(signer === undefined ? {} : { signer }) });
}
