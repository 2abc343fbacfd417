import { demoConfig } from '../../demo.js';
import type { SandboxContext, SandboxModule } from '../module.js';
import { createAccount, findAccount } from './accounts.js';
import { mountAppRoutes } from './app-routes.js';
import { mountControlRoutes } from './control-routes.js';
import { pushMigrations } from './migrations.js';
import { PhoneSimulator } from './progress.js';
import { mountPublicRoutes } from './public-routes.js';

/** Creates the demo account (`demoConfig.push`) if missing; its password is the initial one until reset. */
async function seedDemo(ctx: SandboxContext): Promise<string[]> {
  const { login, password } = demoConfig.push;
  if ((await findAccount(ctx.db, login)) === undefined) {
    await createAccount(ctx.db, ctx.clock(), { login, password, partner: demoConfig.verifier.partnerId });
  }
  return [
    `Push API   {url}/public  Basic ${login} / ${password} (initial: PUT /public/user/reset-password first)`,
    'Push inbox {url}/sandbox/app/inbox/<msisdn>   accounts: POST {url}/sandbox/push/accounts',
  ];
}

/**
 * The sandbox Push service: the Push API under `/public` (Basic auth, the
 * initial-password rule, single and batch sends, the 304 rule, Idempotency-Key),
 * the simulated phones that move messages on and send the callbacks through
 * the outbox, the wallet-app inbox and the test controls under `/sandbox/`.
 */
export const pushModule: SandboxModule = {
  name: 'push',
  migrations: pushMigrations,
  mount(app, ctx) {
    mountPublicRoutes(app, ctx);
    mountControlRoutes(app, ctx);
    mountAppRoutes(app, ctx);
  },
  seedDemo,
  start(ctx) {
    // One simulator per sandbox: this module object is shared by every sandbox of the process, so the
    // simulator is tied to the sandbox's own outbox, which closes it before the database closes.
    const simulator = new PhoneSimulator({
      db: ctx.db,
      outbox: ctx.outbox,
      clock: ctx.clock,
      logger: ctx.logger,
      timeScale: ctx.timeScale,
      onMoved: () => ctx.changes.publish('push'),
    });
    ctx.outbox.onClose(() => simulator.close());
    simulator.start();
  },
};
