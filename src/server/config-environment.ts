/** The environment variables `serve` reads, and how each one's text becomes a config field. */

/** Environment variables read by `serve`, and the field each one sets. */
export const ENVIRONMENT: Record<
  string,
  { path: readonly string[]; kind: 'string' | 'number' | 'list' | 'tills' | 'json' }
> = {
  WPK_ALGORYTHM: { path: ['verifier', 'algorythm'], kind: 'string' },
  WPK_PASS_LENGTH: { path: ['verifier', 'passLength'], kind: 'number' },
  WPK_PREFIX: { path: ['verifier', 'prefix'], kind: 'string' },
  WPK_KEY: { path: ['verifier', 'key'], kind: 'string' },
  WPK_INTERVAL: { path: ['verifier', 'interval'], kind: 'number' },
  WPK_CARD_SESSION_LENGTH: { path: ['verifier', 'cardSessionLength'], kind: 'number' },
  WPK_DELIMETER: { path: ['verifier', 'delimeter'], kind: 'string' },
  WPK_WINDOW: { path: ['verifier', 'window'], kind: 'number' },
  WPK_PARTNER_ID: { path: ['verifier', 'partnerId'], kind: 'string' },
  WPK_BACKEND: { path: ['verifier', 'backend'], kind: 'string' },
  WPK_SCHEME: { path: ['verifier', 'scheme'], kind: 'string' },
  WPK_PREVIOUS_KEYS: { path: ['verifier', 'previousKeys'], kind: 'list' },
  WPK_BONUS_URL: { path: ['bonus', 'url'], kind: 'string' },
  WPK_TILLS: { path: ['tills'], kind: 'tills' },
  WPK_BACK_OFFICE: { path: ['backOffice'], kind: 'json' },
  WPK_HOST: { path: ['server', 'host'], kind: 'string' },
  WPK_PORT: { path: ['server', 'port'], kind: 'number' },
  WPK_ALLOWED_ORIGINS: { path: ['server', 'allowedOrigins'], kind: 'list' },
  WPK_HEADERS_TIMEOUT_MS: { path: ['server', 'headersTimeoutMs'], kind: 'number' },
  WPK_REQUEST_TIMEOUT_MS: { path: ['server', 'requestTimeoutMs'], kind: 'number' },
  WPK_KEEP_ALIVE_TIMEOUT_MS: { path: ['server', 'keepAliveTimeoutMs'], kind: 'number' },
  WPK_MAX_CONNECTIONS: { path: ['server', 'maxConnections'], kind: 'number' },
  WPK_MAX_WS_CONNECTIONS: { path: ['server', 'maxWsConnections'], kind: 'number' },
  WPK_MAX_WS_CONNECTIONS_PER_TILL: { path: ['server', 'maxWsConnectionsPerTill'], kind: 'number' },
  WPK_MAX_CONNECTIONS_PER_ADDRESS: { path: ['server', 'maxConnectionsPerAddress'], kind: 'number' },
  WPK_EVENT_HEARTBEAT_MS: { path: ['server', 'eventHeartbeatMs'], kind: 'number' },
  WPK_TLS_CERT: { path: ['tls', 'cert'], kind: 'string' },
  WPK_TLS_KEY: { path: ['tls', 'key'], kind: 'string' },
  WPK_TRUSTED_PROXIES: { path: ['trustedProxies'], kind: 'list' },
  REDIS_URL: { path: ['redisUrl'], kind: 'string' },
  WPK_PAY_URL: { path: ['pay', 'url'], kind: 'string' },
  WPK_PAY_WEBHOOK_SECRET: { path: ['pay', 'webhookSecret'], kind: 'string' },
  WPK_PAY_TIMEOUT_MS: { path: ['pay', 'timeoutMs'], kind: 'number' },
  WPK_PAY_POLL_INTERVAL_MS: { path: ['pay', 'pollIntervalMs'], kind: 'number' },
  WPK_PAY_PROFILE: { path: ['pay', 'profile'], kind: 'string' },
  WPK_PAY_TOKEN_HEADER: { path: ['pay', 'tokenHeader'], kind: 'string' },
  WPK_PAY_TOKEN: { path: ['pay', 'token'], kind: 'json' },
  WPK_PAY_DIALECT: { path: ['pay', 'dialect'], kind: 'json' },
  WPK_PAY_THREAD: { path: ['pay', 'thread'], kind: 'string' },
  WPK_PAY_THREAD_NICENESS: { path: ['pay', 'threadNiceness'], kind: 'number' },
  WPK_PAY_RECONCILE_INTERVAL_MS: { path: ['pay', 'reconcile', 'intervalMs'], kind: 'number' },
  WPK_PAY_RECONCILE_LOOKBACK_MS: { path: ['pay', 'reconcile', 'lookbackMs'], kind: 'number' },
  WPK_AUDIT_RETENTION_DAYS: { path: ['audit', 'retentionDays'], kind: 'number' },
  DATABASE_URL: { path: ['database', 'url'], kind: 'string' },
  WPK_DATA_DIR: { path: ['database', 'dataDir'], kind: 'string' },
  WPK_DATABASE_SCHEMA: { path: ['database', 'schema'], kind: 'string' },
};

/** The value a variable's raw text stands for, by its kind (left as text where it does not parse). */
export function envValue(raw: string, kind: 'string' | 'number' | 'list' | 'tills' | 'json'): unknown {
  if (kind === 'json') {
    try {
      return JSON.parse(raw);
    } catch {
      // Left as text: the field's rule then names it (must be an object), never echoing the value.
      return raw;
    }
  }
  if (kind === 'number') return /^\s*-?\d+\s*$/.test(raw) ? Number(raw) : raw;
  if (kind === 'list')
    return raw
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  if (kind === 'tills') {
    // id:key pairs, comma separated; a key may itself contain ':'.
    return raw
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)
      .map((pair) => {
        const at = pair.indexOf(':');
        return at < 0 ? { id: pair, key: '' } : { id: pair.slice(0, at), key: pair.slice(at + 1) };
      });
  }
  return raw;
}

/** Sets `path` in `target`, copying the objects on the way so the caller's nested input is not changed. */
export function setPath(target: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let node = target;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    node[key] = typeof next === 'object' && next !== null && !Array.isArray(next) ? { ...next } : {};
    node = node[key] as Record<string, unknown>;
  }
  node[path[path.length - 1]!] = value;
}
