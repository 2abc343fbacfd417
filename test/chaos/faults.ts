import type { Simulator } from '../src/pay/sandbox-harness.js';
import type { PrivatePostgres } from '../support/private-postgres.js';
import type { TcpProxy } from '../support/tcp-proxy.js';
import { allHealth, polled, probeOutage } from './checks.js';
import type { HealthWatch } from './health-watch.js';
import type { ServeInstance } from './instances.js';
import type { ChaosRun } from './run.js';
import type { ChaosTill } from './till.js';

/** The faults a run can make. */
export type Fault = 'kill' | 'lost' | 'partition' | 'postgres' | 'pay';

/** The Pay outage: these paths refused, at most this many requests each (it ends earlier, on the tills' state). */
const OUTAGE_PATHS = ['/checkout', '/status', '/receipt'] as const;
const OUTAGE_COUNT = 1_000;
/** Checkouts committed whose answer is then lost, as the Pay API comes back. */
const LOST_ON_RETURN = 4;
/** Lost answers: requests to these paths processed and committed, their answer lost, this many each. */
const LOST_PATHS = ['/availability-info/task', '/checkout', '/receipt'] as const;
const LOST_EACH = 3;
/** How long B is cut off from PostgreSQL (packets dropped, no reset): longer than its lease and its query timeout. */
const PARTITION_MS = 15_000;
/** A failure bound: how long an instance may take to say 200 again once its PostgreSQL is back. */
const BACK_MS = 60_000;

/** What the faults work on: B reaches the cluster through the proxy; A directly. */
export interface ChaosScene {
  a: ServeInstance;
  b: ServeInstance;
  cluster: PrivatePostgres;
  proxy: TcpProxy;
  sim: Simulator;
  run: ChaosRun;
  tills: readonly ChaosTill[];
  probeKey: string;
  watch: HealthWatch;
}

/** What the faults saw, for the report and the checks. */
export interface FaultReport {
  notes: string[];
  /** Answers to a till's intents while PostgreSQL was away from the instance (see probeOutage). */
  outage: Record<string, string>;
  payRefused: number;
  /** Answers lost (drop-after-commit), by path. */
  lost: Record<string, number>;
  /** Whether B, partitioned, said 503 on /healthz before the network came back. */
  partitionSaid503?: boolean;
}

/**
 * Requests the armed faults have still to hit, by `<action> <path>` (a harmless marker on /cancel, no till's path,
 * reads them).
 */
async function armed(sim: Simulator): Promise<Record<string, number>> {
  const { faults }: { faults: Array<{ path: string; action: string; remaining: number }> } = await sim.fault(
    '/cancel',
    'delay',
    1,
    0,
  );
  const left: Record<string, number> = {};
  for (const f of faults) if (f.path !== '/cancel') left[`${f.action} ${f.path}`] = f.remaining;
  return left;
}

/**
 * The faults, each a function that calls `begun` once the fault is in place (the payments held for it go on while
 * it lasts) and resolves when it is over. The partition lasts on past its function's end, over the next faults
 * (PostgreSQL's stop waits for it to be over): `over()` resolves once every fault has ended.
 */
export function faultMakers(scene: ChaosScene, report: FaultReport) {
  const { a, b, cluster, proxy, sim, run, tills, watch } = scene;
  const instances = [a, b];
  const { notes, outage } = report;
  const backHealthy = async (which: readonly ServeInstance[], what: string) => {
    watch.back(which);
    if (!(await polled(() => allHealth(which, 200), BACK_MS))) {
      notes.push(`${which.map((s) => s.name).join(', ')} did not answer /healthz 200 within 60 s of ${what}`);
    }
  };
  let partition: Promise<void> = Promise.resolve();
  /** Lost answers armed and not yet counted, by path. */
  const lostArmed: Record<string, number> = {};
  const countLost = (left: Record<string, number>) => {
    for (const [path, n] of Object.entries(lostArmed)) {
      report.lost[path] = (report.lost[path] ?? 0) + n - (left[`drop-after-commit ${path}`] ?? 0);
    }
    for (const path of Object.keys(lostArmed)) delete lostArmed[path];
  };
  const makers: Record<Fault, (begun: () => void) => Promise<void>> = {
    // kill -9 of A while payments run on both, and its restart on the same port (before B's partition).
    async kill(begun) {
      await partition;
      await a.kill9();
      begun();
      await a.start();
    },
    // Answers lost after the service committed, on the provider list, /checkout and /receipt (counted once over).
    async lost(begun) {
      for (const path of LOST_PATHS) await sim.fault(path, 'drop-after-commit', LOST_EACH);
      for (const path of LOST_PATHS) lostArmed[path] = (lostArmed[path] ?? 0) + LOST_EACH;
      begun();
    },
    // B cut off from PostgreSQL without a reset; a till connecting to B meanwhile; healed after PARTITION_MS.
    async partition(begun) {
      const probeCard = await sim.issueCard({ walletPayIsDefault: true });
      const since = Date.now();
      watch.cut([b]);
      proxy.partition();
      begun();
      partition = (async () => {
        try {
          Object.assign(outage, await probeOutage(b, scene.probeKey, probeCard.barcode, 'partitioned'));
          report.partitionSaid503 = await polled(async () => (await b.health()) === 503, PARTITION_MS);
          await new Promise((resolve) => setTimeout(resolve, Math.max(0, since + PARTITION_MS - Date.now())));
        } finally {
          proxy.heal();
        }
        await backHealthy([b], 'the network coming back');
      })().catch((error: unknown) => {
        notes.push(`partition: ${String(error)}`);
      });
    },
    // PostgreSQL stopped, tills connecting meanwhile (a probe on each instance, one till's connection cut), started.
    async postgres(begun) {
      await partition;
      const probeCard = await sim.issueCard({ walletPayIsDefault: true });
      watch.cut(instances);
      await cluster.stop();
      try {
        begun();
        const refusedBefore = run.refusals.DATABASE_UNAVAILABLE ?? 0;
        for (const s of instances) {
          if (s.alive) Object.assign(outage, await probeOutage(s, scene.probeKey, probeCard.barcode, 'stopped'));
        }
        tills[0]!.drop();
        await polled(() => allHealth(instances, 200, true), 15_000);
        // Long enough for the tills to meet it: a few of their intents refused (bounded, should none be).
        await run.until(() => (run.refusals.DATABASE_UNAVAILABLE ?? 0) >= refusedBefore + 3 || run.done, 15_000);
      } finally {
        await cluster.start();
      }
      await backHealthy(instances, 'PostgreSQL coming back');
    },
    // The Pay API down (503 before anything is stored) for checkouts, status and receipts until a few payments
    // are left not knowing whether their checkout went in; on its way back it loses a few answers after committing.
    async pay(begun) {
      for (const path of OUTAGE_PATHS) await sim.fault(path, 'fail-before-commit', OUTAGE_COUNT);
      begun();
      await run.until(() => run.outcomeUnknown.size >= 2 || run.done, 45_000);
      const left = await armed(sim);
      report.payRefused = OUTAGE_PATHS.reduce(
        (n, path) => n + OUTAGE_COUNT - (left[`fail-before-commit ${path}`] ?? 0),
        0,
      );
      countLost(left);
      await sim.post('/sandbox/faults/clear');
      // The lost answers not met yet are armed again (the clear took them too), and a few more on /checkout.
      for (const path of LOST_PATHS) {
        const count = (left[`drop-after-commit ${path}`] ?? 0) + (path === '/checkout' ? LOST_ON_RETURN : 0);
        if (count === 0) continue;
        await sim.fault(path, 'drop-after-commit', count);
        lostArmed[path] = count;
      }
    },
  };
  /** Every fault over, the answers lost counted, and the faults left armed cleared. */
  const over = async () => {
    await partition;
    countLost(Object.keys(lostArmed).length > 0 ? await armed(sim) : {});
    await sim.post('/sandbox/faults/clear');
  };
  return { makers, over };
}
