/**
 * System program SOL transfers (`transfer` = 2, `transfer_with_seed` = 11), read from a compiled
 * instruction (json / base64: u32 LE tag ‖ u64 LE lamports) or from a jsonParsed entry
 * (`{program:'system', parsed:{type:'transfer'|'transferWithSeed', info:{source, destination, lamports}}}`).
 * Pure. Used by the decoder (Jito tips) and src/core/funding.ts (funding sources).
 */
import { SYSTEM_PROGRAM_ID } from '../programs.ts';

/** One SOL transfer by the System program (Transfer = 2, TransferWithSeed = 11), any depth. */
export interface SolTransfer {
  from: string;
  to: string;
  /** lamports, decimal string */
  lamports: string;
}

type Obj = Record<string, unknown>;
const isObj = (x: unknown): x is Obj => typeof x === 'object' && x !== null && !Array.isArray(x);

/** u64 little-endian at `at` (the caller checked the length). */
export function u64le(b: Uint8Array, at: number): bigint {
  let v = 0n;
  for (let i = 7; i >= 0; i--) v = (v << 8n) | BigInt(b[at + i]!);
  return v;
}

/**
 * The System instruction tag (u32 LE) and the destination's position in the account list of a
 * transfer: `transfer` (2) → accounts[1], `transfer_with_seed` (11) → accounts[2]; null for any other
 * instruction or data shorter than tag + lamports (12 bytes).
 */
export function transferDestinationIndex(data: Uint8Array): 1 | 2 | null {
  if (data.length < 12) return null;
  const tag = data[0]! | (data[1]! << 8) | (data[2]! << 16) | (data[3]! << 24);
  return tag === 2 ? 1 : tag === 11 ? 2 : null;
}

/** Decode one System instruction's transfer from its data and base58 accounts, or null when it is not a transfer (or malformed). */
export function systemTransferOf(data: Uint8Array, accounts: readonly string[]): SolTransfer | null {
  const to = transferDestinationIndex(data);
  if (to === null || accounts.length <= to) return null;
  return { from: accounts[0]!, to: accounts[to]!, lamports: u64le(data, 4).toString() };
}

/**
 * A wallet's funding by one System instruction: a transfer ({@link systemTransferOf}), or the
 * lamports an account is created with — `create_account` (0: u32 tag ‖ u64 lamports ‖ u64 space ‖
 * owner; funding account accounts[0], new account accounts[1]) or `create_account_with_seed` (3:
 * u32 tag ‖ base (32) ‖ seed (u64 length ‖ bytes) ‖ u64 lamports ‖ u64 space ‖ owner; the same two
 * accounts). Null for anything else or malformed data. (markers-v9: a wallet created with its first
 * SOL was of unread funding before; the decoder's tips read transfers only.)
 */
export function systemFundingOf(data: Uint8Array, accounts: readonly string[]): SolTransfer | null {
  const t = systemTransferOf(data, accounts);
  if (t || data.length < 4 || accounts.length < 2) return t;
  const tag = data[0]! | (data[1]! << 8) | (data[2]! << 16) | (data[3]! << 24);
  let at: number;
  if (tag === 0) at = 4;
  else if (tag === 3) {
    if (data.length < 4 + 32 + 8) return null;
    const seedLength = u64le(data, 4 + 32);
    if (seedLength > 32n) return null; // a seed is at most 32 bytes (MAX_SEED_LEN)
    at = 4 + 32 + 8 + Number(seedLength);
  } else return null;
  if (data.length < at + 8) return null;
  return { from: accounts[0]!, to: accounts[1]!, lamports: u64le(data, at).toString() };
}

/** A jsonParsed System funding entry: a transfer ({@link parsedSystemTransferOf}) or `createAccount` / `createAccountWithSeed` (`info.source` → `info.newAccount`), or null. */
export function parsedSystemFundingOf(ix: Obj): SolTransfer | null {
  const t = parsedSystemTransferOf(ix);
  if (t) return t;
  const p = ix.parsed;
  if (!isObj(p) || ix.programId !== SYSTEM_PROGRAM_ID || (p.type !== 'createAccount' && p.type !== 'createAccountWithSeed')) return null;
  const info = isObj(p.info) ? p.info : null;
  if (!info || typeof info.source !== 'string' || typeof info.newAccount !== 'string') return null;
  return { from: info.source, to: info.newAccount, lamports: String(info.lamports ?? '0') };
}

/** A jsonParsed System transfer entry (`parsed.type` `transfer` | `transferWithSeed`), or null for anything else. */
export function parsedSystemTransferOf(ix: Obj): SolTransfer | null {
  const p = ix.parsed;
  if (!isObj(p) || ix.programId !== SYSTEM_PROGRAM_ID || (p.type !== 'transfer' && p.type !== 'transferWithSeed')) return null;
  const info = isObj(p.info) ? p.info : null;
  if (!info || typeof info.source !== 'string' || typeof info.destination !== 'string') return null;
  return { from: info.source, to: info.destination, lamports: String(info.lamports ?? '0') };
}
