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

export interface Discrepancy {
  kind: string;
  tillId: string;
  store: string | null;
  paymentId: string;
  transactionId: string | null;
  kit: { phase?: string; status?: string; totalAmount?: number; refundedAmount?: number };
  service: { status?: string; totalAmount?: number; refundedAmount?: number; error?: string };
  healed: boolean;
}

export interface ReconcileReport {
  from: string;
  to: string;
  payments: number;
  transactions: number;
  discrepancies: Discrepancy[];
}

export interface DayTotals {
  payments: number;
  paid: number;
  refunded: number;
  net: number;
}

export interface DayCloseReport {
  date: string;
  tz: string;
  tills: Array<{ tillId: string; store: string | null } & DayTotals>;
  stores: Array<{ store: string | null } & DayTotals>;
  totals: DayTotals;
  discrepancies: Discrepancy[];
}
