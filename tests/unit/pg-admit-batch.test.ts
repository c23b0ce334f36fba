import { describe, expect, it } from 'vitest';
import { PgAdmitBatch } from '../../src/db/pg-admit-batch.ts';

/**
 * The batching of src/db/pg-admit-batch.ts over a stand-in for the `admit_keyed` statement (the
 * function itself runs against PostgreSQL in tests/integration/private-storage.test.ts): the rows
 * it would return for counts kept here, one call per batch.
 */
function standIn(keys: Record<string, { id: number; revokedAtMs?: number }>, counts = new Map<string, number>()) {
  const calls: unknown[][] = [];
  // statements wait here until open() (a batch held in flight)
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  const run = async (_sql: string, params: unknown[]) => {
    calls.push(params);
    await opened;
    const [hashes, days, ns, quotas] = params as [string[], string[], number[], number[]];
    const rows = hashes.map((hash, i) => {
      const k = keys[hash];
      if (!k || k.revokedAtMs !== undefined) return { group: i + 1, keyId: k?.id ?? null, hash: k ? hash : null, revokedAtMs: k?.revokedAtMs ?? null, before: null, admitted: 0 };
      const id = `${k.id}/${days[i]}`;
      const before = counts.get(id) ?? 0;
      const admitted = Math.max(0, Math.min(ns[i]!, quotas[i]! - before));
      counts.set(id, before + admitted);
      return { group: i + 1, keyId: k.id, hash, revokedAtMs: null, before, admitted };
    });
    return { rows: rows.reverse() }; // in any order: each row names its group
  };
  return { run, calls, counts, open };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('PgAdmitBatch', () => {
  it('sends the asks of one turn in one statement, one group per key, day and quota; each ask gets its own position', async () => {
    const db = standIn({ a: { id: 1 }, b: { id: 2 }, r: { id: 3, revokedAtMs: 5 } }, new Map([['1/d1', 8]]));
    db.open();
    const batch = new PgAdmitBatch(db.run);
    const asks = [batch.admit('a', 'd1', 10), batch.admit('b', 'd1', 10), batch.admit('a', 'd1', 10), batch.admit('a', 'd1', 10), batch.admit('x', 'd1', 10), batch.admit('r', 'd1', 10), batch.admit('a', 'd2', 10)];
    const out = await Promise.all(asks);
    expect(db.calls).toEqual([[['a', 'b', 'x', 'r', 'a'], ['d1', 'd1', 'd1', 'd1', 'd2'], [3, 1, 1, 1, 1], [10, 10, 10, 10, 10]]]);
    const a = { id: 1, hash: 'a', revokedAtMs: null };
    expect(out).toEqual([
      { key: a, count: { admitted: true, used: 9 } },
      { key: { id: 2, hash: 'b', revokedAtMs: null }, count: { admitted: true, used: 1 } },
      { key: a, count: { admitted: true, used: 10 } },
      { key: a, count: { admitted: false, used: 10 } }, // the third of key a on d1: past the quota, not counted
      { key: undefined, count: null },
      { key: { id: 3, hash: 'r', revokedAtMs: 5 }, count: null },
      { key: a, count: { admitted: true, used: 1 } },
    ]);
    expect(db.counts.get('1/d1')).toBe(10);
  });

  it('keeps one batch in flight: the asks made meanwhile go together in the next one, after it', async () => {
    const db = standIn({ a: { id: 1 } });
    const batch = new PgAdmitBatch(db.run);
    const first = batch.admit('a', 'd', 100);
    await tick();
    expect(db.calls.length).toBe(1);
    const later = [batch.admit('a', 'd', 100), batch.admit('a', 'd', 100)];
    await tick();
    await tick();
    const more = batch.admit('a', 'd', 100);
    await tick();
    expect(db.calls.length).toBe(1); // still waiting for the first
    db.open();
    expect((await first).count).toEqual({ admitted: true, used: 1 });
    expect((await Promise.all([...later, more])).map((a) => a.count!.used)).toEqual([2, 3, 4]);
    expect(db.calls.length).toBe(2);
    expect(db.calls[1]![2]).toEqual([3]);
  });

  it('a failed statement rejects every ask of its batch, and the next batch runs', async () => {
    let fail = true;
    const calls: unknown[][] = [];
    const batch = new PgAdmitBatch(async (_sql, params) => {
      calls.push(params);
      if (fail) throw new Error('down');
      return { rows: [{ group: 1, keyId: 1, hash: 'a', revokedAtMs: null, before: 0, admitted: 1 }] };
    });
    const asks = [batch.admit('a', 'd', 10), batch.admit('b', 'd', 10)];
    for (const a of asks) await expect(a).rejects.toThrow('down');
    fail = false;
    expect((await batch.admit('a', 'd', 10)).count).toEqual({ admitted: true, used: 1 });
    expect(calls.length).toBe(2);
  });

  it('a statement that leaves a group unanswered rejects that group rather than leaving it waiting', async () => {
    const batch = new PgAdmitBatch(async () => ({ rows: [{ group: 1, keyId: 1, hash: 'a', revokedAtMs: null, before: 0, admitted: 1 }] }));
    const [a, b] = [batch.admit('a', 'd', 10), batch.admit('b', 'd', 10)];
    expect((await a).count).toEqual({ admitted: true, used: 1 });
    await expect(b).rejects.toThrow(/answered 1 of 2/);
  });
});
