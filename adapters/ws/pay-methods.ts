import type { z } from '@hono/zod-openapi';
import { PaymentsError } from '../../src/cashdesk/payments/errors.js';
import type { Payments } from '../../src/cashdesk/payments/api.js';
import {
  INTENT_NAMES,
  type IntentName,
  type IntentParams,
  type IntentResult,
  PAYMENT_INTENTS,
} from '../../src/cashdesk/payments/intents.js';
import type { CashDeskService } from '../../src/cashdesk/service.js';

/**
 * The bridge's payment methods, `pay.<intent>` for each payment intent (`PAYMENT_INTENTS`, whose summaries say
 * what each does): params named as the README's section "Wallet payments for tills" names them.
 */
export type PayBridgeMethods = {
  [N in IntentName as `pay.${N}`]: { params: IntentParams<N>; result: IntentResult<N> };
};

/** A payment method's name. */
export type PayMethodName = keyof PayBridgeMethods;

/** The payment methods' names, in the order the docs list them. */
export const PAY_METHOD_NAMES: readonly PayMethodName[] = INTENT_NAMES.map((name) => `pay.${name}` as const);

function payments(service: CashDeskService): Payments {
  if (service.payments === undefined)
    throw new PaymentsError('PAY_NOT_CONFIGURED', 'this server has no Pay API configured (pay.url)');
  return service.payments;
}

// Payment calls are rare beside verification: the schema alone checks them.
const never = (_params: unknown): _params is never => false;

/** A payment method's entry in the bridge's method table. */
interface PayMethodEntry<M extends PayMethodName> {
  schema: z.ZodType<PayBridgeMethods[M]['params']>;
  accepts(params: unknown): params is PayBridgeMethods[M]['params'];
  run(
    service: CashDeskService,
    params: PayBridgeMethods[M]['params'],
    tillId: string,
  ): Promise<PayBridgeMethods[M]['result']>;
}

/** Each payment method's schema and call, for the bridge's method table: the intent of its name, as declared. */
export const PAY_METHODS = Object.fromEntries(
  INTENT_NAMES.map((name) => [
    `pay.${name}`,
    {
      schema: PAYMENT_INTENTS[name].params,
      accepts: never,
      run: (s: CashDeskService, params: IntentParams<IntentName>, till: string) =>
        payments(s).intent(name, till, params),
    },
  ]),
) as unknown as { [M in PayMethodName]: PayMethodEntry<M> };
