import { z } from 'zod';
import { PaymentId, PaymentPhase, PaymentTransaction } from './cashdesk-payments.js';

/**
 * The cash desk's back-office API (`/v1/back-office/...`, `/v1/audit`): the merchant's finance and support systems
 * read payments and the audit log and refund, each with a back-office key of its own scopes.
 */

const Id = z
  .string({ error: 'must be a string' })
  .regex(/^[A-Za-z0-9._-]{1,64}$/, { error: 'must be 1 to 64 of [A-Za-z0-9._-]' });
const Instant = z.iso.datetime({ offset: true, error: 'must be an RFC 3339 time, e.g. 2026-11-29T00:00:00Z' });
const Limit = z.coerce
  .number({ error: 'must be an integer from 1 to 500' })
  .int({ error: 'must be an integer from 1 to 500' })
  .min(1, { error: 'must be an integer from 1 to 500' })
  .max(500, { error: 'must be an integer from 1 to 500' })
  .default(100);
const Cursor = z
  .string({ error: 'must be a string' })
  .regex(/^[A-Za-z0-9_-]{1,512}$/, { error: 'must be a cursor from an earlier answer' })
  .meta({ description: "The previous answer's `next`: the page after it." });

/** `GET /v1/back-office/payments`: payments created in [from, to), oldest first. */
export const BackOfficePaymentsQuery = z
  .object({
    from: Instant.optional(),
    to: Instant.optional(),
    tillId: Id.optional(),
    store: Id.optional(),
    phase: PaymentPhase.optional(),
    limit: Limit,
    cursor: Cursor.optional(),
  })
  .strict()
  .meta({ id: 'BackOfficePaymentsQuery' });
export type BackOfficePaymentsQuery = z.output<typeof BackOfficePaymentsQuery>;

/** One payment as the back office sees it. */
export const BackOfficePayment = z
  .object({
    tillId: z.string(),
    store: z.string().nullable().meta({ description: "The till's store, null when the till names none." }),
    paymentId: PaymentId,
    phase: PaymentPhase,
    totalAmount: z.number().int(),
    refundedAmount: z.number().int(),
    transactions: z.array(PaymentTransaction),
    createdAt: z.string().meta({ description: 'RFC 3339.' }),
    updatedAt: z.string().meta({ description: 'RFC 3339.' }),
  })
  .meta({ id: 'BackOfficePayment' });
export type BackOfficePayment = z.infer<typeof BackOfficePayment>;

/** A page of payments; `next` is the cursor of the following page, null on the last. */
export const BackOfficePaymentList = z
  .object({ payments: z.array(BackOfficePayment), next: z.string().nullable() })
  .meta({ id: 'BackOfficePaymentList' });

/** `POST /v1/back-office/tills/{tillId}/payments/{paymentId}/refund`'s path. */
export const BackOfficePaymentParams = z.object({ tillId: Id, paymentId: PaymentId }).strict();

/** `GET /v1/audit`: entries in [from, to), of a till or payment, in `seq` order. */
export const AuditQuery = z
  .object({
    from: Instant.optional(),
    to: Instant.optional(),
    tillId: Id.optional(),
    paymentId: PaymentId.optional(),
    limit: Limit,
    cursor: z
      .string({ error: 'must be a string' })
      .regex(/^\d{1,15}$/, { error: 'must be a cursor from an earlier answer' })
      .optional()
      .meta({ description: "The previous answer's `next`: the entries after it." }),
  })
  .strict()
  .meta({ id: 'AuditQuery' });
export type AuditQuery = z.output<typeof AuditQuery>;

/** One audit entry. */
export const AuditEntry = z
  .object({
    seq: z.number().int(),
    at: z.string(),
    actor: z.object({ kind: z.enum(['till', 'backOffice', 'console']), id: z.string() }),
    address: z.string().nullable(),
    action: z.enum(['start', 'checkout', 'cancel', 'abandon', 'retry', 'rescan', 'refund', 'receipt']),
    tillId: z.string(),
    paymentId: z.string().nullable(),
    refundId: z.string().nullable(),
    amount: z.number().int().nullable(),
    outcome: z.string().meta({ description: '`ok`, or the refusal’s stable code.' }),
    requestId: z.string().nullable(),
  })
  .meta({ id: 'AuditEntry' });

/** A page of the audit log; `next` is the cursor of the following page, null on the last. */
export const AuditList = z
  .object({ entries: z.array(AuditEntry), next: z.string().nullable() })
  .meta({ id: 'AuditList' });
