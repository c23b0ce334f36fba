/**
 * Byte helpers for the decoder: base58 (`@scure/base`: measured 5× faster than bs58 and far
 * faster than kit's BigInt codec on the collector's hot path, where every pump instruction and
 * self-CPI event arrives as base58), base64, hex. Pure.
 */
import { base58 } from '@scure/base';

/** Bytes → base58 string (addresses, signatures). */
export function toBase58(bytes: Uint8Array): string {
  return base58.encode(bytes);
}

/**
 * Addresses already encoded, by the key's first four bytes (random in any public key): the same
 * few keys (programs, mints, curves, fee recipients, traders) recur in every event. An entry holds
 * its key's 32 bytes, compared in full before its address is used.
 */
const addressMemo = new Map<number, { key: Uint8Array; address: string }>();
/** Entries the memo keeps before it starts over (≈ 20 MB at most). */
const ADDRESS_MEMO_MAX = 100_000;

/** Whether two 32-byte keys are equal. */
function sameKey(a: Uint8Array, b: Uint8Array): boolean {
  for (let i = 0; i < 32; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * A 32-byte public key → base58 address, memoized: an event carries 4–10 addresses, and base58
 * encoding is the decoder's costliest step after base58 decoding. Same result as {@link toBase58}
 * (a key of another length is encoded without the memo).
 */
export function toBase58Address(key: Uint8Array): string {
  if (key.length !== 32) return base58.encode(key);
  const h = (key[0]! | (key[1]! << 8) | (key[2]! << 16) | (key[3]! << 24)) >>> 0;
  const hit = addressMemo.get(h);
  if (hit !== undefined && sameKey(hit.key, key)) return hit.address;
  const address = base58.encode(key);
  if (addressMemo.size >= ADDRESS_MEMO_MAX) addressMemo.clear();
  // a copy: `key` is usually a view into a whole event's or transaction's bytes
  addressMemo.set(h, { key: key.slice(), address });
  return address;
}

/**
 * base58 string → bytes. Throws an `Error` on a character outside the base58 alphabet.
 * @example fromBase58('3Bxs4Ap5JCUQX88o') // Uint8Array(12)
 */
export function fromBase58(s: string): Uint8Array {
  if (!/^[1-9A-HJ-NP-Za-km-z]*$/.test(s)) throw new Error('invalid base58');
  return base58.decode(s);
}

/** Strict standard base64 (with padding, as Solana RPC and `Program data:` logs write it). */
const BASE64_RE = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * base64 string → bytes. Throws an `Error` when the text is not strict base64
 * (Buffer alone silently ignores bad characters, which would turn garbage into "data").
 */
export function fromBase64(s: string): Uint8Array {
  if (!BASE64_RE.test(s)) throw new Error('invalid base64');
  const b = Buffer.from(s, 'base64');
  return new Uint8Array(b.buffer, b.byteOffset, b.length);
}

/** Bytes → base64 string. */
export function toBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('base64');
}

/** Bytes → lowercase hex. */
export function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('hex');
}

/** Hex string → bytes. Throws an `Error` on odd length or non-hex characters. */
export function fromHex(s: string): Uint8Array {
  const t = s.startsWith('0x') ? s.slice(2) : s;
  if (t.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(t)) throw new Error('invalid hex');
  return new Uint8Array(Buffer.from(t, 'hex'));
}

/** Whether `data` starts with `prefix`. */
export function startsWith(data: Uint8Array, prefix: Uint8Array): boolean {
  if (data.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (data[i] !== prefix[i]) return false;
  return true;
}
