// The report shapes are the server's own contract (type-only: nothing of it is bundled).
import type { z } from 'zod';
import type {
  DayCloseReport as DayCloseSchema,
  Discrepancy as DiscrepancySchema,
  ReconciliationReport,
} from '../../../src/contracts/back-office-reports.js';
import type { PaymentView } from '../shared/types';

export interface MetricsView {
  verifications: Array<{ resultCode: string; reason: string; count: number }>;
  latency: { buckets: Array<{ le: string; count: number }>; count: number; sumSeconds: number };
  drift: Array<{ le: string; count: number }>;
  history: Array<{ at: string; total: number }>;
}

export interface AttemptView {
  attempt: number;
  at: string;
  httpStatus: number | null;
  error: string | null;
  durationMs: number;
  signature: 'verified' | 'refused' | 'unknown';
}

export interface TransactionView {
  tillId: string;
  payment: PaymentView;
  history: Array<{ status: string; reason?: string; refundedAmount?: number; at: string }>;
  deliveries: Array<{ id: string; status: string; attempts: AttemptView[] }>;
  refunds: Array<{ refundId: string; amount: number; createdAt: string }>;
}

export interface CampaignView {
  campaignId: string;
  subId: string;
  title: string;
  text: string;
  startedAt: string;
  total: number;
  done: number;
  accepted: number;
  rejected: number;
  batches: number;
  waiting: boolean;
  state: 'running' | 'finished' | 'failed';
  error?: string;
}

export interface NumberResult {
  msisdn: string;
  messageId?: string;
  reason?: string;
  callback?: { state: string; at: string } | null;
}

export interface ReceivedCallback {
  eventId: string;
  type: string;
  messageId: string;
  subId: string;
  msisdn: string;
  occurredAt: string;
  receivedAt: string;
}

export interface LoyaltyView {
  cards: Array<{ cardNumber: string; balance: number; issuedAt: string }>;
  credits: Array<{
    kind: 'receipt' | 'promo';
    cardNumber: string;
    what: string;
    sum: number | null;
    bonusAmount: number;
    at: string;
  }>;
}

export type Discrepancy = z.infer<typeof DiscrepancySchema>;
export type ReconcileReport = z.infer<typeof ReconciliationReport>;
export type DayCloseReport = z.infer<typeof DayCloseSchema>;
export type DayTotals = DayCloseReport['totals'];
