import { address, getAddressEncoder, getProgramDerivedAddress } from '@solana/kit';
import { PUMP_AMM_PROGRAM_ID, PUMP_PROGRAM_ID, WSOL_MINT, DEFAULT_KEY } from '../core/programs.ts';

const enc = getAddressEncoder();
const text = new TextEncoder();

/** Bonding curve PDA: ["bonding-curve", mint] under pump (reference.md §1.8). Errors: throws on a malformed mint. */
export async function bondingCurveAddress(mint: string): Promise<string> {
  const [pda] = await getProgramDerivedAddress({
    programAddress: address(PUMP_PROGRAM_ID),
    seeds: [text.encode('bonding-curve'), enc.encode(address(mint))],
  });
  return pda;
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
export async function canonicalPoolAddress(mint: string, quoteMint: string = WSOL_MINT): Promise<string> {
  const quote = quoteMint === DEFAULT_KEY ? WSOL_MINT : quoteMint;
  const authority = await poolAuthorityAddress(mint);
  const [pda] = await getProgramDerivedAddress({
    programAddress: address(PUMP_AMM_PROGRAM_ID),
    seeds: [text.encode('pool'), new Uint8Array([0, 0]), enc.encode(address(authority)), enc.encode(address(mint)), enc.encode(address(quote))],
  });
  return pda;
}
