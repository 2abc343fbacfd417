import { foreignDialect } from './foreign.js';
import { kitDialect } from './kit.js';
import type { PayDialect, PayDialectName } from './types.js';

export { FOREIGN_ERRORS, FOREIGN_REFUND_STATES, FOREIGN_STATUSES, UNDOCUMENTED_STATUS } from './foreign-words.js';
export type { PayDialect, PayDialectName, RefundState, RefundView } from './types.js';

/** The dialect of a name. */
export function payDialect(name: PayDialectName): PayDialect {
  return name === 'foreign' ? foreignDialect : kitDialect;
}
