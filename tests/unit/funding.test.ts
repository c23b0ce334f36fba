import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SYSTEM_PROGRAM_ID, cohortPending, inboundTransfer, sharedFunders, solTransfersOf, type FunderFact } from '../../src/core/funding.ts';
import { toBase58 } from '../../src/core/decode/index.ts';
import { analyzeLaunch } from '../../src/core/record/build-launch.ts';
import { classifyLaunch } from '../../src/core/record/classify.ts';
import { createEvent, trade, tx } from '../helpers/synthetic-launch.ts';
import { writeChain } from '../../devchain/simulate/write-chain.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';

const FIX = join(import.meta.dirname, '..', 'fixtures', 'mainnet');
const fixture = (f: string) => JSON.parse(readFileSync(join(FIX, f), 'utf8'));

describe('System SOL transfers (funding source reading)', () => {
  it('reads jsonParsed transfers at any depth from a real 2026 mainnet transaction (values read off the fixture)', () => {
    const t = solTransfersOf(fixture('pump_2026-07_create_v2+extend+buy_exact_sol_in_getTransaction_jsonParsed.json'));
    expect(t[0]).toEqual({ from: '5htGpHK2oV9g2BcDqLdRBqjCLdy8mc3fsESfR5DU73eM', to: 'moonQBUKBpkifLcTd78bfxxt4PYLwmJ5admLW6cBBs8', lamports: '3000000' });
    expect(t.every((x) => x.from === '5htGpHK2oV9g2BcDqLdRBqjCLdy8mc3fsESfR5DU73eM')).toBe(true);
    // The creator only sends here: nothing inbound to it.
    expect(inboundTransfer(fixture('pump_2026-07_create_v2+extend+buy_exact_sol_in_getTransaction_jsonParsed.json'), '5htGpHK2oV9g2BcDqLdRBqjCLdy8mc3fsESfR5DU73eM')).toBeNull();
    expect(inboundTransfer(fixture('pump_2026-07_create_v2+extend+buy_exact_sol_in_getTransaction_jsonParsed.json'), 'moonQBUKBpkifLcTd78bfxxt4PYLwmJ5admLW6cBBs8')?.lamports).toBe('3000000');
  });

  it('reads json-encoded transfers (programIdIndex + base58 data) from the simulator, and a failed transaction transfers nothing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lpa-fund-'));
    try {
      const chain = writeChain({ launches: 60, seed: 5, out: dir });
      const group = Object.values(chain.truth.records).flatMap((r) => r.funderSharedCohort)[0]!;
      const lines = chain.transactions.map((l) => JSON.parse(l));
      // Each funded wallet's funding transaction names the shared funder as the source.
      const byWallet = group.wallets.map((w) => lines.map((raw) => ({ raw, t: inboundTransfer(raw, w) })).find((x) => x.t && group.signatures.includes(x.raw.transaction.signatures[0]))!);
      for (const x of byWallet) expect(x.t!.from).toBe(group.funder);
      const raw = byWallet[0]!.raw;
      const failed = structuredClone(raw);
      (failed.result ?? failed).meta.err = { InstructionError: [0, 'Custom'] };
      expect(solTransfersOf(failed)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('garbage yields no transfers, never a throw', () => {
    for (const x of [null, 1, 'x', {}, { transaction: {} }, { transaction: { message: { instructions: [{ programIdIndex: 0, data: '!!!' }], accountKeys: ['11111111111111111111111111111111'] } }, meta: { err: null } }]) {
      expect(solTransfersOf(x)).toEqual([]);
    }
  });
});

describe('shared-funder cohort (markers-v1)', () => {
  const found = (funder: string, signature: string): FunderFact => ({ state: 'found', funder, signature, slot: 1 });
  it('groups wallets by first funder; groups of one are not shared; an unknown funder with no group found → null', () => {
    const m: Record<string, FunderFact> = { a: found('F', 's1'), b: found('F', 's2'), c: found('G', 's3'), e: found('H', 's4'), d: { state: 'none' } };
    expect(sharedFunders(['a', 'b', 'c', 'e', 'a'], (w) => m[w])).toEqual([{ funder: 'F', wallets: ['a', 'b'], signatures: ['s1', 's2'] }]);
    expect(sharedFunders(['a', 'c', 'e'], (w) => m[w])).toEqual([]);
    expect(sharedFunders(['a', 'c', 'zz'], (w) => m[w])).toBeNull();
    // markers-v9: a group found stands whatever else is unknown (it was hidden as null)
    expect(sharedFunders(['a', 'b', 'zz'], (w) => m[w])).toEqual([{ funder: 'F', wallets: ['a', 'b'], signatures: ['s1', 's2'] }]);
  });

  it('markers-v9: a wallet whose complete history holds no inbound System transfer leaves the check unknown, never "no shared funder"', () => {
    // a facts audit: two early buyers funded by a program's lamport moves (no System transfer) passed as unrelated, the launch as clean
    const m: Record<string, FunderFact> = { a: found('F', 's1'), b: found('F', 's2'), c: found('G', 's3'), d: { state: 'none' } };
    expect(sharedFunders(['a', 'c', 'd'], (w) => m[w])).toBeNull();
    expect(sharedFunders(['a', 'c'], (w) => m[w])).toEqual([]);
    // a funder shared among the others is a finding on its own evidence: it stands beside the wallet read no further
    expect(sharedFunders(['a', 'b', 'c', 'd'], (w) => m[w])).toEqual([{ funder: 'F', wallets: ['a', 'b'], signatures: ['s1', 's2'] }]);
    // a cohort of one shares nothing, whatever its funding (it was left unknown for good)
    expect(sharedFunders(['d'], (w) => m[w])).toEqual([]);
    expect(sharedFunders(['zz'], (w) => m[w])).toEqual([]);
    expect(cohortPending(['zz'], (w) => m[w])).toBe(false);
    // a wallet not looked up yet may still change the groups: pending (not settled, swept); one of unread funding is final
    expect(cohortPending(['a', 'b', 'zz'], (w) => m[w])).toBe(true);
    expect(cohortPending(['a', 'c', 'd'], (w) => m[w])).toBe(false);
  });

  it('markers-v9: a cohort wallet that first funded another is in its own group (the creator funding an early buyer)', () => {
    const m: Record<string, FunderFact> = { C: found('X', 's0'), B: found('C', 's1'), E: found('Y', 's2') };
    expect(sharedFunders(['C', 'B', 'E'], (w) => m[w])).toEqual([{ funder: 'C', wallets: ['B', 'C'], signatures: ['s1'] }]);
  });

  it('markers-v9: the lamports a wallet was created with are its funding (create_account, create_account_with_seed; json and jsonParsed)', () => {
    const W = 'Wa11et1111111111111111111111111111111111111';
    const F = 'Funder111111111111111111111111111111111111111';
    const u32 = (n: number) => Buffer.from([n & 255, (n >> 8) & 255, (n >> 16) & 255, n >>> 24]);
    const u64 = (n: bigint) => { const b = Buffer.alloc(8); b.writeBigUInt64LE(n); return b; };
    const owner = Buffer.alloc(32); // the System program's id is 32 zero bytes
    const createAccount = Buffer.concat([u32(0), u64(2_000_000_000n), u64(0n), owner]);
    const seed = Buffer.from('lpa');
    const withSeed = Buffer.concat([u32(3), Buffer.alloc(32, 7), u64(BigInt(seed.length)), seed, u64(3_000_000_000n), u64(0n), owner]);
    const jsonTx = (data: Buffer) => ({
      slot: 1,
      transaction: { signatures: ['sig'], message: { accountKeys: [F, W, SYSTEM_PROGRAM_ID], instructions: [{ programIdIndex: 2, accounts: [0, 1], data: toBase58(data) }] } },
      meta: { err: null, innerInstructions: [], logMessages: [] },
    });
    expect(inboundTransfer(jsonTx(createAccount), W)).toEqual({ from: F, to: W, lamports: '2000000000' });
    expect(inboundTransfer(jsonTx(withSeed), W)).toEqual({ from: F, to: W, lamports: '3000000000' });
    const parsed = {
      slot: 1,
      transaction: { signatures: ['sig'], message: { accountKeys: [{ pubkey: F, signer: true }, { pubkey: W, signer: true }], instructions: [{ program: 'system', programId: SYSTEM_PROGRAM_ID, parsed: { type: 'createAccount', info: { source: F, newAccount: W, lamports: 4_000_000, space: 0, owner: SYSTEM_PROGRAM_ID } } }] } },
      meta: { err: null, innerInstructions: [], logMessages: [] },
    };
    expect(inboundTransfer(parsed, W)).toEqual({ from: F, to: W, lamports: '4000000' });
    // the decoder's transfers (Jito tips) stay transfers
    expect(solTransfersOf(jsonTx(createAccount))).toEqual([]);
  });

  const MINT = 'MintFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFpump';
  const CREATOR = 'Creator1111111111111111111111111111111111';
  const A = 'WalletA111111111111111111111111111111111111';
  const B = 'WalletB111111111111111111111111111111111111';
  const T0 = 1_785_000_000;
  const ctx = { origin: 'observed' as const, observedAtLaunch: true, asOfMs: (T0 + 1000) * 1000 };
  const create = tx({ slot: 100, blockTime: T0, events: [createEvent(MINT, CREATOR)] });
  const early = tx({ slot: 120, blockTime: T0 + 10, events: [trade(MINT, A, true, 10n ** 12n, 10n ** 8n)] });
  const late = tx({ slot: 900, blockTime: T0 + 400, events: [trade(MINT, B, true, 10n ** 12n, 10n ** 8n)] });

  it('creator and a first-30 s buyer funded by one wallet → FINDINGS shared_funder with the funding signatures', () => {
    const m: Record<string, FunderFact> = { [CREATOR]: found('Funder', 'fs1'), [A]: found('Funder', 'fs2'), [B]: found('Funder', 'fs3') };
    const d = classifyLaunch(analyzeLaunch(MINT, [create, early, late], true, { funderOf: (w) => m[w] }), ctx);
    expect(d.finding.class).toBe('FINDINGS');
    expect(d.cleanAtBirth).toBe(false);
    expect(d.funder.sharedCohort).toEqual([{ funder: 'Funder', wallets: [CREATOR, A].sort(), signatures: ['fs1', 'fs2'] }]);
    expect(d.flags).toEqual([expect.objectContaining({ code: 'shared_funder', class: 'FINDINGS', evidence: ['fs1', 'fs2'] })]);
  });

  it('a later buyer (after 30 s) is outside the cohort: no finding', () => {
    const m: Record<string, FunderFact> = { [CREATOR]: found('Funder', 'fs1'), [A]: found('Other', 'fs2'), [B]: found('Funder', 'fs3') };
    const d = classifyLaunch(analyzeLaunch(MINT, [create, early, late], true, { funderOf: (w) => m[w] }), ctx);
    expect(d.finding.class).toBe('NO_MARKERS');
    expect(d.funder.sharedCohort).toEqual([]);
  });

  it('a cohort wallet whose funder is unknown → sharedCohort null, UNKNOWN with cleanAtBirth false (never clean), not settled', () => {
    const m: Record<string, FunderFact> = { [CREATOR]: found('Funder', 'fs1') };
    const d = classifyLaunch(analyzeLaunch(MINT, [create, early, late], true, { funderOf: (w) => m[w] }), ctx);
    expect(d.funder.sharedCohort).toBeNull();
    expect(d.finding.class).toBe('UNKNOWN');
    expect(d.cleanAtBirth).toBe(false);
    expect(d.settled).toBe(false);
  });

  it('markers-v9: an early buyer whose history holds no SOL transfer (funded some other way) → UNKNOWN "Funding not checked", never NO_MARKERS', () => {
    const m: Record<string, FunderFact> = { [CREATOR]: found('Funder', 'fs1'), [A]: { state: 'none' }, [B]: found('Other', 'fs3') };
    const d = classifyLaunch(analyzeLaunch(MINT, [create, early, late], true, { funderOf: (w) => m[w] }), ctx);
    expect(d.funder.sharedCohort).toBeNull();
    expect([d.finding.class, d.finding.label, d.cleanAtBirth, d.settled]).toEqual(['UNKNOWN', 'Funding not checked', false, false]);
    expect(d.finding.why).toContain('a wallet funded by a way the method does not read');
  });
});
