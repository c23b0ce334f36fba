import type { Config } from '../../src/config.ts';
import { createLogger, redactUrl } from '../../src/log.ts';
import { PublicStore } from '../../src/db/public-store.ts';
import { logMigrations } from '../../src/db/open.ts';
import { createArchiveRpc } from '../../src/chain/rpc.ts';
import { collect } from '../collect.ts';
import { limitHeapGrowth } from '../../src/heap-limits.ts';
import { holdCollectorLock, type CollectorLock } from '../run/collector-lock.ts';

/**
 * `lpa collect [--once]`: run the collector against `SOLANA_RPC_URL`. SIGINT/SIGTERM stop it after
 * the batch in flight (a batch is one SQLite transaction, so even a kill -9 loses nothing).
 * Exit code 1 when `--once` could not catch up (cron mails the operator).
 * @returns the exit code: 0, or for `--once` stopped by a signal before it caught up 130 (SIGINT),
 * 143 (SIGTERM) or 1 (`signal`): a cron run that was stopped did not catch up and must not say so.
 * One collector per DATA_DIR: `opts.lock`, the lock its caller holds already (`lpa start` takes it
 * before it starts the server), else taken here and released at the end. Errors:
 * CollectorRunningError (collector/run/collector-lock.ts) when another collector holds it.
 */
export async function runCollect(config: Config, opts: { once: boolean; lock?: CollectorLock }, signal?: AbortSignal): Promise<number> {
  const lock = opts.lock ?? holdCollectorLock(config.dataDir);
  try {
    return await collectHolding(config, opts, signal);
  } finally {
    if (!opts.lock) lock.release();
  }
}

async function collectHolding(config: Config, opts: { once: boolean }, signal?: AbortSignal): Promise<number> {
  const log = createLogger(config.LOG_LEVEL, 'collector', { format: config.LOG_FORMAT });
  limitHeapGrowth(config.HEAP_GROWTH_PERCENT);
  const openedAt = Date.now();
  const store = new PublicStore(config.publicDbPath);
  logMigrations(log, store.db, openedAt);
  const rpc = createArchiveRpc({
    url: config.SOLANA_RPC_URL,
    onRetry: (i) => log.warn(i, 'RPC call retried'),
  });
  const ac = new AbortController();
  let stoppedBy: string | null = null;
  const stop = (sig?: unknown) => {
    stoppedBy ??= typeof sig === 'string' ? sig : 'abort';
    ac.abort();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  signal?.addEventListener('abort', stop, { once: true });
  try {
    await collect(
      { config, store, rpc, log },
      {
        once: opts.once,
        wsUrl: config.wsUrl,
        signal: ac.signal,
        onBatch: (b) => {
          // a whole line each time: a line rewritten in place (\r) was left open, and the next log line ran on after it (an operator's review)
          if (opts.once && process.stderr.isTTY) process.stderr.write(`collect: ${b.transactions} transactions committed, cursor slot ${b.cursorSlot}\n`);
        },
      },
    );
    const c = store.counts();
    const cursor = store.getCursor('program')?.slot ?? null;
    if (opts.once && stoppedBy !== null) {
      // everything committed before the stop is kept (each batch is one transaction); the next run resumes from the cursor
      log.warn({ records: c.records, observedAtLaunch: c.launches, cursor, signal: stoppedBy }, 'stopped before catching up; the next run resumes from the cursor');
      return stoppedBy === 'SIGINT' ? 130 : stoppedBy === 'SIGTERM' ? 143 : 1;
    }
    log.info({ records: c.records, observedAtLaunch: c.launches, cursor }, opts.once ? 'caught up' : 'stopped');
    if (c.records === 0 && config.COLLECT_START === 'latest' && store.getCursor('program')) {
      log.info(`0 records: COLLECT_START=latest watches from the newest signature on, so nothing older is read. To read the program's whole history from ${redactUrl(config.SOLANA_RPC_URL)} (a replay, a test chain), run with COLLECT_START=earliest on a new DATA_DIR`);
    }
    return 0;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    store.close();
  }
}
