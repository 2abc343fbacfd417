export { pushModule } from './module.js';
export { pushMigrations } from './migrations.js';
export {
  createAccount,
  findAccount,
  updateAccount,
  accountView,
  generatePassword,
  type PushAccount,
  type CreatedAccount,
} from './accounts.js';
export { hashPassword, verifyPassword } from './password.js';
export { PhoneSimulator, type PhoneSimulatorOptions } from './progress.js';
export { pushStats, type PushStats } from './stats.js';
export { PUSH_TOPIC, callbackEvent } from './events.js';
export { ACCOUNT_DEFAULTS, CreateAccountRequest, UpdateAccountRequest } from './schemas.js';
