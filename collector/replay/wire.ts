/**
 * The Solana wire transaction ↔ the raw `json` form of getTransaction (accountKeys as base58
 * strings, instructions as `{programIdIndex, accounts:[index], data:<base58>, stackHeight}`), via
 * @solana/kit's transaction and compiled-message codecs.
 */
import {
  getBase58Decoder,
  getBase58Encoder,
  getCompiledTransactionMessageDecoder,
  getCompiledTransactionMessageEncoder,
  getTransactionDecoder,
  getTransactionEncoder,
} from '@solana/kit';

/** A message header as getTransaction `json` prints it. */
export interface RawHeader {
  numRequiredSignatures: number;
  numReadonlySignedAccounts: number;
  numReadonlyUnsignedAccounts: number;
}

/** A compiled instruction in `json` form (`data` base58; `stackHeight` null at top level). */
export interface RawInstruction {
  programIdIndex: number;
  accounts: number[];
  data: string;
  stackHeight?: number | null;
}

/** An address-table lookup in `json` form. */
export interface RawLookup {
  accountKey: string;
  writableIndexes: number[];
  readonlyIndexes: number[];
}

/** `transaction` of a getTransaction `json` answer, plus the message version. */
export interface RawTransaction {
  version: 0 | 'legacy';
  signatures: string[];
  message: {
    header: RawHeader;
    /** static account keys only (lookup-table keys are in meta.loadedAddresses) */
    accountKeys: string[];
    recentBlockhash: string;
    instructions: RawInstruction[];
    /** present for v0 messages */
    addressTableLookups?: RawLookup[];
  };
}

const ZERO_SIGNATURE = new Uint8Array(64);

/**
 * Decode wire bytes (signatures ‖ message). Top-level instructions get `stackHeight: null` as on
 * mainnet. Errors: throws on bytes that are not a transaction.
 */
export function decodeWireTransaction(bytes: Uint8Array): RawTransaction {
  const tx = getTransactionDecoder().decode(bytes);
  const m = getCompiledTransactionMessageDecoder().decode(tx.messageBytes) as unknown as {
    version: number | 'legacy';
    header: { numSignerAccounts: number; numReadonlySignerAccounts: number; numReadonlyNonSignerAccounts: number };
    staticAccounts: string[];
    lifetimeToken: string;
    instructions: { programAddressIndex: number; accountIndices?: readonly number[]; data?: Uint8Array }[];
    addressTableLookups?: { lookupTableAddress: string; writableIndexes: readonly number[]; readonlyIndexes: readonly number[] }[];
  };
  const b58 = getBase58Decoder();
  const keys = m.staticAccounts.map(String);
  const sigs = keys.slice(0, m.header.numSignerAccounts).map((k) => b58.decode((tx.signatures as Record<string, Uint8Array | null>)[k] ?? ZERO_SIGNATURE));
  const version = m.version === 'legacy' ? 'legacy' : 0;
  const message: RawTransaction['message'] = {
    header: {
      numRequiredSignatures: m.header.numSignerAccounts,
      numReadonlySignedAccounts: m.header.numReadonlySignerAccounts,
      numReadonlyUnsignedAccounts: m.header.numReadonlyNonSignerAccounts,
    },
    accountKeys: keys,
    recentBlockhash: String(m.lifetimeToken),
    instructions: m.instructions.map((ix) => ({
      programIdIndex: ix.programAddressIndex,
      accounts: [...(ix.accountIndices ?? [])],
      data: b58.decode(ix.data ?? new Uint8Array(0)),
      stackHeight: null,
    })),
  };
  if (version === 0) {
    message.addressTableLookups = (m.addressTableLookups ?? []).map((l) => ({
      accountKey: String(l.lookupTableAddress),
      writableIndexes: [...l.writableIndexes],
      readonlyIndexes: [...l.readonlyIndexes],
    }));
  }
  return { version, signatures: sigs, message };
}

/** Encode the raw form back to wire bytes (the inverse of {@link decodeWireTransaction}). Errors: throws on malformed keys or data. */
export function encodeWireTransaction(tx: RawTransaction): Uint8Array {
  const enc = getBase58Encoder();
  const m = tx.message;
  const compiled = {
    version: tx.version,
    header: {
      numSignerAccounts: m.header.numRequiredSignatures,
      numReadonlySignerAccounts: m.header.numReadonlySignedAccounts,
      numReadonlyNonSignerAccounts: m.header.numReadonlyUnsignedAccounts,
    },
    staticAccounts: m.accountKeys,
    lifetimeToken: m.recentBlockhash,
    instructions: m.instructions.map((ix) => ({
      programAddressIndex: ix.programIdIndex,
      ...(ix.accounts.length ? { accountIndices: ix.accounts } : {}),
      ...(ix.data.length ? { data: enc.encode(ix.data) } : {}),
    })),
    ...(tx.version === 0
      ? { addressTableLookups: (m.addressTableLookups ?? []).map((l) => ({ lookupTableAddress: l.accountKey, writableIndexes: l.writableIndexes, readonlyIndexes: l.readonlyIndexes })) }
      : {}),
  };
  const messageBytes = getCompiledTransactionMessageEncoder().encode(compiled as never);
  const signatures: Record<string, Uint8Array> = {};
  for (let i = 0; i < m.header.numRequiredSignatures; i++) signatures[m.accountKeys[i]] = tx.signatures[i] ? enc.encode(tx.signatures[i]) as Uint8Array : ZERO_SIGNATURE;
  return getTransactionEncoder().encode({ messageBytes, signatures } as never) as Uint8Array;
}
