/**
 * decode/transaction.ts `incompleteAnswer`: which getTransaction answers cannot show what the
 * transaction did, so that readers count them as failed reads instead of evidence that it did
 * nothing. On every whole-transaction mainnet fixture: the answer as the chain gave it is complete
 * (no real answer is refused); taken apart as a faulty provider would — no meta, no logs and no
 * inner instructions, or (a facts audit) truncated logs without the inner instructions that hold the
 * events past the cut — it is not, and for 3S2vFs (five bundled buys, truncated logs) the decode of
 * such an answer shows why: a trade event is missing, with nothing in `skipped` to say so.
 */
import { describe, expect, it } from 'vitest';
import { decodeTransaction, incompleteAnswer } from '../../src/core/decode/index.ts';
import { loadFixtureTransaction, wholeTransactionFixtures } from '../helpers/mainnet-fixtures.ts';

const fixtures = wholeTransactionFixtures();
const truncated = (a: { meta?: { logMessages?: unknown[] } | null }) => (a.meta?.logMessages ?? []).some((l) => typeof l === 'string' && l.startsWith('Log truncated'));
const clone = <T>(x: T): T => structuredClone(x);
const trades = (a: unknown) => decodeTransaction(a).events.filter((e) => e.name === 'TradeEvent').length;

describe('incompleteAnswer on real answers', () => {
  it('holds every whole-transaction fixture complete as the chain answered it', () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(20);
    for (const f of fixtures) expect(incompleteAnswer(loadFixtureTransaction(f)), f).toBeNull();
  });

  it('refuses each one without meta, or without both logs and inner instructions', () => {
    for (const f of fixtures) {
      const a = loadFixtureTransaction(f);
      if (!a.meta) continue;
      expect(incompleteAnswer({ ...a, meta: null }), f).toMatch(/no meta/);
      const bare = clone(a);
      delete bare.meta.logMessages;
      delete bare.meta.innerInstructions;
      expect(incompleteAnswer(bare), f).toMatch(/neither logMessages nor innerInstructions/);
    }
  });

  it('refuses a successful transaction whose logs are truncated and whose inner instructions are absent or empty', () => {
    const cut = fixtures.filter((f) => truncated(loadFixtureTransaction(f)));
    expect(cut.length).toBeGreaterThanOrEqual(1);
    for (const f of cut) {
      const a = loadFixtureTransaction(f);
      for (const inner of [null, []]) {
        const b = clone(a);
        b.meta.innerInstructions = inner;
        if (b.meta.err === null || b.meta.err === undefined) expect(incompleteAnswer(b), `${f} inner ${JSON.stringify(inner)}`).toMatch(/logs are truncated/);
        // the same answer for a transaction that failed: it moved nothing, so nothing is missing
        expect(incompleteAnswer({ ...b, meta: { ...b.meta, err: { InstructionError: [0, 'Custom'] } } }), f).toBeNull();
      }
    }
  });

  it('3S2vFs: without its inner instructions its truncated logs hold one trade event fewer, and skipped says nothing', () => {
    const f = fixtures.find((x) => x.includes('3S2vFs'))!;
    const a = loadFixtureTransaction(f);
    expect(truncated(a)).toBe(true);
    const b = clone(a);
    b.meta.innerInstructions = null;
    expect(trades(b)).toBeLessThan(trades(a));
    expect(decodeTransaction(b).skipped).toEqual([]);
    expect(incompleteAnswer(b)).toMatch(/logs are truncated/);
  });

  it('refuses a successful transaction answered with no logs and an empty list of inner instructions', () => {
    for (const f of fixtures) {
      const b = clone(loadFixtureTransaction(f));
      if (!b.meta || (b.meta.err !== null && b.meta.err !== undefined)) continue;
      delete b.meta.logMessages;
      b.meta.innerInstructions = [];
      expect(incompleteAnswer(b), f).toMatch(/no logMessages and no inner instructions/);
    }
  });
});
