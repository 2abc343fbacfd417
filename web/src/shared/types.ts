/** The JSON shapes the pages read, as the servers' contracts (src/contracts, src/sandbox) define them. */

export interface Item {
  name: string;
  article: string;
  measure?: 'PIECE' | 'GRAM' | 'KILOGRAM';
  quantity: number;
  price: number;
}

export interface SandboxCard {
  partnerId: string;
  cardNumber: string;
  cardSession: string | null;
  barcode: string;
  sessionExpiresAt: string | null;
  interval: number;
  drawnAt: string;
}

export interface Invoice {
  transactionId: string;
  requestId: string;
  status: string;
  totalAmount: number;
  discountAmount: number;
  items: Item[];
  providerId: string | null;
  invoiceExpiresAt: string;
  offers: Array<{ providerId: string; marketingMessage: string }>;
}

export interface TransactionRecord {
  transactionId: string;
  status: string;
  statusClass: string;
  reason?: string;
  totalAmount: number;
  refundedAmount: number;
  updatedAt: string;
  createdAt: string;
  items: Item[];
  refunds: Array<{ refundId: string; amount: number; createdAt: string }>;
  receipts: Array<{ receipt: Record<string, unknown>; receivedAt: string }>;
}

export interface InboxMessage {
  messageId: string;
  subId: string;
  title: string;
  text: string;
  deeplink: string | null;
  status: string;
  receivedAt: string;
}

export interface CategoryGroup {
  groupId: string;
  name: string;
  maxSelected: number;
  categories: Array<{ categoryId: string; name: string }>;
}
export interface FavoriteSelection {
  groupId: string;
  categoryIds: string[];
}

/** A till's payment as the cash desk server shows it (`pay.*` answers). */
export interface PaymentView {
  paymentId: string;
  phase: string;
  walletPayIsDefault: boolean;
  providers: Array<{ providerId: string; name: string; available: boolean; message?: string }>;
  transactionId?: string;
  status?: string;
  statusClass?: string;
  reason?: string;
  totalAmount: number;
  refundedAmount?: number;
  receiptSent: boolean;
  updatedAt: string;
}

/** `pay.sessionUpdated`: a phase change or a session event the till acts on. */
export interface SessionUpdate {
  paymentId: string;
  phase: string;
  status?: string;
  statusClass?: string;
  reason?: string;
  transactionId?: string;
  event?:
    | 'offerWalletPay'
    | 'showProviderMessages'
    | 'tellCustomerNotToConfirm'
    | 'rescanNeeded'
    | 'lateResult'
    | 'cardRefused';
  messages?: Array<{ providerId: string; name: string; message: string }>;
}
