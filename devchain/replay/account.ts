/**
 * Account versions held by the replay chain, read from getAccountInfo results/values or
 * accounts.ndjson `account` objects, and rendered as getAccountInfo `value`s in each encoding.
 */
import { zstdCompressSync } from 'node:zlib';
import { z } from 'zod';
import { getBase58Decoder, getBase58Encoder } from '@solana/kit';
import { RpcError } from './errors.ts';

/** One version of an account: visible from `slot` on (until a newer version's slot). */
export interface ChainAccount {
  address: string;
  /** first slot at which this version exists (0 = always) */
  slot: number;
  data: Buffer;
  lamports: number | bigint;
  owner: string;
  executable: boolean;
  /** u64; u64::MAX (18446744073709551615n) for rent-exempt accounts */
  rentEpoch: number | bigint;
  space: number;
}

/** Account encodings of getAccountInfo / getMultipleAccounts (undefined = legacy base58 "binary"). */
export type AccountEncoding = 'base58' | 'base64' | 'base64+zstd' | 'jsonParsed' | undefined;

/** u64::MAX: the rentEpoch of every rent-exempt account on mainnet. */
export const RENT_EPOCH_MAX = 18446744073709551615n;
const MAX_BASE58_BYTES = 128;

const int = z.union([z.number().int().nonnegative(), z.bigint().nonnegative()]);
const accountSchema = z.looseObject({
  data: z.union([z.string(), z.tuple([z.string(), z.enum(['base64', 'base58'])]), z.tuple([z.string(), z.literal('base64+zstd')])]),
  owner: z.string(),
  lamports: int.optional(),
  executable: z.boolean().optional(),
  rentEpoch: int.optional(),
  space: z.number().int().nonnegative().optional(),
});

/** Rent-exempt minimum for `size` data bytes (mainnet: (128 + size) × 3480 × 2 lamports). */
export function rentExemptLamports(size: number): number {
  return (128 + size) * 6960;
}

/**
 * Read an account object `{data, owner, lamports?, executable?, rentEpoch?, space?}`. `data` is
 * `[b64, "base64"]`, `[b58, "base58"]`, or a bare string (read as base64: transcribed fixtures use
 * it). Missing fields get mainnet-typical values: lamports = rent-exempt minimum, executable false,
 * rentEpoch u64::MAX, space = data length.
 * Errors: throws Error naming the address on a malformed object (base64+zstd is not accepted).
 */
export function normalizeAccount(address: string, input: unknown, slot: number): ChainAccount {
  const r = accountSchema.safeParse(input);
  if (!r.success) throw new Error(`account ${address}: not an account object (${r.error.issues[0]?.message} at ${r.error.issues[0]?.path.join('.')})`);
  const a = r.data;
  let data: Buffer;
  if (typeof a.data === 'string') data = Buffer.from(a.data, 'base64');
  else if (a.data[1] === 'base64') data = Buffer.from(a.data[0], 'base64');
  else if (a.data[1] === 'base58') data = Buffer.from(getBase58Encoder().encode(a.data[0]));
  else throw new Error(`account ${address}: base64+zstd data is not accepted in chain files`);
  return {
    address,
    slot,
    data,
    lamports: a.lamports ?? rentExemptLamports(data.length),
    owner: a.owner,
    executable: a.executable ?? false,
    rentEpoch: a.rentEpoch ?? RENT_EPOCH_MAX,
    space: a.space ?? data.length,
  };
}

/** `dataSlice` of getAccountInfo: byte offset and length. */
export interface DataSlice {
  offset: number;
  length: number;
}

/**
 * The getAccountInfo `value` for an account. jsonParsed falls back to base64 (⚠ mainnet parses
 * SPL-Token/Token-2022 accounts, mints, nonce, stake, vote…; the replay parses none; for pump and
 * PumpSwap accounts mainnet falls back to base64 too).
 * Errors: RpcError -32602 for base58 of more than 128 bytes (mainnet's message).
 */
export function renderAccount(acc: ChainAccount, encoding: AccountEncoding, slice?: DataSlice): Record<string, unknown> {
  let bytes = acc.data;
  if (slice) bytes = bytes.subarray(Math.min(slice.offset, bytes.length), Math.min(slice.offset + slice.length, bytes.length));
  let data: unknown;
  if (encoding === undefined || encoding === 'base58') {
    if (bytes.length > MAX_BASE58_BYTES) {
      throw new RpcError(-32602, `Encoded binary (base 58) data should be less than ${MAX_BASE58_BYTES} bytes, please use Base64 encoding.`);
    }
    const b58 = getBase58Decoder().decode(bytes);
    data = encoding === undefined ? b58 : [b58, 'base58'];
  } else if (encoding === 'base64+zstd') {
    data = [zstdCompressSync(bytes).toString('base64'), 'base64+zstd'];
  } else {
    data = [bytes.toString('base64'), 'base64'];
  }
  return { data, executable: acc.executable, lamports: acc.lamports, owner: acc.owner, rentEpoch: acc.rentEpoch, space: acc.space };
}
