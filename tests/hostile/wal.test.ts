import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PrivateStore } from '../../src/db/private-store.ts';
import { KeyService } from '../../src/access/keys.ts';
import { admitKeyed } from '../../src/server/quota.ts';
import { keepWalSmall } from '../../src/db/checkpoint.ts';

/**
 * Issue 21 item 4: private.db's WAL grew ~16 KB per counted request and never checkpointed while
 * quota counting was the only writer (its INSERT … RETURNING ran through `.get()`). The loop drives
 * `admitKeyed` — the function every keyed endpoint calls after the key check (quota.ts), through
 * KeyService.countRequest and PrivateStore.admitRequest: the same code path as over HTTP.
 */

const WAL_LIMIT = 8 * 1024 * 1024;
const walSize = (db: string) => {
  try {
    return statSync(`${db}-wal`).size;
  } catch {
    return 0;
  }
};

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('private.db WAL under quota counting', () => {
  it('20,000 counted requests leave the WAL under 8 MB; a quiet checkpoint truncates it to 0', async () => {
    dir = mkdtempSync(join(tmpdir(), 'lpa-wal-'));
    const path = join(dir, 'private.db');
    const store = new PrivateStore(path);
    // one fixed clock for the key service (which picks the quota's day) and the deps: the test must
    // not depend on the day it runs (a CI run that crossed midnight UTC counted on the next day)
    const now = () => Date.UTC(2026, 10, 25, 12);
    const keys = new KeyService(store, 'x'.repeat(32), now);
    const { id } = await keys.create('wal');
    const deps = { keys, dailyQuota: 1_000_000, countUsage: true, now };
    let largest = 0;
    for (let i = 1; i <= 20_000; i++) {
      const usage = await admitKeyed(deps, id);
      expect(usage.exceeded).toBe(false);
      if (i % 500 === 0) {
        largest = Math.max(largest, walSize(path));
        // stop early on the old code instead of writing 300 MB of WAL
        if (largest > WAL_LIMIT) break;
      }
    }
    console.log(`wal: largest ${(largest / 1024 / 1024).toFixed(2)} MB over 20,000 counted requests, final ${(walSize(path) / 1024 / 1024).toFixed(2)} MB`);
    expect(largest).toBeLessThan(WAL_LIMIT);
    expect(store.usage(id, '2026-11-25')).toBe(20_000);

    // the timer's tick: the first after writes is PASSIVE, the next with no write in between TRUNCATEs
    const keeper = keepWalSmall(store.db, 3_600_000);
    expect(keeper.tick()).toBe('passive');
    expect(keeper.tick()).toBe('truncate');
    expect(walSize(path)).toBe(0);
    await admitKeyed(deps, id);
    expect(keeper.tick()).toBe('passive');
    keeper.stop();
    store.close();
  });
});
