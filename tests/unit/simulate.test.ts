/**
 * The chain simulator (collector/simulate): determinism, coverage of every launch kind, mainnet
 * getTransaction shapes, events emitted twice (log + self-CPI), era byte lengths, curve math, truth
 * self-consistency and agreement with the rendered bytes, and canonical PDAs. The transactions here
 * are constructed by the simulator, not captured from mainnet.
 */
import { describe, expect, it, beforeAll } from 'vitest';
import { address, getAddressEncoder, getBase58Decoder, getBase58Encoder, getProgramDerivedAddress } from '@solana/kit';
import { generateChain, type SimulatedChain } from '../../collector/simulate/chain.ts';
import { ALL_KINDS } from '../../collector/simulate/scenarios.ts';
import { newCurve, quoteBuyTokens, quoteSell, applyTrade, INITIAL_REAL_TOKENS } from '../../collector/simulate/curve.ts';
import { pda, kitPda, curvePda, poolPda, ata, PUMP, PUMP_AMM, WSOL_MINT, TOKEN_PROGRAM } from '../../collector/simulate/keys.ts';
import { canonicalPoolAddress } from '../../src/chain/pda.ts';
import type { Truth } from '../../collector/simulate/truth.ts';

const b58 = getBase58Encoder();
const b58d = getBase58Decoder();
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const PUMP_ID = '6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P';
const AMM_ID = 'pAMMBay6oceH9fJKBRHGP5D4bD4sWpmSwMn52FMfXEA';
const EVENT_TAG = 'e445a52e51cb9a1d';
const DISC = {
  TradeEvent: 'bddb7fd34ee661ee', CreateEvent: '1b72a94ddeeb6376', CompleteEvent: '5f72619cd42e9808',
  CompletePumpAmmMigrationEvent: 'bde95db95c94ea94', CreatePoolEvent: 'b1310cd2a076a774',
  // PumpSwap SellEvent (reference.md §1.6 discriminators): a buyout wallet selling in the pool
  SellEvent: '3e2f370aa503dc2a',
  // the 2026-10 era (shared/chain/idl/2026-10/DIFF.md): synthetic migration, fee sweeps
  PostCompleteBuyEvent: '6fb06d8b316cd5fb', SweepBondingCurveFeeEvent: '742b4dbd117a482b', SweepPoolFeeEvent: '82a42461e48287a5',
};
const KNOWN_EVENT_DISCS = new Set(Object.values(DISC));

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Tx = any;
let chain: SimulatedChain;
let txs: Tx[];
let truth: Truth;

interface Ev { disc: string; bytes: Uint8Array; program: string }
const evCache = new WeakMap<object, Ev[]>();
/** Events of a tx from self-CPI inner instructions (memoized). */
function cpiEvents(tx: Tx): Ev[] {
  const hit = evCache.get(tx);
  if (hit) return hit;
  const out = cpiEventsUncached(tx);
  evCache.set(tx, out);
  return out;
}
function cpiEventsUncached(tx: Tx): Ev[] {
  const keys: string[] = tx.transaction.message.accountKeys;
  const out: Ev[] = [];
  for (const group of tx.meta.innerInstructions) {
    for (const ix of group.instructions) {
      const program = keys[ix.programIdIndex];
      if (program !== PUMP_ID && program !== AMM_ID) continue;
      const data = new Uint8Array(b58.encode(ix.data));
      if (hex(data.slice(0, 8)) !== EVENT_TAG) continue;
      out.push({ disc: hex(data.slice(8, 16)), bytes: data.slice(8), program });
    }
  }
  return out;
}
const logEvents = (tx: Tx): Uint8Array[] =>
  (tx.meta.logMessages as string[]).filter((l) => l.startsWith('Program data: ')).map((l) => new Uint8Array(Buffer.from(l.slice(14), 'base64')));

/** Minimal TradeEvent decode (the 10-field 2024 prefix). */
function trade(b: Uint8Array) {
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  return {
    mint: b58d.decode(b.slice(8, 40)), sol: dv.getBigUint64(40, true), tokens: dv.getBigUint64(48, true), isBuy: b[56] === 1,
    user: b58d.decode(b.slice(57, 89)), vSol: dv.getBigUint64(97, true), vTok: dv.getBigUint64(105, true), rSol: dv.getBigUint64(113, true), rTok: dv.getBigUint64(121, true),
  };
}

beforeAll(() => {
  chain = generateChain({ launches: 100, seed: 20260101 });
  txs = chain.transactions.map((l) => JSON.parse(l));
  truth = chain.truth;
});

describe('simulate: determinism', () => {
  it('same seed gives identical bytes; another seed differs', () => {
    const a = generateChain({ launches: 60, seed: 5 });
    const b = generateChain({ launches: 60, seed: 5 });
    const c = generateChain({ launches: 60, seed: 6 });
    expect(a.transactions.join('\n')).toBe(b.transactions.join('\n'));
    expect(a.accounts.join('\n')).toBe(b.accounts.join('\n'));
    expect(JSON.stringify(a.truth)).toBe(JSON.stringify(b.truth));
    expect(a.transactions.join('\n')).not.toBe(c.transactions.join('\n'));
  });
});

describe('simulate: coverage', () => {
  it('every kind appears at N=100', () => {
    const missing = ALL_KINDS.filter((k) => !(chain.summary.kinds[k] > 0));
    expect(missing).toEqual([]);
    expect(Object.keys(truth.records)).toHaveLength(100);
  });
});

describe('simulate: getTransaction json v0 shape', () => {
  it('every line is a valid, block-ordered getTransaction result', () => {
    let prevSlot = 0;
    for (const tx of txs) {
      // version 1 (2026-10 era, SIMD-0385) has its own shape, checked in 'simulate: 2026-10 era'
      const v1 = tx.version === 1;
      if (!v1) expect(tx.version).toBe(0);
      expect(tx.slot).toBeGreaterThanOrEqual(prevSlot);
      prevSlot = tx.slot;
      expect(tx.blockTime).toBe(chain.chain.genesisTime + Math.floor(((tx.slot - chain.chain.firstSlot) * 2) / 5));
      const m = tx.transaction.message;
      const n = m.accountKeys.length;
      expect(new Set(m.accountKeys).size).toBe(n);
      expect(tx.transaction.signatures).toHaveLength(m.header.numRequiredSignatures);
      if (!v1) expect(m.addressTableLookups).toEqual([]);
      for (const ix of m.instructions) {
        if (!v1) expect(ix.stackHeight).toBeNull();
        expect(ix.programIdIndex).toBeLessThan(n);
        for (const a of ix.accounts) expect(a).toBeLessThan(n);
      }
      expect(tx.meta.preBalances).toHaveLength(n);
      expect(tx.meta.postBalances).toHaveLength(n);
      expect(tx.meta.fee).toBe(v1 ? 5000 + m.transactionConfig.priorityFee : 5000);
      for (const g of tx.meta.innerInstructions) {
        expect(g.index).toBeLessThan(m.instructions.length);
        for (const ix of g.instructions) expect(ix.stackHeight).toBeGreaterThanOrEqual(2);
      }
      for (const tb of [...tx.meta.preTokenBalances, ...tx.meta.postTokenBalances]) {
        expect(tb.uiTokenAmount.decimals).toBe(6);
        expect(typeof tb.uiTokenAmount.amount).toBe('string');
        expect(tb.accountIndex).toBeLessThan(n);
      }
      if (tx.meta.err) {
        expect(tx.meta.status).toEqual({ Err: tx.meta.err });
        expect(tx.meta.innerInstructions).toEqual([]);
        expect(logEvents(tx)).toEqual([]);
        expect(tx.meta.postBalances.reduce((s: number, x: number) => s + x, 0)).toBe(tx.meta.preBalances.reduce((s: number, x: number) => s + x, 0) - tx.meta.fee);
      } else expect(tx.meta.status).toEqual({ Ok: null });
      for (const b of tx.meta.postBalances) expect(b).toBeGreaterThanOrEqual(0);
    }
    expect(txs.some((t) => t.meta.err?.InstructionError?.[1]?.Custom === 6005)).toBe(true);
  });
});

describe('simulate: events', () => {
  it('every event appears as a Program data log and as a self-CPI with a known discriminator', () => {
    for (const tx of txs) {
      const cpi = cpiEvents(tx).map((e) => hex(e.bytes)).sort();
      const logs = logEvents(tx).map(hex).sort();
      expect(cpi).toEqual(logs);
      for (const e of cpiEvents(tx)) expect(KNOWN_EVENT_DISCS.has(e.disc)).toBe(true);
    }
    expect(txs.some((t) => cpiEvents(t).some((e) => e.disc === DISC.CreatePoolEvent && e.program === AMM_ID))).toBe(true);
    expect(txs.some((t) => cpiEvents(t).some((e) => e.disc === DISC.SellEvent && e.program === AMM_ID))).toBe(true);
  });

  it('event payload lengths follow the era (TradeEvent 121 / 217 / full; CompleteEvent 104 before 2026; sizes exclude the 8-byte disc)', () => {
    const eraOf = new Map(Object.entries(truth.records).map(([mint, r]) => [mint, Number(r.kind.slice(3, 7))]));
    const seen = new Set<string>();
    for (const tx of txs) {
      for (const e of cpiEvents(tx)) {
        if (e.disc === DISC.TradeEvent) {
          const era = eraOf.get(trade(e.bytes).mint)!;
          const len = e.bytes.length - 8;
          if (era === 2024) expect(len).toBe(121);
          else if (era === 2025) expect(len).toBe(217);
          else expect(len).toBeGreaterThan(330);
          seen.add(`trade${era}`);
        }
        if (e.disc === DISC.CompleteEvent) {
          const era = eraOf.get(b58d.decode(e.bytes.slice(40, 72)))!;
          expect(e.bytes.length - 8).toBe(era === 2026 ? 136 : 104);
        }
      }
    }
    expect([...seen].sort()).toEqual(['trade2024', 'trade2025', 'trade2026']);
  });
});

describe('simulate: curve math', () => {
  it('prices, caps at the real reserves, completes exactly at 0', () => {
    const c = newCurve(false);
    const q = quoteBuyTokens(c, 2n * INITIAL_REAL_TOKENS, 2024);
    expect(q.tokens).toBe(INITIAL_REAL_TOKENS);
    expect(q.completes).toBe(true);
    applyTrade(c, q, true);
    expect(c.rT).toBe(0n);
    expect(c.vT).toBe(279_900_000_000_000n);
    expect(c.complete).toBe(true);
    expect(Number(c.rQ) / 1e9).toBeCloseTo(85.005, 2);
    const c2 = newCurve(false);
    const b = quoteBuyTokens(c2, 10_000_000_000_000n, 2026);
    applyTrade(c2, b, true);
    const s = quoteSell(c2, b.tokens, 2026);
    expect(s.quote).toBeLessThanOrEqual(b.quote);
  });

  it('on chain: reserves never negative, completion exactly when real_token_reserves hits 0', () => {
    let completions = 0;
    for (const tx of txs) {
      if (tx.meta.err) continue;
      const evs = cpiEvents(tx);
      for (let i = 0; i < evs.length; i++) {
        if (evs[i].disc !== DISC.TradeEvent) continue;
        const t = trade(evs[i].bytes);
        expect(t.rTok).toBeGreaterThanOrEqual(0n);
        expect(t.vTok).toBeGreaterThan(0n);
        const next = evs[i + 1];
        if (t.rTok === 0n) {
          expect(next?.disc).toBe(DISC.CompleteEvent);
          completions++;
        } else if (next) expect(next.disc).not.toBe(DISC.CompleteEvent);
      }
    }
    expect(completions).toBe(Object.values(truth.records).filter((r) => r.completed).length);
  });
});

describe('simulate: truth', () => {
  it('is self-consistent (flags ⇔ counts, classes, buyout, graduation)', () => {
    for (const r of Object.values(truth.records)) {
      const codes = r.flags.map((f) => f.code);
      expect([...codes].sort()).toEqual(codes);
      expect(codes.includes('creator_kept_majority')).toBe(r.creatorSupplyPct > 50);
      expect(codes.includes('no_outside_curve_buyer')).toBe(r.curveBuyers === 0);
      expect(codes.includes('bundled_buyers')).toBe(r.bundledBuyers > 0);
      expect(codes.includes('creator_sold')).toBe(r.creatorSold);
      expect(codes.includes('shared_funder')).toBe(r.funderSharedCohort.length > 0);
      expect(codes.includes('curve_taken_in_creation_slot')).toBe(!!r.curveBuyout?.sameBatchAsLaunch);
      expect(r.creatorSupplyPct).toBe((Number(r.creatorTokensRaw) / Number(1_000_000_000_000_000n)) * 100);
      expect(r.bundledBuyers).toBeLessThanOrEqual(r.buyersFirst30s);
      expect(r.buyersFirst30s).toBeLessThanOrEqual(r.curveBuyers);
      const findings = r.flags.some((f) => f.class === 'FINDINGS');
      expect(r.cleanAtBirth).toBe(!findings);
      expect(r.findingClass).toBe(findings ? 'FINDINGS' : r.flags.length ? 'NOTE' : 'NO_MARKERS');
      for (const f of r.flags) expect(f.evidence.length).toBeGreaterThan(0);
      expect(r.completed).toBe(r.curveBuyout !== null);
      if (r.graduated) expect(r.completed).toBe(true);
      if (r.curveBuyout) expect(r.curveBuyout.hoursAfterLaunch === null).toBe(r.curveBuyout.sameBatchAsLaunch);
      expect(r.graduationConfirmedBy === 'withdraw').toBe(r.kind.includes('withdraw_graduation'));
    }
  });

  it('agrees with the rendered bytes (outside buyers, bundles, first 30 s, creator tokens)', () => {
    const protocol = new Set(['BwWK17cbHxwWBKZkUYvzxLcNQ1YVyaFezduWbtm2de6s', '39azUYFWPz3VHgKCf3VChUwbpURdCHRxjWVowf5jUJjg']);
    const byMint = new Map<string, { tx: Tx; t: ReturnType<typeof trade> }[]>();
    for (const tx of txs) {
      if (tx.meta.err) continue;
      for (const e of cpiEvents(tx)) {
        if (e.disc !== DISC.TradeEvent) continue;
        const t = trade(e.bytes);
        byMint.set(t.mint, [...(byMint.get(t.mint) ?? []), { tx, t }]);
      }
    }
    for (const [mint, r] of Object.entries(truth.records)) {
      const buyers = new Set<string>();
      const bundled = new Set<string>();
      const first = new Set<string>();
      let creatorNet = 0n;
      const created = Math.floor(r.createdAtMs / 1000);
      for (const { tx, t } of byMint.get(mint) ?? []) {
        if (t.user === r.creator && tx.slot === r.creationSlot) creatorNet += t.isBuy ? t.tokens : -t.tokens;
        if (!t.isBuy || t.user === r.creator || protocol.has(t.user)) continue;
        buyers.add(t.user);
        if (tx.slot === r.creationSlot) bundled.add(t.user);
        if (tx.blockTime - created <= 30) first.add(t.user);
      }
      expect([mint, buyers.size, bundled.size, first.size, creatorNet.toString()]).toEqual([mint, r.curveBuyers, r.bundledBuyers, r.buyersFirst30s, r.creatorTokensRaw]);
    }
  });
});

describe('simulate: PDAs and accounts', () => {
  it('fast PDA derivation agrees with @solana/kit', async () => {
    const mint = Object.keys(truth.records)[0];
    expect(await kitPda(PUMP, ['bonding-curve', '@' + mint])).toBe(curvePda(mint));
    expect(await kitPda('ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL', ['@' + curvePda(mint), '@' + TOKEN_PROGRAM, '@' + mint])).toBe(ata(curvePda(mint), mint, TOKEN_PROGRAM));
    expect(pda(PUMP, ['__event_authority'])).toBe('Ce6TQqeHC9p8KetsN6JsjHK7UTZk7nasjjnr7XxXp9F1');
    expect(pda(PUMP_AMM, ['__event_authority'])).toBe('GS4CU59F31iL7aR2Q8zVS8DRrcRnXX1yjQ66TqNVQnaR');
    // docs example pool (reference.md §1.8)
    expect(poolPda('7LSsEoJGhLeZzGvDofTdNg7M3JttxQqGWNLo6vWMpump', WSOL_MINT)).toBe('GseMAnNDvntR5uFePZ51yZBXzNSn7GdFPkfHwfr6d77J');
  });

  it('curve and pool accounts are written at the kit-derived canonical addresses', async () => {
    const accounts = chain.accounts.map((l) => JSON.parse(l));
    const byAddress = new Map<string, Tx[]>();
    for (const a of accounts) byAddress.set(a.address, [...(byAddress.get(a.address) ?? []), a]);
    const enc = getAddressEncoder();
    for (const [mint, r] of Object.entries(truth.records)) {
      const [curve] = await getProgramDerivedAddress({ programAddress: address(PUMP_ID), seeds: ['bonding-curve', enc.encode(address(mint))] });
      const versions = byAddress.get(curve);
      expect(versions && versions.length).toBeGreaterThan(0);
      const last = Buffer.from(versions!.at(-1).account.data[0], 'base64');
      expect(hex(last.subarray(0, 8))).toBe('17b7f83760d8ac60');
      expect(last[48] === 1).toBe(r.completed);
      if (r.graduationConfirmedBy === 'migration_event') {
        expect(last.readBigUInt64LE(24)).toBe(0n);
        const pool = await canonicalPoolAddress(mint);
        const p = byAddress.get(pool);
        // a 2026-10 pool changes after migration (v2 sells keep fees: virtual_quote_reserves, protocol/creator fees; sweeps)
        if (r.kind.includes('era2026_10')) expect(p!.length).toBeGreaterThanOrEqual(1);
        else expect(p).toHaveLength(1);
        const data = Buffer.from(p![0].account.data[0], 'base64');
        expect(hex(data.subarray(0, 8))).toBe('f19a6d0411b16dbc');
        expect(b58d.decode(data.subarray(43, 75))).toBe(mint);
        expect(p![0].account.owner).toBe(AMM_ID);
      }
    }
  });
});
