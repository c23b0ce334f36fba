/**
 * The HTTP JSON-RPC methods of the replay RPC. Each handler takes the positional `params` and
 * returns the `result`, or throws {@link RpcError} with mainnet's code and message.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { getBase58Decoder } from '@solana/kit';
import { type AccountEncoding, renderAccount } from './account.ts';
import type { ChainIndex } from './chain-index.ts';
import { blockNotAvailable, minContextSlotNotReached, RpcError, unsupportedTransactionVersion } from './errors.ts';
import { atLeastConfirmed, checkPubkey, checkSignature, commitment, config, parseParams, str, u64, usize, variant } from './params.ts';
import { renderTransaction, type TxEncoding } from './transaction.ts';

/** What handlers read: the chain and the replay clock. */
export interface MethodContext {
  index: ChainIndex;
  /** the current slot (newest visible) */
  slot(): number;
}

/** A method handler. */
export type MethodHandler = (params: unknown[], ctx: MethodContext) => unknown;

/** The apiVersion reported in `context`, and solana-core of getVersion. */
export const API_VERSION = '2.2.0';
const FEATURE_SET = 3294202862;
const MAINNET_GENESIS_HASH = '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d';
const MAX_SIGNATURES_LIMIT = 1000;
const MAX_MULTIPLE_ACCOUNTS = 100;

const minSlot = (ctx: MethodContext, min: number | undefined | null) => {
  if (min != null && min > ctx.slot()) throw minContextSlotNotReached(ctx.slot());
};
const context = (ctx: MethodContext) => ({ apiVersion: API_VERSION, slot: ctx.slot() });
/** Synthetic block height (mainnet's trails the slot by skipped slots; ~7 %). */
const blockHeight = (slot: number) => Math.floor(slot * 0.93);
/** Deterministic, valid-looking blockhash of a slot. */
const blockhashOf = (slot: number) => getBase58Decoder().decode(createHash('sha256').update(`replay-blockhash:${slot}`).digest());

const slotConfig = config({ commitment: commitment().optional(), minContextSlot: u64().optional() }, 'RpcContextConfig');
const accountEncoding = variant(['binary', 'base58', 'base64', 'base64+zstd', 'jsonParsed'] as const);
const accountConfig = config(
  {
    encoding: accountEncoding.optional(),
    commitment: commitment().optional(),
    dataSlice: z.object({ offset: usize(), length: usize() }, { error: () => 'invalid type: expected struct UiDataSliceConfig' }).optional(),
    minContextSlot: u64().optional(),
  },
  'RpcAccountInfoConfig',
);
type AccountConfig = z.infer<typeof accountConfig>;

// Every parameter schema is built once here: building a zod schema costs far more than parsing with it.
const strParam = str();
const signaturesConfig = config(
  { limit: usize().optional(), before: str().optional(), until: str().optional(), commitment: commitment().optional(), minContextSlot: u64().optional() },
  'RpcSignaturesForAddressConfig',
);
const txEncoding = variant(['json', 'jsonParsed', 'base58', 'base64', 'binary'] as const);
const transactionConfig = z.union([txEncoding, config({ encoding: txEncoding.optional(), commitment: commitment().optional(), maxSupportedTransactionVersion: z.number().int().min(0).max(255).optional() }, 'RpcTransactionConfig')]);
const addressList = z.array(str(), { error: (iss) => `invalid type: ${typeof iss.input}, expected a sequence` });
const slotParam = u64();

function accountValue(ctx: MethodContext, address: string, cfg: AccountConfig) {
  const acc = ctx.index.account(address, ctx.slot());
  if (!acc) return null;
  const enc = (cfg?.encoding === 'binary' ? undefined : cfg?.encoding) as AccountEncoding;
  return renderAccount(acc, enc, cfg?.dataSlice);
}

/** Every HTTP method the replay serves, by name. */
export const HTTP_METHODS: Record<string, MethodHandler> = {
  getSignaturesForAddress(params, ctx) {
    const [addr, cfg] = parseParams(params, 1, [strParam, signaturesConfig]) as [string, { limit?: number; before?: string; until?: string; commitment?: string; minContextSlot?: number } | null | undefined];
    checkPubkey(addr);
    const limit = cfg?.limit ?? MAX_SIGNATURES_LIMIT;
    if (limit === 0 || limit > MAX_SIGNATURES_LIMIT) throw new RpcError(-32602, `Invalid limit; max ${MAX_SIGNATURES_LIMIT}`);
    if (cfg?.before !== undefined) checkSignature(cfg.before);
    if (cfg?.until !== undefined) checkSignature(cfg.until);
    atLeastConfirmed(cfg?.commitment);
    minSlot(ctx, cfg?.minContextSlot);
    return ctx.index.signaturesFor(addr, ctx.slot(), { limit, before: cfg?.before, until: cfg?.until }).map((tx) => ({
      blockTime: tx.blockTime,
      confirmationStatus: 'finalized',
      err: tx.err,
      memo: null,
      signature: tx.signature,
      slot: tx.slot,
    }));
  },

  getTransaction(params, ctx) {
    const [sig, rawCfg] = parseParams(params, 1, [strParam, transactionConfig]) as [string, string | { encoding?: string; commitment?: string; maxSupportedTransactionVersion?: number } | null | undefined];
    checkSignature(sig);
    const cfg = typeof rawCfg === 'string' ? { encoding: rawCfg } : (rawCfg ?? {});
    atLeastConfirmed(cfg.commitment);
    const tx = ctx.index.transaction(sig, ctx.slot());
    if (!tx) return null;
    const max = 'maxSupportedTransactionVersion' in cfg ? cfg.maxSupportedTransactionVersion : undefined;
    // mainnet (Agave) refuses a versioned transaction above the caller's maximum, or any versioned one without it
    if (tx.version !== 'legacy' && (max === undefined || max < tx.version)) throw unsupportedTransactionVersion(tx.version);
    const encoding = (cfg.encoding ?? 'json') as TxEncoding | 'binary';
    const out = renderTransaction(tx, encoding === 'binary' ? 'base58' : encoding, max !== undefined);
    if (encoding === 'binary' && Array.isArray(out.transaction) && out.transaction[1] === 'base58') out.transaction = out.transaction[0];
    return out;
  },

  getAccountInfo(params, ctx) {
    const [addr, cfg] = parseParams(params, 1, [strParam, accountConfig]) as [string, AccountConfig];
    checkPubkey(addr);
    minSlot(ctx, cfg?.minContextSlot);
    return { context: context(ctx), value: accountValue(ctx, addr, cfg) };
  },

  getMultipleAccounts(params, ctx) {
    const [addrs, cfg] = parseParams(params, 1, [addressList, accountConfig]) as [string[], AccountConfig];
    if (addrs.length > MAX_MULTIPLE_ACCOUNTS) throw new RpcError(-32602, `Too many inputs provided; max ${MAX_MULTIPLE_ACCOUNTS}`);
    addrs.forEach(checkPubkey);
    minSlot(ctx, cfg?.minContextSlot);
    return { context: context(ctx), value: addrs.map((a) => accountValue(ctx, a, cfg)) };
  },

  getSlot(params, ctx) {
    const [cfg] = parseParams(params, 0, [slotConfig]) as [{ minContextSlot?: number } | null | undefined];
    minSlot(ctx, cfg?.minContextSlot);
    return ctx.slot();
  },

  getBlockHeight(params, ctx) {
    const [cfg] = parseParams(params, 0, [slotConfig]) as [{ minContextSlot?: number } | null | undefined];
    minSlot(ctx, cfg?.minContextSlot);
    return blockHeight(ctx.slot());
  },

  getBlockTime(params, ctx) {
    const [slot] = parseParams(params, 1, [slotParam]) as [number];
    const t = slot <= ctx.slot() ? ctx.index.blockTime(slot) : undefined;
    if (t === undefined) throw blockNotAvailable(slot);
    return t;
  },

  getLatestBlockhash(params, ctx) {
    const [cfg] = parseParams(params, 0, [slotConfig]) as [{ minContextSlot?: number } | null | undefined];
    minSlot(ctx, cfg?.minContextSlot);
    const slot = ctx.slot();
    return { context: context(ctx), value: { blockhash: blockhashOf(slot), lastValidBlockHeight: blockHeight(slot) + 150 } };
  },

  getHealth() {
    return 'ok';
  },

  getVersion() {
    return { 'feature-set': FEATURE_SET, 'solana-core': API_VERSION };
  },

  getGenesisHash() {
    return MAINNET_GENESIS_HASH;
  },

  getFirstAvailableBlock(_params, ctx) {
    return ctx.index.txSlots[0] ?? 0;
  },
};
