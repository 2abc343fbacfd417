import type { Verifier } from '../../adapters/node/verifier.js';
import type { BarcodeVerification } from '../contracts/barcode.js';
import { KitError } from '../errors.js';
import { ServerMetrics } from './metrics.js';
import type { CashDeskPayments } from './payments/service.js';
import type { Till, TillRegistry } from './tills.js';

/** What the cash desk service needs. */
export interface CashDeskServiceOptions {
  verifier: Verifier<BarcodeVerification | Promise<BarcodeVerification>>;
  tills: TillRegistry;
  metrics?: ServerMetrics;
  /** Package version reported by `health`. */
  version?: string;
  /** Payments run for the tills (issue 11); without them the `pay.*` methods answer PAY_NOT_CONFIGURED. */
  payments?: CashDeskPayments;
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
  readonly payments: CashDeskPayments | undefined;
  readonly #verifier: CashDeskServiceOptions['verifier'];
  readonly #tills: TillRegistry;
  readonly #version: string;
  readonly #started = performance.now();
  /** Counter handles per result code and reason, made on first use: no label text per verification. */
  readonly #series = new Map<string, { inc(): void }>();

  constructor(options: CashDeskServiceOptions) {
    this.#verifier = options.verifier;
    this.#tills = options.tills;
    this.metrics = options.metrics ?? new ServerMetrics();
    this.#version = options.version ?? '0.0.0';
    this.payments = options.payments;
  }

  /** The till a presented key belongs to; counts refusals per transport. */
  authenticate(key: string | undefined, transport: 'ws' | 'http'): Till | undefined {
    const till = this.#tills.authenticate(key);
    if (till === undefined) this.metrics.authFailures.inc({ transport });
    return till;
  }

  /** Verifies a scanned barcode (section 2.2 result plus reason). */
  async verify(fullBarcode: string): Promise<BarcodeVerification> {
    return this.verifySync(fullBarcode);
  }

  /**
   * `verify` without a promise when the verifier has none to give: the result
   * itself with an in-process store, a promise of it with a shared (Redis)
   * one. Same metrics. A synchronous verifier's throw is thrown here. For
   * transports where a promise per call is a measurable cost (the bridge).
   */
  verifySync(fullBarcode: string): BarcodeVerification | Promise<BarcodeVerification> {
    const started = performance.now();
    const result = this.#verifier.barcodeVerify(fullBarcode);
    // Checked by `then`, as `await` would: any thenable a verifier returns is waited on.
    if (typeof (result as { then?: unknown }).then === 'function') {
      return Promise.resolve(result).then((settled) => this.#verified(settled, started));
    }
    return this.#verified(result as BarcodeVerification, started);
  }

  #verified(result: BarcodeVerification, started: number): BarcodeVerification {
    this.metrics.verifyDuration.observe((performance.now() - started) / 1000);
    this.#verificationSeries(result).inc();
    return result;
  }

  /** Signs the JSON text of a Pay API request body. */
  token(requestData: string): string {
    try {
      const token = this.#verifier.getToken(requestData);
      this.metrics.tokens.inc({ outcome: 'issued' });
      return token;
    } catch (error) {
      this.metrics.tokens.inc({ outcome: error instanceof KitError ? error.code : 'error' });
      throw error;
    }
  }

  #verificationSeries(result: BarcodeVerification): { inc(): void } {
    const key = result.resultCode + result.reason;
    let series = this.#series.get(key);
    if (series === undefined) {
      series = this.metrics.verifications.series({ result_code: result.resultCode, reason: result.reason });
      this.#series.set(key, series);
    }
    return series;
  }

  health(): Health {
    return {
      status: 'ok', backend: this.#verifier.backend, version: this.#version,
      uptimeSeconds: Math.round((performance.now() - this.#started) / 1000),
    };
  }
}
