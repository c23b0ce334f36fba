/**
 * One chain transaction, read from any fixture shape and served in any getTransaction encoding.
 *
 * Accepted input (with or without the JSON-RPC envelope `{jsonrpc, result, id}`):
 * - a getTransaction result in `json` (accountKeys are strings), `jsonParsed` (accountKeys are
 *   `{pubkey, signer, writable, source}`) or `base64`/`base58` (`transaction: [<wire>, enc]`,
 *   meta in `json` form) encoding;
 * - legacy, version 0 and version 1 (SIMD-0385: `message.transactionConfig`, no lookup tables; its
 *   version is taken from `version`, else from the message's shape);
 * - a blockSubscribe element `{transaction: [<b64>, "base64"], meta, version}` (no slot/blockTime:
 *   the caller supplies them).
 *
 * Conversions offered by {@link renderTransaction}:
 * - json ↔ base64/base58 always (via the wire codec);
 * - json/base64 → jsonParsed: accountKeys become `{pubkey, signer, writable, source}` and every
 *   instruction (top level and inner) stays in the raw `{programId, accounts:[base58], data,
 *   stackHeight}` form. ⚠ Real mainnet would also `parse` System, SPL-Token, ATA, Memo … instructions
 *   into `{program, programId, parsed}`; the replay does not.
 * - jsonParsed → json/base64: only when every instruction is raw (no `parsed`) and the keys are in
 *   canonical message order; otherwise the jsonParsed form is served for every encoding (a known
 *   difference from mainnet; all shipped 2024/2026 jsonParsed fixtures contain parsed System
 *   instructions, so they are always served as jsonParsed).
 */
import { z } from 'zod';
import { getBase58Decoder, getBase58Encoder } from '@solana/kit';
import { decodeWireTransaction, encodeWireTransaction, type RawInstruction, type RawTransaction, type RawTransactionConfig } from './wire.ts';

/** Encodings a getTransaction caller may ask for. */
export type TxEncoding = 'json' | 'jsonParsed' | 'base64' | 'base58';

/** `meta` of a transaction (json form unless noted); kept as read. */
export type Meta = Record<string, unknown>;

/** A transaction held by the replay chain. */
export interface ChainTransaction {
  /** base58, the first signature */
  signature: string;
  slot: number;
  /** unix seconds, null when unknown */
  blockTime: number | null;
  version: 0 | 1 | 'legacy';
  /** meta.err (null = success) */
  err: unknown;
  /** meta.logMessages ([] when absent) */
  logs: string[];
  /** every key referenced: static keys ++ loadedAddresses.writable ++ loadedAddresses.readonly (deduplicated) */
  accountKeys: string[];
  /** the encoding the file was stored in */
  storedEncoding: 'json' | 'jsonParsed' | 'base64';
  /** the raw `json` form, when it can be produced */
  raw: RawTransaction | null;
  /** meta in `json` form (with loadedAddresses), when `raw` is set */
  metaJson: Meta | null;
  /** the stored jsonParsed `{transaction, meta}`, when stored so */
  parsed: { transaction: Record<string, unknown>; meta: Meta | null } | null;
  /** the stored wire transaction, base64 */
  wireBase64: string | null;
}

/** Slot/blockTime supplied from outside the file (chain.json entries); they override the file's. */
export interface TxPlacement {
  slot?: number;
  blockTime?: number | null;
}

const keyObject = z.looseObject({ pubkey: z.string(), signer: z.boolean().optional(), writable: z.boolean().optional(), source: z.string().optional() });
const txFileSchema = z.looseObject({
  slot: z.number().int().nonnegative().optional(),
  blockTime: z.number().int().nullable().optional(),
  version: z.union([z.literal(0), z.literal(1), z.literal('legacy')]).optional(),
  meta: z.record(z.string(), z.unknown()).nullable().optional(),
  transaction: z.union([
    z.tuple([z.string(), z.enum(['base64', 'base58'])]),
    z.looseObject({
      signatures: z.array(z.string()).min(1),
      message: z.looseObject({ accountKeys: z.array(z.union([z.string(), keyObject])) }),
    }),
  ]),
});

/** Error thrown for input that is not a transaction in a known shape. */
export class TransactionFormatError extends Error {
  override name = 'TransactionFormatError';
}

const RESERVED = new Set([
  '11111111111111111111111111111111',
  'ComputeBudget111111111111111111111111111111',
  'AddressLookupTab1e1111111111111111111111111',
  'BPFLoader2111111111111111111111111111111111',
  'BPFLoaderUpgradeab1e11111111111111111111111',
  'Config1111111111111111111111111111111111111',
  'Ed25519SigVerify111111111111111111111111111',
  'KeccakSecp256k11111111111111111111111111111',
  'NativeLoader1111111111111111111111111111111',
  'Stake11111111111111111111111111111111111111',
  'Vote111111111111111111111111111111111111111',
  'SysvarC1ock11111111111111111111111111111111',
  'SysvarRent111111111111111111111111111111111',
  'Sysvar1nstructions1111111111111111111111111',
  'SysvarRecentB1ockHashes11111111111111111111',
  'SysvarEpochSchedu1e111111111111111111111111',
  'SysvarS1otHashes111111111111111111111111111',
  'SysvarStakeHistory1111111111111111111111111',
  'SysvarFees111111111111111111111111111111111',
]);

function unwrapEnvelope(input: unknown): unknown {
  if (input && typeof input === 'object' && !Array.isArray(input) && 'result' in input && ('jsonrpc' in input || 'id' in input)) {
    return (input as { result: unknown }).result;
  }
  return input;
}

function loaded(meta: Meta | null | undefined): { writable: string[]; readonly: string[] } {
  const la = meta?.loadedAddresses as { writable?: string[]; readonly?: string[] } | undefined;
  return { writable: la?.writable ?? [], readonly: la?.readonly ?? [] };
}

const isRawIx = (ix: unknown): ix is { programId: string; accounts: string[]; data: string; stackHeight?: number | null } =>
  !!ix && typeof ix === 'object' && !('parsed' in ix) && typeof (ix as { data?: unknown }).data === 'string' && Array.isArray((ix as { accounts?: unknown }).accounts);

/** jsonParsed → raw json form, or null when some instruction is parsed or keys are not in message order. */
function rawFromParsed(tx: Record<string, unknown>, meta: Meta | null, version: 0 | 1 | 'legacy'): { raw: RawTransaction; metaJson: Meta } | null {
  const message = tx.message as { accountKeys: z.infer<typeof keyObject>[]; recentBlockhash: string; instructions: unknown[]; addressTableLookups?: RawTransaction['message']['addressTableLookups']; transactionConfig?: RawTransactionConfig };
  const keys = message.accountKeys;
  const statics = keys.filter((k) => k.source !== 'lookupTable');
  const lookW = keys.filter((k) => k.source === 'lookupTable' && k.writable).map((k) => k.pubkey);
  const lookR = keys.filter((k) => k.source === 'lookupTable' && !k.writable).map((k) => k.pubkey);
  let prev = 0;
  for (const k of statics) {
    const cls = k.signer ? (k.writable ? 0 : 1) : k.writable ? 2 : 3;
    if (cls < prev) return null;
    prev = cls;
  }
  const all = [...statics.map((k) => k.pubkey), ...lookW, ...lookR];
  const index = new Map(all.map((k, i) => [k, i]));
  const toRaw = (ix: unknown): RawInstruction | null => {
    if (!isRawIx(ix)) return null;
    const programIdIndex = index.get(ix.programId);
    const accounts = ix.accounts.map((a) => index.get(a));
    if (programIdIndex === undefined || accounts.some((a) => a === undefined)) return null;
    return { programIdIndex, accounts: accounts as number[], data: ix.data, stackHeight: ix.stackHeight ?? null };
  };
  const instructions = message.instructions.map(toRaw);
  if (instructions.some((i) => i === null)) return null;
  let metaJson: Meta = {};
  if (meta) {
    const inner = ((meta.innerInstructions as { index: number; instructions: unknown[] }[] | null | undefined) ?? []).map((g) => ({ index: g.index, instructions: g.instructions.map(toRaw) }));
    if (inner.some((g) => g.instructions.some((i) => i === null))) return null;
    metaJson = { ...meta, innerInstructions: meta.innerInstructions === undefined ? [] : inner, loadedAddresses: { writable: lookW, readonly: lookR } };
  }
  const signers = statics.filter((k) => k.signer);
  const raw: RawTransaction = {
    version,
    signatures: tx.signatures as string[],
    message: {
      header: {
        numRequiredSignatures: signers.length,
        numReadonlySignedAccounts: signers.filter((k) => !k.writable).length,
        numReadonlyUnsignedAccounts: statics.filter((k) => !k.signer && !k.writable).length,
      },
      accountKeys: statics.map((k) => k.pubkey),
      recentBlockhash: message.recentBlockhash,
      instructions: instructions as RawInstruction[],
      ...(version === 0 ? { addressTableLookups: message.addressTableLookups ?? [] } : {}),
      ...(version === 1 ? { transactionConfig: message.transactionConfig ?? NO_CONFIG } : {}),
    },
  };
  return { raw, metaJson };
}

/** raw json form → jsonParsed `{transaction, meta}` (instructions left unparsed; see the module note). */
function parsedFromRaw(raw: RawTransaction, metaJson: Meta | null): { transaction: Record<string, unknown>; meta: Meta | null } {
  const { writable: lw, readonly: lr } = loaded(metaJson);
  const m = raw.message;
  const h = m.header;
  const n = m.accountKeys.length;
  const all = [...m.accountKeys, ...lw, ...lr];
  const programs = new Set(m.instructions.map((i) => i.programIdIndex));
  const upgradeable = all.includes('BPFLoaderUpgradeab1e11111111111111111111111');
  const accountKeys = all.map((pubkey, i) => {
    const signer = i < h.numRequiredSignatures;
    let writable = i < n ? (signer ? i < h.numRequiredSignatures - h.numReadonlySignedAccounts : i < n - h.numReadonlyUnsignedAccounts) : i < n + lw.length;
    // Mainnet reports `writable` after demotion of reserved keys and invoked programs.
    if (writable && (RESERVED.has(pubkey) || (programs.has(i) && !upgradeable))) writable = false;
    return { pubkey, signer, source: i < n ? 'transaction' : 'lookupTable', writable };
  });
  const ui = (ix: RawInstruction) => ({ accounts: ix.accounts.map((a) => all[a]), data: ix.data, programId: all[ix.programIdIndex], stackHeight: ix.stackHeight ?? null });
  let meta: Meta | null = null;
  if (metaJson) {
    const { loadedAddresses: _drop, ...rest } = metaJson;
    const inner = (metaJson.innerInstructions as { index: number; instructions: RawInstruction[] }[] | null | undefined) ?? null;
    meta = { ...rest, innerInstructions: inner ? inner.map((g) => ({ index: g.index, instructions: g.instructions.map(ui) })) : inner };
  }
  const message: Record<string, unknown> = { accountKeys, recentBlockhash: m.recentBlockhash, instructions: m.instructions.map(ui) };
  if (raw.version === 0) message.addressTableLookups = m.addressTableLookups ?? [];
  if (raw.version === 1) message.transactionConfig = m.transactionConfig ?? NO_CONFIG;
  return { transaction: { message, signatures: raw.signatures }, meta };
}

/** The `transactionConfig` of a v1 message that sets none (every value null). */
const NO_CONFIG: RawTransactionConfig = { computeUnitLimit: null, heapSize: null, loadedAccountsDataSizeLimit: null, priorityFee: null };

function uniq(keys: string[]): string[] {
  return [...new Set(keys)];
}

/**
 * Read one transaction in any accepted shape. `placement` completes/overrides slot and blockTime.
 * Errors: {@link TransactionFormatError} for an unknown shape, undecodable wire bytes, or no slot.
 */
export function normalizeTransaction(input: unknown, placement: TxPlacement = {}): ChainTransaction {
  const parsedInput = txFileSchema.safeParse(unwrapEnvelope(input));
  if (!parsedInput.success) throw new TransactionFormatError(`not a transaction in a known shape: ${parsedInput.error.issues[0]?.message ?? ''} at ${parsedInput.error.issues[0]?.path.join('.')}`);
  const f = parsedInput.data;
  const slot = placement.slot ?? f.slot;
  if (slot === undefined) throw new TransactionFormatError('transaction has no slot (give it one in chain.json)');
  const blockTime = placement.blockTime !== undefined ? placement.blockTime : (f.blockTime ?? null);
  const meta = (f.meta ?? null) as Meta | null;
  const base = { slot, blockTime, err: meta?.err ?? null, logs: ((meta?.logMessages as string[] | null | undefined) ?? []) as string[] };

  if (Array.isArray(f.transaction)) {
    const [text, enc] = f.transaction;
    let bytes: Uint8Array;
    let raw: RawTransaction;
    try {
      bytes = enc === 'base64' ? Buffer.from(text, 'base64') : (getBase58Encoder().encode(text) as Uint8Array);
      raw = decodeWireTransaction(bytes);
    } catch (e) {
      throw new TransactionFormatError(`undecodable ${enc} wire transaction: ${(e as Error).message}`);
    }
    const l = loaded(meta);
    return {
      ...base,
      signature: raw.signatures[0],
      version: f.version ?? raw.version,
      accountKeys: uniq([...raw.message.accountKeys, ...l.writable, ...l.readonly]),
      storedEncoding: 'base64',
      raw,
      metaJson: meta,
      parsed: null,
      wireBase64: Buffer.from(bytes).toString('base64'),
    };
  }
  const tx = f.transaction as Record<string, unknown> & { signatures: string[]; message: { accountKeys: (string | { pubkey: string })[] } };
  const first = tx.message.accountKeys[0];
  const shape = tx.message as { addressTableLookups?: unknown; transactionConfig?: unknown };
  const version = f.version ?? (shape.transactionConfig ? 1 : shape.addressTableLookups ? 0 : 'legacy');
  if (typeof first === 'object') {
    const conv = rawFromParsed(tx, meta, version);
    return {
      ...base,
      signature: tx.signatures[0],
      version,
      accountKeys: uniq(tx.message.accountKeys.map((k) => (k as { pubkey: string }).pubkey)),
      storedEncoding: 'jsonParsed',
      raw: conv?.raw ?? null,
      metaJson: conv?.metaJson ?? null,
      parsed: { transaction: tx, meta },
      wireBase64: null,
    };
  }
  const raw: RawTransaction = { version, signatures: tx.signatures, message: tx.message as unknown as RawTransaction['message'] };
  const l = loaded(meta);
  return {
    ...base,
    signature: tx.signatures[0],
    version,
    accountKeys: uniq([...(tx.message.accountKeys as string[]), ...l.writable, ...l.readonly]),
    storedEncoding: 'json',
    raw,
    metaJson: meta,
    parsed: null,
    wireBase64: null,
  };
}

/**
 * The getTransaction result for `tx` in `encoding`: `{slot, blockTime, version?, meta, transaction}`.
 * `version` is omitted when the caller sent no maxSupportedTransactionVersion (as mainnet does for
 * legacy transactions; v0 and v1 ones are refused before this point, as are versions above the
 * caller's maximum). Falls back to the jsonParsed form
 * when the stored file cannot be converted (see the module note).
 */
export function renderTransaction(tx: ChainTransaction, encoding: TxEncoding, withVersion: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = { blockTime: tx.blockTime, slot: tx.slot };
  if (withVersion) out.version = tx.version;
  if (encoding !== 'jsonParsed' && tx.raw) {
    out.meta = tx.metaJson;
    if (encoding === 'json') {
      const { version: _v, ...rest } = tx.raw;
      out.transaction = rest;
    } else {
      if (tx.wireBase64 === null) tx.wireBase64 = Buffer.from(encodeWireTransaction(tx.raw)).toString('base64');
      out.transaction = encoding === 'base64' ? [tx.wireBase64, 'base64'] : [getBase58Decoder().decode(Buffer.from(tx.wireBase64, 'base64')), 'base58'];
    }
    return out;
  }
  if (!tx.parsed) tx.parsed = parsedFromRaw(tx.raw!, tx.metaJson);
  out.meta = tx.parsed.meta;
  out.transaction = tx.parsed.transaction;
  return out;
}
