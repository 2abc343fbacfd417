import { performance } from 'node:perf_hooks';
import type { Verifier } from '../../adapters/node/verifier-api.js';
import type { BarcodeVerification } from '../contracts/barcode.js';
import { KitError } from '../errors.js';
import type { ServerMetrics } from './metrics.js';
import { AcceptedScans } from './scans.js';

/** Signs the JSON text of Pay API bodies: a verifier, or `pay.token`'s module loaded by `loadTokenSigner`. */
export interface TokenSigner {
  getToken(requestData: string): string | Promise<string>;
}

/** What {@link TillVerifications} needs. */
export interface TillVerificationsOptions {
  verifier: Verifier<BarcodeVerification | Promise<BarcodeVerification>>;
  /**
   * Signs Pay API bodies instead of the verifier (`pay.token`'s module), for the server's own payments and the
   * tills' `token.get` alike. Default: the verifier's `getToken`.
   */
  signer?: TokenSigner;
  /** Where each verification and token is counted. */
  metrics: ServerMetrics;
}

/**
 * The cash desk's barcode verifications and Pay API tokens, with their metrics: the tills' `barcode.verify` and
 * `token.get` go through them, and so do the server's payments (the scan of a `pay.start` or `pay.rescan`, each
 * Pay API body signed). So the server builds them first, then its payments, then the service over both.
 */
export class TillVerifications {
  readonly #verifier: TillVerificationsOptions['verifier'];
  readonly #signer: TokenSigner;
  /** Where each verification and token is counted. */
  readonly metrics: ServerMetrics;
  /**
   * Counter handles by result code, then reason, made on first use: no label text (nor a joined key) per verification.
   */
  readonly #series = new Map<string, Map<string, { inc(): void }>>();
  /** Counter handles per key index, made on first use. */
  readonly #keySeries: Array<{ inc(): void }> = [];
  /** Scans each till's own verification accepted, not yet used by a payment: one scan serves loyalty and payment. */
  readonly #scans = new AcceptedScans();

  constructor(options: TillVerificationsOptions) {
    this.#verifier = options.verifier;
    this.#signer = options.signer ?? options.verifier;
    this.metrics = options.metrics;
  }

  /** The verifier's backend (`health`). */
  get backend(): 'wasm' | 'native' {
    return this.#verifier.backend;
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
}
