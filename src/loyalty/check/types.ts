import type { ConformanceSubject } from './subjects.js';

export type { ConformanceSubject } from './subjects.js';

/** One subject's verdict. */
export interface ConformanceResult {
  subject: ConformanceSubject;
  ok: boolean;
  /** Why it failed (the first unmet expectation). */
  reason?: string;
  /** Parts that could not be exercised with what the server offers (e.g. no categories listed). */
  notes: string[];
}

/** The verdicts, in the order checked. */
export interface ConformanceReport {
  ok: boolean;
  results: ConformanceResult[];
}
