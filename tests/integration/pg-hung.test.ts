/**
 * A PostgreSQL that accepts connections but does not answer (its processes stopped: SIGSTOP) makes a
 * keyed request's private-state call fail as unavailable after the query timeout — the server's 503
 * `unavailable` with Retry-After — where it waited forever (a cluster review: curl gave up after
 * 30 s, a request through nginx waited 117 s). When it answers again, the state works again.
 */
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgPrivateState } from '../../src/db/private-state-pg.ts';
import { PrivateStateUnavailable } from '../../src/db/private-state.ts';
import { startPostgres, type TestPostgres } from '../helpers/postgres.ts';

let pgc: TestPostgres;
beforeAll(() => {
  pgc = startPostgres();
});
afterAll(() => pgc?.destroy());

/** Send `signal` to the postmaster and every process it started. */
function signalCluster(signal: 'STOP' | 'CONT'): void {
  const pid = readFileSync(join(pgc.dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]!.trim();
  execFileSync('kill', [`-${signal}`, pid]);
  try {
    execFileSync('pkill', [`-${signal}`, '-P', pid]);
  } catch {
    // no child matched: nothing more to signal
  }
}

describe('a PostgreSQL that does not answer', () => {
  it('fails a call as unavailable after the query timeout, and works again when it answers', async () => {
    const state = PgPrivateState.open({ url: pgc.url, queryTimeoutMs: 800 });
    try {
      const id = await state.insertKey('hung', 'lpa_test', 'a'.repeat(64), Date.now());
      expect(await state.admitRequest(id, '2026-11-28', 10)).toBe(1);
      signalCluster('STOP');
      const t0 = Date.now();
      let err: unknown;
      try {
        await state.admitRequest(id, '2026-11-28', 10);
      } catch (e) {
        err = e;
      } finally {
        signalCluster('CONT');
      }
      expect(err).toBeInstanceOf(PrivateStateUnavailable);
      expect(Date.now() - t0).toBeLessThan(5_000);
      // answering again: a new call succeeds (the timed-out connection is not reused)
      let after: number | null = null;
      for (let i = 0; i < 20 && after === null; i++) after = await state.admitRequest(id, '2026-11-28', 10).catch(() => null);
      expect(after).not.toBeNull();
    } finally {
      await state.close();
    }
  }, 60_000);
});
