/**
 * Decode a Solana wire transaction (legacy or v0), as found in `getTransaction … encoding:"base64"`
 * and blockSubscribe elements (`transaction: [<base64>, "base64"]`). Pure.
 * Layout: shortvec #sigs, 64-byte signatures, then the message: [0x80|version] header(3) shortvec #keys,
 * 32-byte keys, blockhash(32), shortvec #instructions {programIdIndex u8, shortvec #accounts, u8 indexes,
 * shortvec #data, data}, and for v0 the address-table lookups.
 */
import { toBase58 } from './bytes.ts';

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
  bytes(n: number): Uint8Array {
    if (this.pos + n > this.b.length) throw new Error(`wire transaction ends at byte ${this.b.length}, needed ${this.pos + n}`);
    const out = this.b.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }
}

/**
 * Decode wire bytes. Throws an `Error` with a reason when the bytes are not a legacy/v0 transaction.
 * @example decodeWireTransaction(fromBase64(tx[0])).signatures[0] // '5EDHe1…'
 */
export function decodeWireTransaction(bytes: Uint8Array): WireTransaction {
  const r = new WireReader(bytes);
  const nSig = r.shortvec();
  const signatures: string[] = [];
  for (let i = 0; i < nSig; i++) signatures.push(toBase58(r.bytes(64)));
  let version: 'legacy' | number = 'legacy';
  let first = r.u8();
  if (first & 0x80) {
    version = first & 0x7f;
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
  return { signatures, version, numRequiredSignatures, staticKeys, recentBlockhash, instructions, addressTableLookups };
}
