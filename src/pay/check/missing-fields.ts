import type { PayDialect } from '../../contracts/pay/dialect.js';
import type { PayCheckResult } from './types.js';

// The fields a payment turns on (a provider list read as none refuses the payment): the kit's other fields are
// listed per operation, and under profile `document` their absence is expected.
const WATCHED = new Set([
  'providers',
  'walletPayIsDefault',
  'providerId',
  'name',
  'available',
  'transactionId',
  'status',
]);

/**
 * The answers' fields a payment turns on that the client expected and did not find, over every operation probed:
 * the kit's own missing ones and the document's whose absence failed a read. Paths without list indexes
 * (`providers[].available`), each once, with the service's name the dialect looked for when `fields` maps it
 * (`providers (as paymentMethods)`).
 */
export function missingFields(results: readonly PayCheckResult[], dialect: PayDialect): string[] {
  const paths = new Set<string>();
  for (const result of results) {
    for (const path of result.missing) paths.add(path.replace(/\[\d+\]/g, '[]'));
    for (const line of result.failure?.errors ?? []) {
      if (line.endsWith(': missing')) paths.add(line.slice(0, -': missing'.length).replace(/\[\d+\]/g, '[]'));
    }
  }
  const named = [...paths].map((path) => ({ path, last: path.slice(path.lastIndexOf('.') + 1).replace('[]', '') }));
  return named
    .filter(({ last }) => WATCHED.has(last))
    .map(({ path, last }) => {
      const service = dialect.fieldName(last);
      return service === last ? path : `${path} (as ${service})`;
    });
}
