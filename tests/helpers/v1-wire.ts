/**
 * Builds a SIMD-0385 version 1 message and transaction from a getTransaction `json` result, by hand
 * (independent of the decoder under test and of @solana/kit), and checks an ed25519 signature over
 * it with node:crypto. Tests use it to prove the v1 layout against real mainnet fixtures: a real
 * signature verifies only over the exact bytes that were signed.
 */
import { createPublicKey, verify } from 'node:crypto';
import { base58 } from '@scure/base';

/** The json `transaction.message` of a v1 transaction, as fixtures 28 and 29 hold it. */
export interface V1JsonMessage {
  header: { numRequiredSignatures: number; numReadonlySignedAccounts: number; numReadonlyUnsignedAccounts: number };
  accountKeys: string[];
  recentBlockhash: string;
  instructions: { programIdIndex: number; accounts: number[]; data: string }[];
  transactionConfig: { priorityFee: number | string | null; computeUnitLimit: number | null; loadedAccountsDataSizeLimit: number | null; heapSize: number | null };
}

const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n >>> 0);
  return b;
};
const u16 = (n: number) => {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(n);
  return b;
};

/** The message bytes: 0x81, header, mask, blockhash, counts, keys, config slots, instruction headers, payloads. */
export function v1MessageBytes(m: V1JsonMessage): Buffer {
  const c = m.transactionConfig;
  let mask = 0;
  const slots: Buffer[] = [];
  if (c.priorityFee !== null) {
    mask |= 0b11;
    const fee = Buffer.alloc(8);
    fee.writeBigUInt64LE(BigInt(c.priorityFee));
    slots.push(fee);
  }
  if (c.computeUnitLimit !== null) (mask |= 0b100), slots.push(u32(c.computeUnitLimit));
  if (c.loadedAccountsDataSizeLimit !== null) (mask |= 0b1000), slots.push(u32(c.loadedAccountsDataSizeLimit));
  if (c.heapSize !== null) (mask |= 0b10000), slots.push(u32(c.heapSize));
  const data = m.instructions.map((ix) => Buffer.from(base58.decode(ix.data)));
  return Buffer.concat([
    Buffer.from([0x81, m.header.numRequiredSignatures, m.header.numReadonlySignedAccounts, m.header.numReadonlyUnsignedAccounts]),
    u32(mask),
    Buffer.from(base58.decode(m.recentBlockhash)),
    Buffer.from([m.instructions.length, m.accountKeys.length]),
    ...m.accountKeys.map((k) => Buffer.from(base58.decode(k))),
    ...slots,
    ...m.instructions.map((ix, i) => Buffer.concat([Buffer.from([ix.programIdIndex, ix.accounts.length]), u16(data[i]!.length)])),
    ...m.instructions.map((ix, i) => Buffer.concat([Buffer.from(ix.accounts), data[i]!])),
  ]);
}

/** The whole v1 transaction: the message, then its signatures (no count). */
export function v1TransactionBytes(m: V1JsonMessage, signatures: string[]): Buffer {
  return Buffer.concat([v1MessageBytes(m), ...signatures.map((s) => Buffer.from(base58.decode(s)))]);
}

/** Whether `signature` (base58) is `signer`'s (base58 public key) ed25519 signature of `message`. */
export function ed25519Verifies(message: Uint8Array, signer: string, signature: string): boolean {
  const key = createPublicKey({ key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), Buffer.from(base58.decode(signer))]), format: 'der', type: 'spki' });
  return verify(null, message, key, base58.decode(signature));
}
