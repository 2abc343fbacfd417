export { SQLSTATE, sqlState, type Database, type Queryable, type QueryResult } from './database.js';
export { openDatabase, type DatabaseOptions } from './open.js';
export { migrate, type Migration } from './migrate.js';
export { Poller } from './poller.js';
export { DataDirInUseError, lockDataDir } from './data-dir-lock.js';
export { openChannel, type ChannelOptions, type SharedChannel } from './channel.js';
export { isDatabaseUnavailable } from './unavailable.js';
