/**
 * The daily RPC budget of funder lookups and afterwards reads (src/ingest/funding.ts FunderBudget)
 * over a real SQLite store: counted in memory, written as an atomic increment, shared between
 * budgets (processes) on one store without lost updates, and per UTC day.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PublicStore } from '../../src/db/public-store.ts';
import { FunderBudget } from '../../src/ingest/funding.ts';

const DAY1 = Date.parse('2026-11-23T10:00:00Z');
const DAY2 = Date.parse('2026-11-24T00:00:01Z');

describe('FunderBudget', () => {
  let dir: string;
  let store: PublicStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'lpa-budget-'));
    store = new PublicStore(join(dir, 'public.db'));
  });
  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const used = (day: string) => Number(store.getMeta(`funder_rpc_${day}`) ?? '0');

  it('refuses a take that would pass the daily limit, takes nothing then, and writes what it took on flush', () => {
    const b = new FunderBudget(store, 10, () => DAY1);
    expect(b.take(6)).toBe(true);
    expect(b.take(5)).toBe(false); // 11 > 10: nothing taken
    expect(b.take(4)).toBe(true); // exactly 10
    expect(b.take(1)).toBe(false);
    expect(used('2026-11-23')).toBe(0); // not written yet (fewer than FLUSH_EVERY calls)
    b.flush();
    expect(used('2026-11-23')).toBe(10);
    b.flush(); // nothing pending: no second add
    expect(used('2026-11-23')).toBe(10);
  });

  it('writes the count every FLUSH_EVERY calls, so a crash loses fewer than that', () => {
    const b = new FunderBudget(store, 1000, () => DAY1);
    for (let i = 0; i < FunderBudget.FLUSH_EVERY; i++) b.take(1);
    expect(used('2026-11-23')).toBe(FunderBudget.FLUSH_EVERY);
    b.take(1);
    expect(used('2026-11-23')).toBe(FunderBudget.FLUSH_EVERY);
  });

  it('two budgets on one store (collector and a rebuild) add up instead of overwriting each other', () => {
    const other = new PublicStore(join(dir, 'public.db'));
    try {
      const a = new FunderBudget(store, 40, () => DAY1);
      const b = new FunderBudget(other, 40, () => DAY1);
      expect(a.take(10)).toBe(true);
      expect(b.take(20)).toBe(true); // b read 0 stored; a's 10 not written yet
      a.flush();
      b.flush();
      expect(used('2026-11-23')).toBe(30);
      // b's flush read back the stored total: 30 + 11 > 40
      expect(b.take(11)).toBe(false);
      expect(b.take(10)).toBe(true);
    } finally {
      other.close();
    }
  });

  it('counts per UTC day: a new day starts from zero and the old day keeps its count', () => {
    let t = DAY1;
    const b = new FunderBudget(store, 10, () => t);
    expect(b.take(10)).toBe(true);
    expect(b.take(1)).toBe(false);
    t = DAY2;
    expect(b.take(7)).toBe(true); // the day change wrote day 1
    expect(used('2026-11-23')).toBe(10);
    b.flush();
    expect(used('2026-11-24')).toBe(7);
  });
});
