/** Scans remembered per till. A till scans one card per sale: a few are plenty. */
export const SCANS_PER_TILL = 8;

/** Tills remembered at most (the oldest till's scans are forgotten first). */
export const TILLS_REMEMBERED = 10_000;

/**
 * The scans each till had accepted by its own verification (`barcode.verify`)
 * and not yet spent on a payment: "one scan serves loyalty and payment" (the
 * interface document's payment scenario), so the payment that follows may
 * use that very scan once. Bounded per till and in tills; whether a scan is
 * still good is not decided here but by the verifier's replay mark, which
 * lives as long as the password's window.
 */
export class AcceptedScans {
  readonly #byTill = new Map<string, Set<string>>();

  /** Notes a scan the till's own verification accepted with a card session. */
  remember(tillId: string, fullBarcode: string): void {
    let scans = this.#byTill.get(tillId);
    if (scans === undefined) {
      if (this.#byTill.size >= TILLS_REMEMBERED) this.#byTill.delete(this.#byTill.keys().next().value!);
      scans = new Set();
      this.#byTill.set(tillId, scans);
    } else {
      scans.delete(fullBarcode); // to the end: the most recent
    }
    scans.add(fullBarcode);
    if (scans.size > SCANS_PER_TILL) scans.delete(scans.values().next().value!);
  }

  /** Whether the till had accepted this scan and not spent it; spends it (one payment per scan). */
  take(tillId: string, fullBarcode: string): boolean {
    const scans = this.#byTill.get(tillId);
    if (scans === undefined || !scans.delete(fullBarcode)) return false;
    if (scans.size === 0) this.#byTill.delete(tillId);
    return true;
  }
}
