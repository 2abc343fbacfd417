import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Env } from 'hono';
import { demoConfig } from '../../demo.js';
import type { SandboxContext, SandboxModule } from '../module.js';
import { BankSimulator } from './bank.js';
import { payDialect } from './dialect/index.js';
import { sweep } from './expiry.js';
import { Faults } from './faults.js';
import { payMigrations } from './migrations.js';
import { resolvePayOptions, type PayModuleOptions } from './options.js';
import { PartnerCache, upsertPartner } from './partners.js';
import { settleDueRefunds } from './refunds-deferred.js';
import { mountPayApi } from './routes-api.js';
import { mountControls } from './routes-controls.js';
import { mountSimulator } from './routes-simulator.js';
import type { PayRuntime } from './runtime.js';

interface Instance {
  rt: PayRuntime;
  bank: BankSimulator;
  faults: Faults;
  sweeper?: NodeJS.Timeout;
  sweeping?: Promise<unknown>;
}

/**
 * Mounts every Pay route of the sandbox on an app: the Pay API, the
 * wallet-app simulator and the test controls, each through `app.openapi()`
 * from the same route configs `sandboxPayOpenApiDocument` documents.
 */
export function mountPay(app: OpenAPIHono<Env>, rt: PayRuntime, faults: Faults): void {
  mountPayApi(app, rt, faults);
  mountSimulator(app, rt);
  mountControls(app, rt, faults);
}

/**
 * The sandbox's Pay service: the Pay API of openapi/pay.json with
 * its state in the sandbox's database, the wallet-app simulator and test
 * controls under /sandbox/. Each sandbox that mounts it gets its own bank
 * timers, faults and expiry sweeper; `close()` stops those of every sandbox
 * the module object serves, so give each concurrently running sandbox its own
 * module object when closing one must not stop another's.
 *
 * @example
 * const sandbox = await startSandbox({ port: 0 }, [createPayModule({ invoiceTtlSeconds: 60 })]);
 */
export function createPayModule(options: PayModuleOptions = {}): SandboxModule {
  const resolved = resolvePayOptions(options);
  const instances = new Map<SandboxContext, Instance>();
  return {
    name: 'pay',
    migrations: payMigrations,
    mount(app, ctx) {
      const bank = new BankSimulator();
      const rt: PayRuntime = {
        ctx,
        options: resolved,
        bank,
        partners: new PartnerCache(),
        dialect: payDialect(resolved.dialect ?? ctx.dialect),
        strict: resolved.strict ?? ctx.strict,
      };
      bank.bind(rt);
      const faults = new Faults();
      instances.set(ctx, { rt, bank, faults });
      mountPay(app, rt, faults);
    },
    seedDemo: seedDemoPartner,
    start(ctx) {
      const instance = instances.get(ctx);
      if (instance === undefined || instance.sweeper !== undefined) return;
      const { rt, bank } = instance;
      const background = (what: string, work: () => Promise<unknown>) => {
        if (instance.sweeping !== undefined) return;
        instance.sweeping = work()
          .catch((error: unknown) => ctx.logger.warn({ err: error }, `pay ${what} failed`))
          .finally(() => {
            instance.sweeping = undefined;
          });
      };
      // After a restart, the bank's unanswered payments are re-driven once; then expiries are swept.
      background('bank re-drive', () => bank.redrive());
      const sweepAll =
        rt.dialect.refunds === 'deferred'
          ? async () => {
              await sweep(rt);
              await settleDueRefunds(rt);
            }
          : () => sweep(rt);
      instance.sweeper = setInterval(() => background('sweep', sweepAll), resolved.sweepIntervalMs);
      instance.sweeper.unref();
    },
    async close() {
      const all = [...instances.values()];
      instances.clear();
      for (const instance of all) {
        clearInterval(instance.sweeper);
        await instance.sweeping;
        await instance.bank.close();
      }
    },
  };
}

/** The demo partner (the demo verifier's key and layout), and the banner lines saying where to start. */
async function seedDemoPartner(ctx: SandboxContext): Promise<string[]> {
  const v = demoConfig.verifier;
  await upsertPartner(
    ctx.db,
    {
      partnerId: v.partnerId,
      key: v.key,
      scheme: v.scheme,
      layout: {
        algorythm: v.algorythm,
        passLength: v.passLength,
        prefix: v.prefix,
        interval: v.interval,
        cardSessionLength: v.cardSessionLength,
        delimeter: v.delimeter,
      },
    },
    new Date(ctx.clock()),
  );
  return [
    `Pay API    {url}/checkout ... (partner ${v.partnerId}: tokens of the demo verifier are valid)`,
    'Simulator  {url}/sandbox/app',
    "Demo card  curl -s -X POST -H 'Content-Type: application/json' -d '{}' {url}/sandbox/cards   (a card, " +
      'its key, a barcode with a card session)',
  ];
}

/** The Pay module with default options, as the sandbox mounts it. */
export const payModule: SandboxModule = createPayModule();
