import type { RequestListener } from 'node:http';

/** The bare baseline's listener (plain-listener.mjs). */
export function plainListener(
  verifier: { barcodeVerify(fullBarcode: string, options: { requester: string }): unknown },
  tillList: ReadonlyArray<{ id: string; key: string }>,
): RequestListener;
