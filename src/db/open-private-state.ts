import type { Config } from '../config.ts';
import type { PrivateState } from './private-state.ts';
import { SqlitePrivateState } from './private-state-sqlite.ts';
import { PgPrivateState } from './private-state-pg.ts';

/**
 * The private state the configuration selects: PostgreSQL when `PRIVATE_DB_URL` is set (cluster
 * mode: every API node shares it), else `DATA_DIR/private.db` (SQLite, the single-machine default).
 * `onIdleError` receives errors of idle PostgreSQL connections (the database restarted).
 */
export function openPrivateState(config: Pick<Config, 'PRIVATE_DB_URL' | 'privateDbPath'>, opts: { onIdleError?: (e: Error) => void } = {}): PrivateState {
  if (config.PRIVATE_DB_URL) return PgPrivateState.open({ url: config.PRIVATE_DB_URL, onIdleError: opts.onIdleError });
  return SqlitePrivateState.open(config.privateDbPath);
}
