import { createHash, timingSafeEqual } from 'node:crypto';

/** A till (cash desk) allowed to call the server, with its own key. */
export interface Till {
  id: string;
  /** The bridge answers this till's frames in the order they arrived, a quick call waiting for a slow one before it. */
  orderedAnswers?: boolean;
}

/** A till as configured: its id and its key (at least 16 characters), and how the bridge answers it. */
export interface TillCredentials {
  id: string;
  key: string;
  /** See {@link Till.orderedAnswers}; default false: each answer goes as soon as it is ready. */
  orderedAnswers?: boolean;
}

/**
 * Checks presented till keys in constant time: keys are compared as SHA-256
 * digests (equal length whatever was sent) against every till, with no early
 * exit, so timing says neither which till nor how much of a key matched.
 */
export class TillRegistry {
  readonly #tills: Array<{ till: Till; digest: Buffer }>;

  constructor(tills: readonly TillCredentials[]) {
    this.#tills = tills.map(({ id, key, orderedAnswers }) => ({
      till: orderedAnswers === true ? { id, orderedAnswers } : { id },
      digest: digest(key),
    }));
  }

  /** Number of configured tills. */
  get size(): number {
    return this.#tills.length;
  }

  /** The till a key belongs to, or undefined. */
  authenticate(presented: string | undefined | null): Till | undefined {
    if (typeof presented !== 'string' || presented.length === 0 || presented.length > 512) return undefined;
    const candidate = digest(presented);
    let found: Till | undefined;
    for (const { till, digest: expected } of this.#tills) {
      if (timingSafeEqual(candidate, expected) && found === undefined) found = till;
    }
    return found;
  }
}

function digest(key: string): Buffer {
  return createHash('sha256').update(key).digest();
}

/** The key from `Authorization: Bearer <key>`, or from `?key=` for tills that cannot set headers. */
export function presentedKey(authorization: string | undefined | null, url: string | undefined): string | undefined {
  if (authorization) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    return match?.[1];
  }
  if (url) {
    const key = new URL(url, 'http://localhost').searchParams.get('key');
    if (key) return key;
  }
  return undefined;
}
