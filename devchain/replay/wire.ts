/**
 * The Solana wire transaction ↔ the raw `json` form of getTransaction (accountKeys as base58
 * strings, instructions as `{programIdIndex, accounts:[index], data:<base58>, stackHeight}`), via
 * @solana/kit's transaction and compiled-message codecs — legacy, v0 and v1 (SIMD-0385: message
 * first, signatures last, a TransactionConfigMask with 4-byte config slots, no lookup tables; the
 * layout src/core/decode/wire.ts documents and tests/unit/decode-v1.test.ts proves on mainnet bytes).
 */
import {
  getBase58Decoder,
  getBase58Encoder,
  getCompiledTransactionMessageDecoder,
  getCompiledTransactionMessageEncoder,
  getTransactionDecoder,
  getTransactionEncoder,
} from '@solana/kit';
import { TRANSACTION_CONFIG_BITS } from '../../src/core/decode/wire.ts';

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

/**
 * A v1 message's `transactionConfig` as getTransaction `json`/`jsonParsed` prints it (null: not set
 * in the mask). `priorityFee`: total lamports.
 */
export interface RawTransactionConfig {
  computeUnitLimit: number | null;
  heapSize: number | null;
  loadedAccountsDataSizeLimit: number | null;
  priorityFee: number | string | null;
}

/** `transaction` of a getTransaction `json` answer, plus the message version. */
export interface RawTransaction {
  version: 0 | 1 | 'legacy';
  signatures: string[];
  message: {
    header: RawHeader;
    /** static account keys only (lookup-table keys are in meta.loadedAddresses) */
    accountKeys: string[];
    recentBlockhash: string;
    instructions: RawInstruction[];
    /** present for v0 messages */
    addressTableLookups?: RawLookup[];
    /** present for v1 messages */
    transactionConfig?: RawTransactionConfig;
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
    instructions?: { programAddressIndex: number; accountIndices?: readonly number[]; data?: Uint8Array }[];
    addressTableLookups?: { lookupTableAddress: string; writableIndexes: readonly number[]; readonlyIndexes: readonly number[] }[];
    // v1
    configMask?: number;
    configValues?: { kind: 'u32' | 'u64'; value: number | bigint }[];
    instructionHeaders?: { programAccountIndex: number }[];
    instructionPayloads?: { instructionAccountIndices: readonly number[]; instructionData: Uint8Array }[];
  };
  const b58 = getBase58Decoder();
  const keys = m.staticAccounts.map(String);
  const sigs = keys.slice(0, m.header.numSignerAccounts).map((k) => b58.decode((tx.signatures as Record<string, Uint8Array | null>)[k] ?? ZERO_SIGNATURE));
  const version = m.version === 'legacy' ? 'legacy' : m.version === 1 ? 1 : 0;
  const instructions =
    version === 1
      ? m.instructionHeaders!.map((h, i) => ({ programAddressIndex: h.programAccountIndex, accountIndices: m.instructionPayloads![i]!.instructionAccountIndices, data: m.instructionPayloads![i]!.instructionData }))
      : m.instructions!;
  const message: RawTransaction['message'] = {
    header: {
      numRequiredSignatures: m.header.numSignerAccounts,
      numReadonlySignedAccounts: m.header.numReadonlySignerAccounts,
      numReadonlyUnsignedAccounts: m.header.numReadonlyNonSignerAccounts,
    },
    accountKeys: keys,
    recentBlockhash: String(m.lifetimeToken),
    instructions: instructions.map((ix) => ({
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
  if (version === 1) message.transactionConfig = configFromMask(m.configMask ?? 0, m.configValues ?? []);
  return { version, signatures: sigs, message };
}

/** Mask bits of a v1 TransactionConfigMask (SIMD-0385), in the order of their value slots. */
const { priorityFee: PRIORITY_FEE, computeUnitLimit: COMPUTE_UNIT_LIMIT, loadedAccountsDataSizeLimit: LOADED_ACCOUNTS_DATA_SIZE_LIMIT, heapSize: HEAP_SIZE } = TRANSACTION_CONFIG_BITS;

/** A v1 config mask and its values (in slot order) → the json `transactionConfig`. */
function configFromMask(mask: number, values: { value: number | bigint }[]): RawTransactionConfig {
  let k = 0;
  const next = (bits: number) => ((mask & bits) === bits ? values[k++]!.value : null);
  const fee = next(PRIORITY_FEE);
  const num = (v: number | bigint | null) => (v === null ? null : Number(v));
  return {
    priorityFee: fee === null ? null : BigInt(fee) <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(fee) : String(fee),
    computeUnitLimit: num(next(COMPUTE_UNIT_LIMIT)),
    loadedAccountsDataSizeLimit: num(next(LOADED_ACCOUNTS_DATA_SIZE_LIMIT)),
    heapSize: num(next(HEAP_SIZE)),
  };
}

/** The json `transactionConfig` → kit's compiled v1 config mask and values. */
function configToMask(c: RawTransactionConfig | undefined): { configMask: number; configValues: { kind: 'u32' | 'u64'; value: number | bigint }[] } {
  let configMask = 0;
  const configValues: { kind: 'u32' | 'u64'; value: number | bigint }[] = [];
  if (c?.priorityFee != null) (configMask |= PRIORITY_FEE), configValues.push({ kind: 'u64', value: BigInt(c.priorityFee) });
  if (c?.computeUnitLimit != null) (configMask |= COMPUTE_UNIT_LIMIT), configValues.push({ kind: 'u32', value: c.computeUnitLimit });
  if (c?.loadedAccountsDataSizeLimit != null) (configMask |= LOADED_ACCOUNTS_DATA_SIZE_LIMIT), configValues.push({ kind: 'u32', value: c.loadedAccountsDataSizeLimit });
  if (c?.heapSize != null) (configMask |= HEAP_SIZE), configValues.push({ kind: 'u32', value: c.heapSize });
  return { configMask, configValues };
}

/** Encode the raw form back to wire bytes (the inverse of {@link decodeWireTransaction}). Errors: throws on malformed keys or data. */
export function encodeWireTransaction(tx: RawTransaction): Uint8Array {
  const enc = getBase58Encoder();
  const m = tx.message;
  const compiled = tx.version === 1 ? {
    version: 1,
    header: {
      numSignerAccounts: m.header.numRequiredSignatures,
      numReadonlySignerAccounts: m.header.numReadonlySignedAccounts,
      numReadonlyNonSignerAccounts: m.header.numReadonlyUnsignedAccounts,
    },
    ...configToMask(m.transactionConfig),
    lifetimeToken: m.recentBlockhash,
    numInstructions: m.instructions.length,
    numStaticAccounts: m.accountKeys.length,
    staticAccounts: m.accountKeys,
    instructionHeaders: m.instructions.map((ix) => ({ programAccountIndex: ix.programIdIndex, numInstructionAccounts: ix.accounts.length, numInstructionDataBytes: enc.encode(ix.data).length })),
    instructionPayloads: m.instructions.map((ix) => ({ instructionAccountIndices: ix.accounts, instructionData: enc.encode(ix.data) })),
  } : {
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
