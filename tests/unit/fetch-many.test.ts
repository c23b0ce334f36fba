/**
 * fetchMany (collector/read/fetch-many.ts): a batch the RPC could not answer is logged as the RPC's
 * failure, and a stop that aborts the reads in flight is not (an operator review found
 * `WARN transactions could not be read … AbortError` on every SIGTERM during a catch-up).
 */
import { describe, expect, it } from 'vitest';
import PQueue from 'p-queue';
import { fetchMany } from '../../collector/read/fetch-many.ts';
import { createLogger } from '../../src/log.ts';
import type { TransactionReader } from '../../src/chain/transaction-reader.ts';

function captured() {
  const lines: Record<string, unknown>[] = [];
  const log = createLogger('info', 'test', { format: 'json', destination: { write: (s: string) => void lines.push(JSON.parse(s) as Record<string, unknown>) } });
  return { log, lines };
}

/** A reader whose batch fails with `err` (after the caller's abort, when `abort` is given). */
const failing = (err: () => Error, abort?: AbortController) =>
  ({
    batchSize: 10,
    getTransactions: async () => {
      abort?.abort();
      throw err();
    },
  }) as unknown as TransactionReader;

describe('fetchMany', () => {
  it('logs a batch the RPC could not read, and marks each signature', async () => {
    const { log, lines } = captured();
    const failures = new Map();
    const out = await fetchMany(failing(() => new Error('HTTP 500')), new PQueue(), false, ['a', 'b'], log, undefined, (a) => a, failures);
    expect(out).toEqual([null, null]);
    expect(failures.size).toBe(2);
    expect(lines.map((l) => l.msg)).toEqual(['transactions could not be read']);
  });

  it('a stop aborting the reads in flight is not logged as the RPC failing (the signatures stay unread)', async () => {
    const { log, lines } = captured();
    const ac = new AbortController();
    const failures = new Map();
    const out = await fetchMany(failing(() => new DOMException('This operation was aborted', 'AbortError'), ac), new PQueue(), false, ['a', 'b'], log, ac.signal, (a) => a, failures);
    expect(out).toEqual([null, null]);
    expect(failures.size).toBe(2);
    expect(lines).toEqual([]);
  });
});
