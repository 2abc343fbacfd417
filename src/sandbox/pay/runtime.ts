import type { Queryable } from '../../db/index.js';
import type { SandboxContext } from '../module.js';
import type { TransactionRow } from './transactions.js';
import type { ResolvedPayOptions } from './options.js';
import type { PartnerCache } from './partners.js';
import type { PayDialect } from './dialect/index.js';

/** A transaction after a move, and whether the move enqueued its event. */
export interface Moved {
  transaction: TransactionRow;
  enqueued: boolean;
}

/** What must happen once a database transaction has committed. */
export class Effects {
  /** Events were enqueued: kick the outbox. */
  kick = false;
  /** Transactions handed to the bank: schedule its answer. */
  readonly toBank: string[] = [];

  /** Notes a move's event. */
  moved(moved: Moved): Moved {
    this.kick ||= moved.enqueued;
    return moved;
  }
}

/** Schedules the simulated bank's work after a commit (implemented by the bank simulator). */
export interface BankScheduler {
  schedule(transactionId: string): Promise<void>;
}

/** One mounted Pay service: the sandbox's context, the module's options and its background parts. */
export interface PayRuntime {
  readonly ctx: SandboxContext;
  readonly options: ResolvedPayOptions;
  readonly bank: BankScheduler;
  readonly partners: PartnerCache;
  /** The words the Pay API answers in (the kit's by default). */
  readonly dialect: PayDialect;
  /** Refuse (409 INVOICE_OPEN) a /checkout for a card session whose invoice is still open, instead of cancelling it. */
  readonly strict: boolean;
}

/**
 * Runs `fn` in one database transaction, then applies its effects (outbox
 * kick, bank scheduling, the pages' change notice) only if it committed.
 */
export async function write<T>(rt: PayRuntime, fn: (tx: Queryable, effects: Effects) => Promise<T>): Promise<T> {
  const effects = new Effects();
  const result = await rt.ctx.db.transaction((tx) => fn(tx, effects));
  if (effects.kick) rt.ctx.outbox.kick();
  for (const id of effects.toBank) await rt.bank.schedule(id);
  rt.ctx.changes.publish('pay');
  return result;
}
