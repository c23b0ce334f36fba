/**
 * A throwaway PostgreSQL cluster for tests: devchain/cluster/postgres.ts (the same start and stop as
 * `lpa cluster`) in a new temporary folder, removed by destroy().
 */
import { startPostgres as startLocalPostgres, type LocalPostgres } from '../../devchain/cluster/postgres.ts';

export { postgresBinDir } from '../../devchain/cluster/postgres.ts';

/** A running throwaway cluster (see LocalPostgres). */
export type TestPostgres = LocalPostgres;

/**
 * Create and start a cluster in a temporary folder. Errors: throws when PostgreSQL is not installed
 * (see `.ci/run`) or a command fails (its stderr in the message).
 */
export function startPostgres(): TestPostgres {
  return startLocalPostgres();
}
