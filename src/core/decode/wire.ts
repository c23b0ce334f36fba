/**
 * Decode a Solana wire transaction (legacy, v0 or v1), as found in `getTransaction … encoding:"base64"`
 * and blockSubscribe elements (`transaction: [<base64>, "base64"]`). Pure.
 *
 * Legacy and v0: shortvec #sigs, 64-byte signatures, then the message: [0x80|version] header(3)
 * shortvec #keys, 32-byte keys, blockhash(32), shortvec #instructions {programIdIndex u8, shortvec
 * #accounts, u8 indexes, shortvec #data, data}, and for v0 the address-table lookups.
 *
 * v1 (SIMD-0385 "Transaction V1 Format"; reference.md §5.x): the message comes first and the
 * signatures last, with no count (there are header.numRequiredSignatures of them):
 *   0x81 ‖ header(3: numRequiredSignatures, numReadonlySigned, numReadonlyUnsigned)
 *   ‖ TransactionConfigMask u32 LE ‖ blockhash(32) ‖ #instructions u8 ‖ #keys u8 ‖ keys(32 each)
 *   ‖ config values (4 bytes each, one per set mask bit, in bit order)
 *   ‖ instruction headers (programIdIndex u8, #accounts u8, #data u16 LE) ‖ per instruction: account
 *     indexes (u8 each) then data ‖ signatures (64 each).
 * Mask bits: 0 and 1 together = the priority fee (u64 lamports, low slot first), 2 = compute-unit
 * limit, 3 = loaded-accounts data-size limit, 4 = heap size (u32 each). No address lookup tables.
 * Proof: the message layout and bits 0–3 were checked by verifying the fee payer's ed25519 signature
 * over the message rebuilt from mainnet fixtures 28 and 29 (tests/unit/decode-v1.test.ts); bit 4 (no
 * fixture sets it) and the message-first envelope follow the proposal and @solana/kit 8.4's codecs.
 */
import { toBase58 } from './bytes.ts';

/**
 * The highest transaction version this decoder reads: every `getTransaction` the archive sends asks
 * with `maxSupportedTransactionVersion` = this, so the RPC never answers -32015 for a version it
 * could decode (reference.md §5.x).
 */
export const MAX_SUPPORTED_TRANSACTION_VERSION = 1;

/** The bits of a v1 TransactionConfigMask (SIMD-0385): the priority fee takes bits 0 and 1 (one u64, two slots). */
export const TRANSACTION_CONFIG_BITS = { priorityFee: 0b11, computeUnitLimit: 0b100, loadedAccountsDataSizeLimit: 0b1000, heapSize: 0b1_0000 } as const;

/**
 * A v1 message's config (SIMD-0385), as getTransaction `json` shows it in `message.transactionConfig`:
 * null where the mask leaves a value out. `priorityFee` is total lamports (u64, decimal string),
 * `computeUnitLimit` compute units, the data-size limit and heap size bytes.
 */
export interface TransactionConfig {
  /** the raw TransactionConfigMask (u32) */
  mask: number;
  priorityFee: string | null;
  computeUnitLimit: number | null;
  loadedAccountsDataSizeLimit: number | null;
  heapSize: number | null;
}

/** A compiled instruction: indexes into the full account-key list. */
export interface WireInstruction {
  programIdIndex: number;
  accounts: number[];
  data: Uint8Array;
}

/** A decoded wire transaction. */
export interface WireTransaction {
  /** base58 signatures (fee payer's first) */
  signatures: string[];
  version: 'legacy' | number;
  numRequiredSignatures: number;
  /** static account keys, base58 */
  staticKeys: string[];
  recentBlockhash: string;
  instructions: WireInstruction[];
  addressTableLookups: { accountKey: string; writableIndexes: number[]; readonlyIndexes: number[] }[];
  /** v1 only: the message's config (SIMD-0385); null for legacy and v0 */
  transactionConfig: TransactionConfig | null;
}

class WireReader {
  pos = 0;
  constructor(private readonly b: Uint8Array) {}
  u8(): number {
    if (this.pos >= this.b.length) throw new Error(`wire transaction ends at byte ${this.pos}`);
    return this.b[this.pos++];
  }
  shortvec(): number {
    let v = 0;
    for (let shift = 0; shift < 21; shift += 7) {
      const x = this.u8();
      v |= (x & 0x7f) << shift;
      if ((x & 0x80) === 0) return v;
    }
    throw new Error('bad shortvec');
  }
  u16le(): number {
    return this.u8() | (this.u8() << 8);
  }
  u32le(): number {
    return (this.u8() | (this.u8() << 8) | (this.u8() << 16) | (this.u8() << 24)) >>> 0;
  }
  get remaining(): number {
    return this.b.length - this.pos;
  }
  bytes(n: number): Uint8Array {
    if (this.pos + n > this.b.length) throw new Error(`wire transaction ends at byte ${this.b.length}, needed ${this.pos + n}`);
    const out = this.b.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }
}

/**
 * Decode wire bytes. Throws an `Error` with a reason when the bytes are not a legacy, v0 or v1
 * transaction (a version above {@link MAX_SUPPORTED_TRANSACTION_VERSION}, a v1 mask bit not in
 * {@link TRANSACTION_CONFIG_BITS}, bytes missing or left over after a v1 transaction's signatures).
 * @example decodeWireTransaction(fromBase64(tx[0])).signatures[0] // '5EDHe1…'
 */
export function decodeWireTransaction(bytes: Uint8Array): WireTransaction {
  // A legacy/v0 transaction starts with its signature count (a shortvec below 0x80 in practice);
  // a v1 transaction starts with its message, whose first byte is 0x81.
  if (bytes.length > 0 && bytes[0]! & 0x80) return decodeMessageFirst(bytes);
  const r = new WireReader(bytes);
  const nSig = r.shortvec();
  const signatures: string[] = [];
  for (let i = 0; i < nSig; i++) signatures.push(toBase58(r.bytes(64)));
  let version: 'legacy' | number = 'legacy';
  let first = r.u8();
  if (first & 0x80) {
    version = first & 0x7f;
    if (version === 1) throw new Error('a version 1 message must come before its signatures (SIMD-0385)');
    if (version !== 0) throw new Error(`unsupported transaction version ${version}`);
    first = r.u8();
  }
  const numRequiredSignatures = first;
  r.u8();
  r.u8();
  const nKeys = r.shortvec();
  const staticKeys: string[] = [];
  for (let i = 0; i < nKeys; i++) staticKeys.push(toBase58(r.bytes(32)));
  const recentBlockhash = toBase58(r.bytes(32));
  const nIx = r.shortvec();
  const instructions: WireInstruction[] = [];
  for (let i = 0; i < nIx; i++) {
    const programIdIndex = r.u8();
    const nAcc = r.shortvec();
    const accounts = [...r.bytes(nAcc)];
    const dataLen = r.shortvec();
    instructions.push({ programIdIndex, accounts, data: Uint8Array.from(r.bytes(dataLen)) });
  }
  const addressTableLookups: WireTransaction['addressTableLookups'] = [];
  if (version === 0) {
    const nLookups = r.shortvec();
    for (let i = 0; i < nLookups; i++) {
      const accountKey = toBase58(r.bytes(32));
      const writableIndexes = [...r.bytes(r.shortvec())];
      const readonlyIndexes = [...r.bytes(r.shortvec())];
      addressTableLookups.push({ accountKey, writableIndexes, readonlyIndexes });
    }
  }
  return { signatures, version, numRequiredSignatures, staticKeys, recentBlockhash, instructions, addressTableLookups, transactionConfig: null };
}

/** A message-first (v1) transaction: the layout in the module header. */
function decodeMessageFirst(bytes: Uint8Array): WireTransaction {
  const r = new WireReader(bytes);
  const version = r.u8() & 0x7f;
  if (version !== 1) throw new Error(`unsupported transaction version ${version}`);
  const numRequiredSignatures = r.u8();
  r.u8();
  r.u8();
  const mask = r.u32le();
  if (mask >>> 5 !== 0) throw new Error(`unknown TransactionConfigMask bits 0x${mask.toString(16)}`);
  if ((mask & TRANSACTION_CONFIG_BITS.priorityFee) === 1 || (mask & TRANSACTION_CONFIG_BITS.priorityFee) === 2) throw new Error('TransactionConfigMask sets one of the two priority-fee bits');
  const recentBlockhash = toBase58(r.bytes(32));
  const nIx = r.u8();
  const nKeys = r.u8();
  const staticKeys: string[] = [];
  for (let i = 0; i < nKeys; i++) staticKeys.push(toBase58(r.bytes(32)));
  const has = (bits: number) => (mask & bits) === bits;
  let priorityFee: string | null = null;
  if (has(TRANSACTION_CONFIG_BITS.priorityFee)) {
    const lo = BigInt(r.u32le());
    const hi = BigInt(r.u32le());
    priorityFee = ((hi << 32n) | lo).toString();
  }
  const computeUnitLimit = has(TRANSACTION_CONFIG_BITS.computeUnitLimit) ? r.u32le() : null;
  const loadedAccountsDataSizeLimit = has(TRANSACTION_CONFIG_BITS.loadedAccountsDataSizeLimit) ? r.u32le() : null;
  const heapSize = has(TRANSACTION_CONFIG_BITS.heapSize) ? r.u32le() : null;
  const headers: { programIdIndex: number; nAcc: number; dataLen: number }[] = [];
  for (let i = 0; i < nIx; i++) headers.push({ programIdIndex: r.u8(), nAcc: r.u8(), dataLen: r.u16le() });
  const instructions: WireInstruction[] = headers.map((h) => ({
    programIdIndex: h.programIdIndex,
    accounts: [...r.bytes(h.nAcc)],
    data: Uint8Array.from(r.bytes(h.dataLen)),
  }));
  if (r.remaining !== numRequiredSignatures * 64) {
    throw new Error(`a version 1 transaction with ${numRequiredSignatures} signatures needs ${numRequiredSignatures * 64} bytes after its message, found ${r.remaining}`);
  }
  const signatures: string[] = [];
  for (let i = 0; i < numRequiredSignatures; i++) signatures.push(toBase58(r.bytes(64)));
  return {
    signatures,
    version,
    numRequiredSignatures,
    staticKeys,
    recentBlockhash,
    instructions,
    addressTableLookups: [],
    transactionConfig: { mask, priorityFee, computeUnitLimit, loadedAccountsDataSizeLimit, heapSize },
  };
}
