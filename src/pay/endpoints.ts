import type { z } from 'zod';
import {
  AvailabilityRequest, AvailabilityResponse, AvailabilityTaskRequest, AvailabilityTaskResponse, CancelRequest,
  CheckoutRequest, CheckoutResponse, ReceiptRequest, ReceiptResponse, RefundRequest, RefundResponse, StatusRequest,
  TransactionState,
} from '../contracts/pay/bodies.js';
import type { PayOperation } from './events.js';

/** How the client calls one Pay API operation. */
export interface Endpoint {
  readonly operation: PayOperation;
  readonly path: string;
  readonly request: z.ZodType;
  readonly response: z.ZodType;
  /**
   * Retried automatically on no answer or 5xx: only operations that cannot
   * take effect twice. /checkout (same requestId, same bytes: the stored
   * answer), /refund (same refundId), /status and /availability-info (reads).
   * Not /availability-info/task, /cancel (a repeat after a lost answer would
   * be INVALID_STATE) or /receipt.
   */
  readonly idempotent: boolean;
  /** Whether the body is checked against the amounts rule before sending. */
  readonly amounts: boolean;
}

const endpoint = (operation: PayOperation, path: string, request: z.ZodType, response: z.ZodType, idempotent: boolean, amounts = false): Endpoint =>
  ({ operation, path, request, response, idempotent, amounts });

/** The seven operations (DESIGN.md section 3). `/cancel` answers the transaction's new state. */
export const ENDPOINTS = {
  availability: endpoint('availability', '/availability-info', AvailabilityRequest, AvailabilityResponse, true),
  availabilityTask: endpoint('availabilityTask', '/availability-info/task', AvailabilityTaskRequest, AvailabilityTaskResponse, false, true),
  checkout: endpoint('checkout', '/checkout', CheckoutRequest, CheckoutResponse, true, true),
  status: endpoint('status', '/status', StatusRequest, TransactionState, true),
  cancel: endpoint('cancel', '/cancel', CancelRequest, TransactionState, false),
  refund: endpoint('refund', '/refund', RefundRequest, RefundResponse, true),
  receipt: endpoint('receipt', '/receipt', ReceiptRequest, ReceiptResponse, false),
} as const satisfies Record<PayOperation, Endpoint>;
