import { address, getAddressEncoder, getProgramDerivedAddress } from '@solana/kit';
import { PUMP_AMM_PROGRAM_ID, PUMP_PROGRAM_ID, WSOL_MINT, DEFAULT_KEY } from '../core/programs.ts';

const enc = getAddressEncoder();
const text = new TextEncoder();

/**
 * Derived addresses already computed (a PDA never changes; deriving one costs several curve checks,
 * and the collector asks for the same curve and pool each batch while a launch is completed but
 * not yet settled). Bounded: starts over beyond PDA_MEMO_MAX entries.
 */
const memo = new Map<string, Promise<string>>();
const PDA_MEMO_MAX = 50_000;
function memoized(key: string, derive: () => Promise<string>): Promise<string> {
  let p = memo.get(key);
  if (p === undefined) {
    if (memo.size >= PDA_MEMO_MAX) memo.clear();
    p = derive();
    memo.set(key, p);
    p.catch(() => memo.delete(key)); // a malformed mint is not remembered
  }
  return p;
}

/** Bonding curve PDA: ["bonding-curve", mint] under pump (reference.md §1.8). Errors: throws on a malformed mint. */
export function bondingCurveAddress(mint: string): Promise<string> {
  return memoized(`curve:${mint}`, async () => {
    const [pda] = await getProgramDerivedAddress({
      programAddress: address(PUMP_PROGRAM_ID),
      seeds: [text.encode('bonding-curve'), enc.encode(address(mint))],
    });
    return pda;
  });
}

/** Pool authority PDA: ["pool-authority", mint] under pump. */
export async function poolAuthorityAddress(mint: string): Promise<string> {
  const [pda] = await getProgramDerivedAddress({
    programAddress: address(PUMP_PROGRAM_ID),
    seeds: [text.encode('pool-authority'), enc.encode(address(mint))],
  });
  return pda;
}

/**
 * Canonical PumpSwap pool: ["pool", u16le 0, pool_authority, mint, quote] under pAMM, where quote is
 * WSOL for SOL coins (the curve stores the default key) — reference.md §1.8, §2.2.
 */
export function canonicalPoolAddress(mint: string, quoteMint: string = WSOL_MINT): Promise<string> {
  const quote = quoteMint === DEFAULT_KEY ? WSOL_MINT : quoteMint;
  return memoized(`pool:${mint}:${quote}`, async () => {
    const authority = await poolAuthorityAddress(mint);
    const [pda] = await getProgramDerivedAddress({
      programAddress: address(PUMP_AMM_PROGRAM_ID),
      seeds: [text.encode('pool'), new Uint8Array([0, 0]), enc.encode(address(authority)), enc.encode(address(mint)), enc.encode(address(quote))],
    });
    return pda;
  });
}
