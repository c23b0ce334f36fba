import { describe, expect, it } from 'vitest';
import { cpuSecondsOfStat, rssBytesOfStatus, rssGrowth } from '../../bench/soak/proc.ts';
import { isPlainTrade, keepCopiedReserves, mainnetRateChain, withReserves } from '../../bench/soak/mainnet-chain.ts';
import type { ChainAccount } from '../../devchain/replay/account.ts';
import type { ChainTransaction } from '../../devchain/replay/transaction.ts';

describe('soak /proc parsers', () => {
  it('reads utime + stime after the command name, spaces and parentheses included', () => {
    expect(cpuSecondsOfStat('42 (node (x) y) S 1 42 42 0 -1 4194560 1 0 0 0 250 50 0 0 20 0 11')).toBe(3);
  });
  it('reads VmRSS in bytes; NaN without it', () => {
    expect(rssBytesOfStatus('Name:\tnode\nVmPeak:\t 9 kB\nVmRSS:\t  1024 kB\n')).toBe(1024 * 1024);
    expect(rssBytesOfStatus('Name:\tnode\n')).toBeNaN();
  });
  it('RSS growth: median of the last minute over the first minute after warm-up', () => {
    const samples = Array.from({ length: 60 }, (_, i) => ({ atMs: i * 5_000, cpuS: i, rssBytes: i < 12 ? 50 : i < 24 ? 100 : 100 + (i >= 48 ? 5 : 0) }));
    expect(rssGrowth(samples, 60_000, 60_000)).toBeCloseTo(0.05);
  });
});

const PUMP_LOG = 'Program 6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P invoke [1]';
function tx(sig: string, slot: number, blockTime: number, payer: string, mint: string, names: string[], err: unknown = null): ChainTransaction {
  return {
    signature: sig, slot, blockTime, version: 0, err, logs: [PUMP_LOG, ...names.map((n) => `Program log: Instruction: ${n}`)], accountKeys: [payer, mint],
    storedEncoding: 'json', raw: { version: 0, signatures: [sig], message: { header: { numRequiredSignatures: 1, numReadonlySignedAccounts: 0, numReadonlyUnsignedAccounts: 0 }, accountKeys: [payer, mint], recentBlockhash: 'x', instructions: [] } } as never,
    metaJson: {}, parsed: null, wireBase64: null,
  };
}

describe('mainnetRateChain', () => {
  it('knows a plain trade by its instruction logs', () => {
    expect(isPlainTrade(tx('a', 1, 1, 'w', 'm', ['BuyV3', 'TransferChecked']))).toBe(true);
    expect(isPlainTrade(tx('a', 1, 1, 'w', 'm', ['Buy', 'CreateV2']))).toBe(false);
    expect(isPlainTrade(tx('a', 1, 1, 'w', 'm', ['TransferChecked']))).toBe(false);
  });

  it('spreads the simulated chain over the run and tops every slot up with copies of later non-cohort trades', () => {
    const t0 = 1_790_000_000;
    const base = [
      tx('create', 100, t0, 'creator', 'MINT', ['CreateV2', 'BuyV3']),
      tx('early', 101, t0 + 5, 'sniper', 'MINT', ['BuyV3']),
      tx('late', 900, t0 + 600, 'trader', 'MINT', ['SellV3']),
      tx('late2', 950, t0 + 700, 'sniper', 'MINT', ['BuyV3']), // a cohort wallet: never copied
    ];
    const r = mainnetRateChain({ dir: null, transactions: base, accounts: [], slot: null, blockTimes: new Map() }, [{ mint: 'MINT', creationSignature: 'create', createdAtMs: t0 * 1000, creator: 'creator', completes: false }], {
      seconds: 4, tps: 10, firstSlot: 5000, seed: 1,
    });
    expect(r.summary.perSlot).toBe(4);
    expect(r.launches).toEqual([{ mint: 'MINT', signature: 'create', slot: 5000 }]);
    const txs = r.chain.transactions;
    expect(txs.map((t) => t.slot)).toEqual([...txs.map((t) => t.slot)].sort((a, b) => a - b));
    expect(txs[0]!.slot).toBe(5000);
    const copies = txs.filter((t) => !['create', 'early', 'late', 'late2'].includes(t.signature));
    expect(copies.length).toBeGreaterThan(0);
    // copies only of the later trade by a wallet outside the cohort, with a new signature in raw too, block time kept
    for (const c of copies) {
      expect(c.accountKeys[0]).toBe('trader');
      expect(c.raw!.signatures[0]).toBe(c.signature);
      expect(c.blockTime).toBe(t0 + 600);
    }
    expect(new Set(txs.map((t) => t.signature)).size).toBe(txs.length);
  });
});

describe('copied trades move their curve', () => {
  /** a BondingCurve-shaped account: discriminator, four u64 reserves, then other fields (here: a fee counter) */
  const curve = (slot: number, vt: bigint, fee: number): ChainAccount => {
    const data = Buffer.alloc(49);
    data.writeBigUInt64LE(vt, 8);
    data.writeBigUInt64LE(vt / 2n, 16);
    data[48] = fee;
    return { address: 'CURVE', slot, data, lamports: 1, owner: 'pump', executable: false, rentEpoch: 0, space: 49 };
  };
  const vt = (a: ChainAccount) => a.data.readBigUInt64LE(8);

  it('a copy sets the four reserves and keeps the other fields', () => {
    const v = withReserves(curve(10, 1000n, 7), 15, [900n, 450n, null, 5n]);
    expect(v.slot).toBe(15);
    expect([vt(v), v.data.readBigUInt64LE(16), v.data.readBigUInt64LE(24), v.data.readBigUInt64LE(32), v.data[48]]).toEqual([900n, 450n, 0n, 5n, 7]);
  });

  it('a later simulated version that did not trade (a fee sweep) keeps the reserves the copies left; one that traded keeps its own', () => {
    // base: a trade (1000) at 10, a sweep at 20 (reserves as they were, fee counter reset), a trade (800) at 30; a copy (900) at 15
    const base = [curve(10, 1000n, 7), curve(20, 1000n, 0), curve(30, 800n, 0)];
    const accounts = [...base, withReserves(base[0]!, 15, [900n, 450n, null, null])];
    keepCopiedReserves(accounts, new Set(['CURVE']), base.length);
    expect(accounts.map((a) => [a.slot, vt(a), a.data[48]])).toEqual([[10, 1000n, 7], [20, 900n, 0], [30, 800n, 0], [15, 900n, 7]]);
    // a copy in the same slot as a simulated version lands after it: the base version is left alone
    const same = [curve(10, 1000n, 7), curve(15, 1000n, 0)];
    const withCopy = [...same, withReserves(same[0]!, 15, [900n, null, null, null])];
    keepCopiedReserves(withCopy, new Set(['CURVE']), same.length);
    expect(withCopy.map((a) => vt(a))).toEqual([1000n, 1000n, 900n]);
  });
});

describe('the soak section of docs/benchmarks.md', async () => {
  const { soakSectionOf, withSoakSection } = await import('../../bench/soak/docs-section.ts');
  it('npm run bench keeps it; npm run soak replaces it or appends it', () => {
    const bench = '# Benchmarks\n\n## Server\n\nfigures\n';
    expect(soakSectionOf(bench)).toBe('');
    const withSoak = withSoakSection(bench, '## Soak: one\n\nold\n');
    expect(withSoak).toBe('# Benchmarks\n\n## Server\n\nfigures\n\n## Soak: one\n\nold\n');
    expect(soakSectionOf(withSoak)).toBe('## Soak: one\n\nold\n');
    expect(withSoakSection(withSoak, '## Soak: two\n')).toBe('# Benchmarks\n\n## Server\n\nfigures\n\n## Soak: two\n');
    // a new bench document keeps the old soak section
    expect(withSoakSection('# Benchmarks\n\n## Server\n\nnew\n', soakSectionOf(withSoak))).toBe('# Benchmarks\n\n## Server\n\nnew\n\n## Soak: one\n\nold\n');
  });
});
