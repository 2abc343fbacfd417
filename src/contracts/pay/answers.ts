import { z } from 'zod';
import type { AvailabilityResponse } from './bodies.js';
import { ProviderId, TransactionRef } from './bodies.js';
import { freeText, singleLine } from '../text.js';
import { by, type Field, listOf, readAnswer, type Reading } from './reader.js';
import { RejectReason, StatusClass } from './statuses.js';

/**
 * How the Pay client reads 2xx answers: by the fields the
 * interface document names (transactionId, status, walletPayIsDefault,
 * message per provider), tolerating the rest. A named field that is needed and
 * missing or invalid fails the read; the kit's own fields (openapi/pay.json)
 * are used when present, filled from the request or derived when that is
 * exact, and otherwise left out; unknown fields are ignored. Everything not
 * understood is reported (see `NotUnderstood`).
 */

/** The request a reader may fill from (the body the client sent). */
type Sent = Record<string, unknown>;

const str = (value: unknown) => (typeof value === 'string' ? value : undefined);
const ref = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? value : undefined);
const int = z.number().int();
// Strings that reach logs and storage keep the kit's text rule (no control characters).
const text = singleLine(z.string().max(256));
const message = freeText(z.string().max(4096));
// A status as the service writes it: its class comes from the dialect (src/contracts/pay/dialect.ts), not from here.
const statusWord = singleLine(z.string().min(1).max(64));

const PROVIDER: Record<string, Field<Sent>> = {
  providerId: by('kit', ProviderId, () => ''),
  name: by('kit', text, (_, read) => read.providerId),
  // The document: each provider's message gives the reason when it is unavailable.
  message: by('optional', message),
  available: by('kit', z.boolean(), (_, read) => !read.message),
};

const AVAILABILITY: Record<string, Field<Sent>> = {
  walletPayIsDefault: by('document', z.boolean()),
  providers: listOf('kit', PROVIDER, () => []),
};

const AVAILABILITY_TASK: Record<string, Field<Sent>> = { ...AVAILABILITY, taskId: by('optional', text) };

const CHECKOUT: Record<string, Field<Sent>> = {
  transactionId: by('document', TransactionRef),
  requestId: by('kit', text, (sent) => str(sent.requestId)),
  // An invoice just made is in transit; the session learns the real status from /status or a webhook.
  status: by('kit', statusWord, () => 'created'),
};

const TRANSACTION: Record<string, Field<Sent>> = {
  transactionId: by('document', TransactionRef, (sent) => ref(sent.transactionId)),
  requestId: by('kit', text, (sent) => str(sent.requestId)),
  status: by('document', statusWord),
  // The kit's sandbox sends it; the client classes every status through the dialect whatever a service says.
  statusClass: by('optional', StatusClass),
  reason: by('optional', RejectReason),
  totalAmount: by('kit', int),
  refundedAmount: by('kit', int),
  updatedAt: by('kit', text),
};

const REFUND: Record<string, Field<Sent>> = {
  transactionId: by('kit', TransactionRef, (sent) => ref(sent.transactionId)),
  refundId: by('kit', text, (sent) => str(sent.refundId)),
  amount: by('kit', int),
  refundedAmount: by('kit', int),
  status: by('kit', text),
};

const RECEIPT: Record<string, Field<Sent>> = {
  transactionId: by('kit', TransactionRef, (sent) => ref(sent.transactionId)),
  status: by('kit', text),
};

/** The provider list as read: the kit's shape, `available` derived from `message` when absent. */
export type AvailabilityAnswer = AvailabilityResponse;
/** The task's answer as read (`taskId` is the kit's). */
export type AvailabilityTaskAnswer = AvailabilityResponse & { taskId?: string };
/**
 * The /checkout answer as read: transactionId required (text or a JSON number, kept as it came), requestId from the
 * request and status `created` when absent.
 */
export interface CheckoutAnswer {
  transactionId: TransactionRef;
  requestId: string;
  /** As the service wrote it. */
  status: string;
}
/**
 * A transaction's state as read from /status or /cancel: the document names
 * transactionId and status; the status is kept as the service wrote it and
 * `statusClass` is its class in the client's dialect, absent when the dialect
 * does not know the word; the kit's other fields are there when the service
 * sends them.
 */
export interface TransactionAnswer {
  transactionId: TransactionRef;
  status: string;
  statusClass?: StatusClass;
  requestId?: string;
  reason?: RejectReason;
  totalAmount?: number;
  refundedAmount?: number;
  updatedAt?: string;
}
/** The /refund answer as read: none of its fields is named by the document. */
export interface RefundAnswer {
  transactionId: TransactionRef;
  refundId?: string;
  amount?: number;
  refundedAmount?: number;
  status?: string;
}
/** The receipt answer as read. */
export interface ReceiptAnswer {
  transactionId: TransactionRef;
  status?: string;
}

/** An answer reader: the parsed JSON of a 2xx and the body that was sent. */
export type AnswerReader<T> = (json: unknown, sent: Sent) => Reading<T>;

const reader =
  <T>(fields: Record<string, Field<Sent>>): AnswerReader<T> =>
  (json, sent) =>
    readAnswer<T, Sent>(json, fields, sent);

/** The readers, one per operation. */
export const ANSWER_READERS = {
  availability: reader<AvailabilityAnswer>(AVAILABILITY),
  availabilityTask: reader<AvailabilityTaskAnswer>(AVAILABILITY_TASK),
  checkout: reader<CheckoutAnswer>(CHECKOUT),
  status: reader<TransactionAnswer>(TRANSACTION),
  cancel: reader<TransactionAnswer>(TRANSACTION),
  refund: reader<RefundAnswer>(REFUND),
  receipt: reader<ReceiptAnswer>(RECEIPT),
};
