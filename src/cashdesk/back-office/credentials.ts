import { createHash, timingSafeEqual } from 'node:crypto';

/** What a back-office key may do, each scope alone: reading payments gives no right to refund them. */
export const BACK_OFFICE_SCOPES = ['payments:read', 'payments:refund', 'reports:read', 'audit:read'] as const;

/** One back-office permission. */
export type BackOfficeScope = (typeof BACK_OFFICE_SCOPES)[number];

/** A back-office system (ERP, support desk) as configured: its id, key (24 characters or more) and scopes. */
export interface BackOfficeCredentials {
  id: string;
  key: string;
  scopes: readonly BackOfficeScope[];
  /** Largest single refund this key may make, in kopecks. Default: no limit. */
  maxRefundAmount?: number;
}

/** An authenticated back-office caller: its id, scopes and refund limit, never its key. */
export interface BackOfficeCaller {
  readonly id: string;
  /** Who acts, as the audit log records it: a back-office key (default), or the merchant console. */
  readonly kind?: 'backOffice' | 'console';
  readonly scopes: ReadonlySet<BackOfficeScope>;
  readonly maxRefundAmount?: number;
}

/**
 * The back-office keys, checked as till keys are (`TillRegistry`): SHA-256 digests compared in constant time
 * against every key with no early exit, so timing tells neither which key nor how much of one matched.
 */
export class BackOfficeRegistry {
  readonly #keys: Array<{ caller: BackOfficeCaller; digest: Buffer }>;

  constructor(keys: readonly BackOfficeCredentials[]) {
    this.#keys = keys.map(({ id, key, scopes, maxRefundAmount }) => ({
      caller: { id, scopes: new Set(scopes), ...(maxRefundAmount === undefined ? {} : { maxRefundAmount }) },
      digest: digest(key),
    }));
  }

  /** Number of configured back-office keys. */
  get size(): number {
    return this.#keys.length;
  }

  /** The caller a key belongs to, or undefined. */
  authenticate(presented: string | undefined | null): BackOfficeCaller | undefined {
    if (typeof presented !== 'string' || presented.length === 0 || presented.length > 512) return undefined;
    const candidate = digest(presented);
    let found: BackOfficeCaller | undefined;
    for (const { caller, digest: expected } of this.#keys) {
      if (timingSafeEqual(candidate, expected) && found === undefined) found = caller;
    }
    return found;
  }
}

function digest(key: string): Buffer {
  return createHash('sha256').update(key).digest();
}

/** The key of `Authorization: Bearer <key>` only: a back-office key never travels in a URL. */
export function bearerKey(authorization: string | undefined | null): string | undefined {
  if (!authorization) return undefined;
  return /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1];
}
