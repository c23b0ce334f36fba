/**
 * Transaction specs and their rendering to getTransaction results in `json` encoding, version 0, or
 * version 1 (SIMD-0385) for a share of the 2026-10 era (reference.md §5): account-key ordering and header, instruction indexes, inner instructions with
 * stack heights, logs, lamport and token balances from a running {@link Ledger}. Also the small
 * builders shared by every instruction: nested invocations with their log lines, System/SPL-Token
 * CPIs, and Anchor event emission (log line + self-CPI). Pure apart from the ledger's own state.
 */
import type { Rng } from './prng.ts';
import { eventCpiData } from './borsh-encode.ts';
import { COMPUTE_BUDGET, SYSTEM_PROGRAM, TOKEN_2022_PROGRAM, WSOL_MINT, toBase58 } from './keys.ts';

/** An account of a top-level instruction. */
export interface AccountMeta {
  address: string;
  signer?: boolean;
  writable?: boolean;
}

/** An inner (CPI) instruction. */
export interface InnerIx {
  programId: string;
  accounts: string[];
  data: Uint8Array;
  stackHeight: number;
}

/** A top-level instruction with the CPIs it made. */
export interface TopIx {
  programId: string;
  accounts: AccountMeta[];
  data: Uint8Array;
  inner: InnerIx[];
}

/** A change of a token account of the launch's mint. */
export interface TokenChange {
  account: string;
  mint: string;
  owner: string;
  programId: string;
  delta: bigint;
  /** the account existed before this tx even if the ledger has not seen it (balance 0) */
  preExisting?: boolean;
  /** the balance it held before the ledger first saw it (a trader's quote tokens, bought elsewhere); implies preExisting */
  initial?: bigint;
}

/** An event the tx emits (semantic fields; truth is derived from these). */
export interface EmittedEvent {
  program: 'pump' | 'pump_amm';
  name: string;
  /** the fields the event's bytes carry (older eras' shorter layouts omit the later ones) */
  fields: Record<string, unknown>;
}

/** Transaction error in RPC form. */
export type TxError = { InstructionError: [number, { Custom: number }] };

/** Everything needed to render one transaction. */
export interface TxSpec {
  signature: string;
  slot: number;
  feePayer: string;
  recentBlockhash: string;
  instructions: TopIx[];
  logs: string[];
  err: TxError | null;
  /** lamport changes except the fee (ignored when err is set) */
  lamports: [string, bigint][];
  /** token changes of the launch's mint (ignored when err is set) */
  tokens: TokenChange[];
  computeUnits: number;
  events: EmittedEvent[];
  /** the launch this tx belongs to */
  mint: string;
  /** what the tx is, for summaries and truth */
  tag: 'create' | 'trade' | 'migrate' | 'noop_migrate' | 'withdraw' | 'funding' | 'pool_sell' | 'sweep' | 'pool_sweep';
  /** for `withdraw`: a successful keeper withdraw of this mint */
  withdrawMint?: string;
  /** for `funding`: the System transfer */
  funding?: { from: string; to: string; lamports: bigint };
  /** trades in this tx by wallet (semantic; also carried by TradeEvents) */
  viaRouter?: boolean;
  jitoTip?: boolean;
}

export const TX_FEE = 5000n;

/** Builds the inner instructions and log lines of one top-level instruction. */
export class Invocation {
  readonly inner: InnerIx[] = [];
  readonly logs: string[] = [];
  remaining: number;

  constructor(
    readonly rng: Rng,
    budget: number,
  ) {
    this.remaining = budget;
  }

  /** Record a CPI (depth ≥ 2) as an inner instruction. */
  cpi(programId: string, accounts: string[], data: Uint8Array, depth: number): void {
    if (depth >= 2) this.inner.push({ programId, accounts, data, stackHeight: depth });
  }

  /** Wrap a program invocation's log lines: invoke [d] … consumed … success. `body` returns nothing. */
  invoke(programId: string, depth: number, body: () => void, ownUnits: number, opts: { consumedLine?: boolean; fail?: number } = {}): void {
    const start = this.remaining;
    this.logs.push(`Program ${programId} invoke [${depth}]`);
    body();
    const used = Math.min(start, start - this.remaining + ownUnits);
    this.remaining = start - used;
    if (opts.consumedLine !== false) this.logs.push(`Program ${programId} consumed ${used} of ${start} compute units`);
    if (opts.fail !== undefined) this.logs.push(`Program ${programId} failed: custom program error: 0x${opts.fail.toString(16)}`);
    else this.logs.push(`Program ${programId} success`);
  }

  log(msg: string): void {
    this.logs.push(`Program log: ${msg}`);
  }
}

function u32le(v: number): Uint8Array {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, v, true);
  return b;
}
function u64le(v: bigint): Uint8Array {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, BigInt.asUintN(64, v), true);
  return b;
}
/** Concatenate byte arrays. */
export function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** System transfer instruction data. */
export function systemTransferData(lamports: bigint): Uint8Array {
  return concat(u32le(2), u64le(lamports));
}
/** System createAccount data. */
export function systemCreateAccountData(lamports: bigint, space: number, owner: string, ownerBytes: Uint8Array): Uint8Array {
  void owner;
  return concat(u32le(0), u64le(lamports), u64le(BigInt(space)), ownerBytes);
}

/** A System transfer as a CPI at `depth` (no inner record at depth 1: the caller adds the top-level ix). */
export function cpiSystemTransfer(inv: Invocation, from: string, to: string, lamports: bigint, depth: number): void {
  inv.cpi(SYSTEM_PROGRAM, [from, to], systemTransferData(lamports), depth);
  inv.logs.push(`Program ${SYSTEM_PROGRAM} invoke [${depth}]`, `Program ${SYSTEM_PROGRAM} success`);
}

/** A token transfer CPI: Transfer (Tokenkeg) or TransferChecked (Token-2022). */
export function cpiTokenTransfer(inv: Invocation, tokenProgram: string, src: string, mint: string, dst: string, authority: string, amount: bigint, depth: number): void {
  const checked = tokenProgram === TOKEN_2022_PROGRAM;
  const data = checked ? concat(Uint8Array.of(12), u64le(amount), Uint8Array.of(6)) : concat(Uint8Array.of(3), u64le(amount));
  inv.cpi(tokenProgram, checked ? [src, mint, dst, authority] : [src, dst, authority], data, depth);
  inv.invoke(tokenProgram, depth, () => inv.log(checked ? 'Instruction: TransferChecked' : 'Instruction: Transfer'), checked ? 2562 : 4645);
}

/** A simple SPL-Token CPI with one log line (MintTo, SetAuthority, InitializeMint2, SyncNative…). */
export function cpiToken(inv: Invocation, tokenProgram: string, accounts: string[], data: Uint8Array, name: string, depth: number, units = 2000): void {
  inv.cpi(tokenProgram, accounts, data, depth);
  inv.invoke(tokenProgram, depth, () => inv.log(`Instruction: ${name}`), units);
}

/** u64 little-endian bytes. */
export const u64 = u64le;

/**
 * Emit an Anchor event both ways (reference.md §1.6): `Program data: <base64>` in the logs of the
 * emitting program at `depth`, and a self-CPI at depth+1 to `programId` with accounts
 * [eventAuthority] and data EVENT_IX_TAG ‖ event bytes.
 */
export function emitEvent(inv: Invocation, programId: string, eventAuthority: string, eventBytes: Uint8Array, depth: number): void {
  inv.logs.push(`Program data: ${Buffer.from(eventBytes).toString('base64')}`);
  inv.cpi(programId, [eventAuthority], eventCpiData(eventBytes), depth + 1);
  inv.invoke(programId, depth + 1, () => {}, 2003 + (eventBytes.length > 200 ? 122 : 0));
}

/** ComputeBudget SetComputeUnitLimit / SetComputeUnitPrice top-level instructions. */
export function computeBudgetIxs(limit: number, microLamports: bigint): TopIx[] {
  return [
    { programId: COMPUTE_BUDGET, accounts: [], data: concat(Uint8Array.of(2), u32le(limit)), inner: [] },
    { programId: COMPUTE_BUDGET, accounts: [], data: concat(Uint8Array.of(3), u64le(microLamports)), inner: [] },
  ];
}
/** Log lines of the ComputeBudget instructions. */
export function computeBudgetLogs(n: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(`Program ${COMPUTE_BUDGET} invoke [1]`, `Program ${COMPUTE_BUDGET} success`);
  return out;
}

/** Running balances while rendering in block order. */
export class Ledger {
  readonly lamports = new Map<string, bigint>();
  readonly tokens = new Map<string, bigint>();

  /** @param initial initial lamports of known wallets; anything else starts from `fallback(address)` */
  constructor(
    private readonly initial: Map<string, bigint>,
    private readonly fallback: (address: string) => bigint,
  ) {}

  lamportsOf(a: string): bigint {
    const v = this.lamports.get(a);
    if (v !== undefined) return v;
    const init = this.initial.get(a) ?? this.fallback(a);
    this.lamports.set(a, init);
    return init;
  }
}

/** A token balance's `uiTokenAmount` as the RPC writes it: wrapped SOL has 9 decimals, every simulated mint (pump coins, USDC) 6. */
function uiAmount(amount: bigint, mint: string): { amount: string; decimals: number; uiAmount: number | null; uiAmountString: string } {
  const decimals = mint === WSOL_MINT ? 9 : 6;
  const unit = 10n ** BigInt(decimals);
  const s = amount.toString();
  const int = (amount / unit).toString();
  const frac = (amount % unit).toString().padStart(decimals, '0').replace(/0+$/, '');
  const ui = frac ? `${int}.${frac}` : int;
  return { amount: s, decimals, uiAmount: amount === 0n ? null : Number(ui), uiAmountString: ui };
}

/** Default loadedAccountsDataSizeLimit of a version-1 transaction (the value real fixture rRUVF4GS… carries). */
const V1_LOADED_ACCOUNTS_LIMIT = 67_108_864;

/**
 * The version-1 (SIMD-0385) form of a spec: its leading ComputeBudget instructions become
 * `message.transactionConfig` (their log lines go too, an instruction error's index shifts), and the
 * priority fee is charged: fee = 5000 + ceil(limit × microLamports / 1e6).
 */
function asVersion1(spec: TxSpec): { spec: TxSpec; config: Record<string, number | null>; fee: bigint } {
  let limit: number | null = null;
  let price = 0n;
  let n = 0;
  while (spec.instructions[n]?.programId === COMPUTE_BUDGET) {
    const d = spec.instructions[n]!.data;
    const dv = new DataView(d.buffer, d.byteOffset, d.byteLength);
    if (d[0] === 2) limit = dv.getUint32(1, true);
    if (d[0] === 3) price = dv.getBigUint64(1, true);
    n++;
  }
  const priorityFee = limit === null ? 0n : (BigInt(limit) * price + 999_999n) / 1_000_000n;
  let logs = spec.logs;
  for (let i = 0; i < n; i++) {
    if (logs[0] !== `Program ${COMPUTE_BUDGET} invoke [1]` || logs[1] !== `Program ${COMPUTE_BUDGET} success`) throw new Error('compute-budget log lines expected first');
    logs = logs.slice(2);
  }
  const err: TxError | null = spec.err ? { InstructionError: [spec.err.InstructionError[0] - n, spec.err.InstructionError[1]] } : null;
  return {
    spec: { ...spec, instructions: spec.instructions.slice(n), logs, err },
    config: { computeUnitLimit: limit, heapSize: null, loadedAccountsDataSizeLimit: V1_LOADED_ACCOUNTS_LIMIT, priorityFee: Number(priorityFee) },
    fee: TX_FEE + priorityFee,
  };
}

/**
 * Render a spec to a getTransaction (json) result, advancing the ledger: version 0 (no lookup tables
 * used), or with `v1` version 1 as real 2026-10 fixtures show it (tests/fixtures/mainnet/
 * pump_multi_hop_swap_curve_rRUVF4GSZNRA_20261008.json): `message.transactionConfig` instead of
 * ComputeBudget instructions and no `addressTableLookups`; top-level instructions carry stackHeight 1.
 */
export function renderTransaction(spec0: TxSpec, blockTime: number, ledger: Ledger, v1 = false): Record<string, unknown> {
  const v = v1 ? asVersion1(spec0) : null;
  const spec = v ? v.spec : spec0;
  const fee = v ? v.fee : TX_FEE;
  // Account keys: fee payer, signer-writable, signer-readonly, writable, readonly (first-seen order).
  const flags = new Map<string, { signer: boolean; writable: boolean }>();
  const touch = (a: string, signer: boolean, writable: boolean) => {
    const f = flags.get(a);
    if (f) {
      f.signer ||= signer;
      f.writable ||= writable;
    } else flags.set(a, { signer, writable });
  };
  touch(spec.feePayer, true, true);
  for (const ix of spec.instructions) {
    for (const m of ix.accounts) touch(m.address, !!m.signer, !!m.writable);
    touch(ix.programId, false, false);
  }
  for (const ix of spec.instructions) for (const inner of ix.inner) for (const a of [inner.programId, ...inner.accounts]) touch(a, false, false);
  const all = [...flags.entries()];
  const group = (s: boolean, w: boolean) => all.filter(([, f]) => f.signer === s && f.writable === w).map(([a]) => a);
  const keys = [...group(true, true), ...group(true, false), ...group(false, true), ...group(false, false)];
  const index = new Map(keys.map((k, i) => [k, i]));
  const idx = (a: string) => index.get(a)!;
  const header = {
    numRequiredSignatures: group(true, true).length + group(true, false).length,
    numReadonlySignedAccounts: group(true, false).length,
    numReadonlyUnsignedAccounts: group(false, false).length,
  };
  // Signatures: fee payer's is the tx signature; other signers get derived fake signatures.
  const signatures = [spec.signature];
  for (let i = 1; i < header.numRequiredSignatures; i++) {
    const b = Buffer.from(spec.signature);
    const bytes = new Uint8Array(64);
    for (let j = 0; j < 64; j++) bytes[j] = (b[j % b.length] * 31 + i * 17 + j * 7) & 0xff;
    signatures.push(toBase58(bytes));
  }

  const ok = spec.err === null;
  const pre = keys.map((k) => ledger.lamportsOf(k));
  const delta = new Map<string, bigint>();
  delta.set(spec.feePayer, -fee);
  if (ok) for (const [a, d] of spec.lamports) delta.set(a, (delta.get(a) ?? 0n) + d);
  const post = keys.map((k, i) => pre[i] + (delta.get(k) ?? 0n));
  keys.forEach((k, i) => ledger.lamports.set(k, post[i]));

  // Token balances of the touched token accounts.
  const touched = new Map<string, TokenChange & { total: bigint }>();
  for (const t of spec.tokens) {
    const cur = touched.get(t.account);
    if (cur) cur.total += t.delta;
    else touched.set(t.account, { ...t, total: t.delta });
  }
  const preTokenBalances: unknown[] = [];
  const postTokenBalances: unknown[] = [];
  for (const t of touched.values()) {
    const before = ledger.tokens.get(t.account) ?? t.initial ?? (t.preExisting ? 0n : undefined);
    const entry = (amount: bigint) => ({ accountIndex: idx(t.account), mint: t.mint, owner: t.owner, programId: t.programId, uiTokenAmount: uiAmount(amount, t.mint) });
    if (before !== undefined) preTokenBalances.push(entry(before));
    if (ok) {
      const after = (before ?? 0n) + t.total;
      ledger.tokens.set(t.account, after);
      postTokenBalances.push(entry(after));
    } else if (before !== undefined) postTokenBalances.push(entry(before));
  }
  const byIndex = (a: unknown, b: unknown) => (a as { accountIndex: number }).accountIndex - (b as { accountIndex: number }).accountIndex;
  preTokenBalances.sort(byIndex);
  postTokenBalances.sort(byIndex);

  const innerInstructions = ok
    ? spec.instructions
        .map((ix, i) => ({
          index: i,
          instructions: ix.inner.map((x) => ({ programIdIndex: idx(x.programId), accounts: x.accounts.map(idx), data: toBase58(x.data), stackHeight: x.stackHeight })),
        }))
        .filter((x) => x.instructions.length > 0)
    : [];

  const instructions = spec.instructions.map((ix) => ({
    programIdIndex: idx(ix.programId),
    accounts: ix.accounts.map((m) => idx(m.address)),
    data: toBase58(ix.data),
    stackHeight: v ? 1 : null,
  }));
  return {
    slot: spec.slot,
    blockTime,
    version: v ? 1 : 0,
    transaction: {
      signatures,
      message: v
        ? { header, accountKeys: keys, recentBlockhash: spec.recentBlockhash, instructions, transactionConfig: v.config }
        : { header, accountKeys: keys, recentBlockhash: spec.recentBlockhash, instructions, addressTableLookups: [] },
    },
    meta: {
      err: spec.err,
      status: spec.err === null ? { Ok: null } : { Err: spec.err },
      fee: Number(fee),
      preBalances: pre.map(Number),
      postBalances: post.map(Number),
      innerInstructions,
      logMessages: spec.logs,
      preTokenBalances,
      postTokenBalances,
      rewards: [],
      loadedAddresses: { writable: [], readonly: [] },
      computeUnitsConsumed: spec.computeUnits,
      ...(v ? { costUnits: spec.computeUnits + 1_470 * header.numRequiredSignatures + 10 * keys.length } : {}),
    },
  };
}
