/**
 * Shared domain types of the archive. Pure: no I/O.
 *
 * Units: raw token units and lamports (or the quote mint's raw units) are decimal strings,
 * never JS numbers; slots are integers; `blockTime` is unix seconds (chain resolution);
 * timestamps in documents are {@link Instant}s (spec §2.1 "T").
 */

/** Spec §2.1 timestamp: `{ms: epoch milliseconds, iso: ISO 8601 UTC with ms and Z}`. */
export interface Instant {
  ms: number;
  iso: string;
}

/** Programs the decoder names: pump (6EF8…), PumpSwap (pAMM…) and Pump Fees (pfee…). */
export type ProgramName = 'pump' | 'pump_amm' | 'pump_fees';

/** Decoded value: u64/u128/i64/i128 as decimal strings, pubkeys base58, u8/u16/u32 numbers, Option → null | value. */
export type DecodedValue = string | number | boolean | null | DecodedValue[] | { [k: string]: DecodedValue };

/** One pump, PumpSwap or Pump Fees instruction found at any depth of a transaction. */
export interface DecodedInstruction {
  program: ProgramName;
  /** IDL instruction name, e.g. `create_v2`, `buy_exact_sol_in`, legacy `withdraw`. */
  name: string;
  /** true when found among inner instructions (a CPI from a router, Mayhem, or pump itself). */
  inner: boolean;
  /** Position: top-level index, and inner index when inner (`"3"` or `"3.1"`). */
  path: string;
  /** IDL account name → base58 address, by position; trailing extra accounts ignored. */
  accounts: Record<string, string>;
  /** IDL arg name → value; args absent from older data are absent. */
  args: Record<string, DecodedValue>;
}

/** One Anchor event of pump, PumpSwap or Pump Fees. */
export interface DecodedEvent {
  program: ProgramName;
  /** IDL event name, e.g. `TradeEvent`, `CompletePumpAmmMigrationEvent`. */
  name: string;
  /** IDL field name → value; fields absent from older (shorter) data are absent, not zero. */
  fields: Record<string, DecodedValue>;
  /** Top-level instruction index that emitted it, when known. */
  outerIndex: number | null;
  /** Where the bytes came from: the self-CPI inner instruction, or a `Program data:` log (fallback). */
  source: 'cpi' | 'log';
  /**
   * Bytes after the last field of the newest known layout (a newer, longer layout than the bundled
   * IDL knows: its known prefix is in `fields`). Present only when > 0.
   */
  extraBytes?: number;
}

/**
 * Something the decoder could not decode; it never throws for bad data.
 *
 * `program`, `kind` and `discriminator` are set exactly when the item is program data of pump,
 * PumpSwap or Pump Fees that the bundled IDLs do not describe (the drift guard, issue 20 item 3):
 * an instruction or event discriminator the decoder does not know, data shorter than a
 * discriminator, an event or instruction of a known name whose bytes fail to decode (malformed, or
 * an event ending inside a field). Items about the input's structure (`no meta`, keys, balances,
 * text that is not base58/base64) leave them unset. See `unrecognisedOf` (src/core/decode).
 */
export interface SkippedItem {
  /** `instruction 3`, `instruction 3.1` (inner), `log 12` (a `Program data:` line), `meta`, … */
  where: string;
  reason: string;
  /** the program whose data this is */
  program?: ProgramName;
  /** an instruction, or an Anchor event (self-CPI or `Program data:` line) */
  kind?: 'instruction' | 'event';
  /** lowercase hex of the 8-byte discriminator, or of the bytes there are when shorter (`''` for none) */
  discriminator?: string;
}

/** SPL token balance entry (pre/post), from `meta.pre/postTokenBalances`. */
export interface TokenBalance {
  accountIndex: number;
  account: string;
  mint: string;
  owner: string | null;
  /** raw token units */
  amount: string;
  /** the mint's decimals as the RPC reported them (`uiTokenAmount.decimals`); null when the answer did not give them */
  decimals: number | null;
}

/** Where and when a launch was created: the creation transaction's slot and blockTime (unix s; null unknown). */
export interface CreationAt {
  slot: number;
  blockTime: number | null;
}

/** Output of the decoder for one transaction (or one logsNotification). */
export interface DecodedTransaction {
  signature: string;
  slot: number | null;
  /** unix seconds, or null when the source has none (e.g. a blockSubscribe element). */
  blockTime: number | null;
  /** `meta.err`; a failed transaction (err ≠ null) counts for nothing in records. */
  err: unknown | null;
  /** Every account key (static ++ loaded writable ++ loaded readonly). */
  accountKeys: string[];
  /** Signer addresses (fee payer first). */
  signers: string[];
  instructions: DecodedInstruction[];
  events: DecodedEvent[];
  preTokenBalances: TokenBalance[];
  postTokenBalances: TokenBalance[];
  /** true when the logs end with "Log truncated" (events may then be missing when there are no inner instructions). */
  logsTruncated: boolean;
  /** true when decoded from a logsNotification only (no inner instructions, no accounts). */
  fromLogsOnly: boolean;
  skipped: SkippedItem[];
  /**
   * Lamports moved by System `transfer` / `transfer_with_seed` instructions (top level and inner) to
   * the Jito tip accounts (src/core/programs.ts JITO_TIP_ACCOUNTS), summed, as a decimal string:
   * `"0"` when none, and for a failed transaction (its transfers were rolled back). null when the
   * source cannot tell: a logsNotification (no instructions) or a transaction without meta (no
   * inner instructions, no err). Rows stored before this field existed lack it (read as null).
   */
  jitoTipLamports: string | null;
}

export type FindingClass = 'FINDINGS' | 'NOTE' | 'NO_MARKERS' | 'UNKNOWN';
export type Origin = 'observed' | 'scanned' | 'rebuilt';

/**
 * A flag: every flag carries the signatures behind it (docs/methodology.md). `FINDINGS` flags are
 * launch markers, `NOTE` flags later behaviour; `UNKNOWN` flags say why a fact could not be
 * established (markers-v2: `unrecognised_program_data`, `history_incomplete`) and make the record UNKNOWN.
 */
export interface Flag {
  code: string;
  class: 'FINDINGS' | 'NOTE' | 'UNKNOWN';
  summary: string;
  evidence: string[];
}

/** Who took the curve: the wallet whose buy completed it (CompleteEvent.user). */
export interface CurveBuyout {
  wallet: string;
  signature: string;
  slot: number;
  /** true when the completing buy landed in the creation slot (same batch of chain events). */
  sameBatchAsLaunch: boolean;
  /** hours from creation to the completing buy; null (never 0) when sameBatchAsLaunch. */
  hoursAfterLaunch: number | null;
  /** quote the wallet spent on its buys in the completing transaction (raw units of quoteMint: lamports for SOL), decimal string */
  quoteSpent: string;
  quoteMint: string;
  /** raw token units the wallet bought in the completing transaction (curve part + pool part) */
  tokens: string;
  /**
   * fees the wallet paid on those buys (fee + creator_fee of both parts; buyback_fee is a part of fee:
   * markers-v5), raw quote units (markers-v2); null when their events do not report them (the 2024
   * TradeEvent layout, before 2025-05-12: markers-v8; markers-v7 and before wrote "0")
   */
  fees: string | null;
  /** the curve part: the wallet's TradeEvents in the completing transaction (markers-v2) */
  curvePart: BuyoutPart;
  /**
   * the pool part of a synthetic migration (pump 2026-10: the completing v3 buy goes on at the
   * future pool's price; its PostCompleteBuyEvent), or null when the completing buy had none (markers-v2)
   */
  poolPart: (BuyoutPart & { poolReservesBefore: { base: string; quote: string }; poolReservesAfter: { base: string; quote: string } }) | null;
}

/** One part of a curve buyout: raw token units, raw quote units spent before fees, fees in raw quote units (null: not reported by its events, markers-v8). */
export interface BuyoutPart {
  tokens: string;
  quoteSpent: string;
  fees: string | null;
}

/**
 * One outside wallet that bought in the creation slot, with how its buy arrived (markers-v2 bundle
 * evidence): in the creation transaction itself, or in another transaction of the slot, and the Jito tip
 * those transactions paid.
 */
export interface BundledBuy {
  wallet: string;
  /** its creation-slot buy signatures, sorted */
  signatures: string[];
  /** raw token units bought in the creation slot */
  tokens: string;
  /** raw quote units spent (before fees) */
  quoteSpent: string;
  /** true when one of its buys is in the creation transaction */
  withCreation: boolean;
  /** lamports its distinct buy transactions sent to the Jito tip accounts (reference.md), decimal string; null when a transaction was read in a form that cannot tell */
  jitoTipLamports: string | null;
}

/** The pool now (PumpSwap). Reserves in raw units; price in quote per token (UI units). */
export interface PoolNow {
  address: string;
  program: string;
  baseMint: string;
  quoteMint: string;
  /** decimals of quoteMint: 9 WSOL, 6 USDC, any other read from its mint account with the vaults; null when that read failed (markers-v6) */
  quoteDecimals?: number | null;
  baseReserves: string;
  quoteReserves: string;
  price: number | null;
  lpSupply: string;
  asOf: Instant;
}

export interface LaunchFacts {
  /** the creation transaction's block time; null when the chain gave none (unknown, never 1970) */
  createdAt: Instant | null;
  creator: string;
  creatorSupplyPct: number;
  /** creator's net raw tokens at the end of the creation slot */
  creatorTokensRaw: string;
  totalSupplyRaw: string;
  creatorSold: boolean;
  curveBuyers: number;
  buyersFirst30s: number;
  bundledBuyers: number;
  /** the wallets behind `bundledBuyers`, sorted by wallet (markers-v2) */
  bundle: BundledBuy[];
  quoteMint: string;
  /**
   * decimals of quoteMint (markers-v6; absent before): 9 for SOL, 6 for USDC; for any other quote,
   * those the chain reported for it in the launch's transactions (token balances, CreatePoolEvent);
   * null when none of them names it
   */
  quoteDecimals?: number | null;
  tokenProgram: string | null;
  mayhemMode: boolean | null;
  completed: boolean;
  completedAt: Instant | null;
  graduated: boolean;
  graduationObserved: boolean;
  /** the last account read: `curveComplete` null when the curve account could not be read (unknown, not false) */
  graduationCheck: null | { checkedAt: Instant; curveComplete: boolean | null; poolFound: boolean | null; pool: string | null };
  /** `migration_event` (CompletePumpAmmMigrationEvent/CreatePoolEvent seen), `pool` (canonical pool account read), `withdraw` (Raydium era), or null. */
  graduationConfirmedBy: 'migration_event' | 'pool' | 'withdraw' | null;
  graduatedAt: Instant | null;
  secondsToGraduate: number | null;
  graduation: null | { signature: string | null; slot: number | null; venue: 'pumpswap' | 'raydium'; pool: string | null };
  transaction: { signature: string; slot: number };
}

/** The launch document: canonical JSON of this is what `/d/{mint}` serves and its sha256 identifies it. */
export interface LaunchDocument {
  apiVersion: 'v1';
  methodVersion: string;
  mint: string;
  symbol: string | null;
  name: string | null;
  uri: string | null;
  venue: 'pump.fun';
  origin: Origin;
  observedAtLaunch: boolean;
  /** whether the launch facts are final (methodology: settled) */
  settled: boolean;
  asOf: Instant;
  finding: { class: FindingClass; label: string; why: string };
  cleanAtBirth: boolean | null;
  launch: LaunchFacts | null;
  curveBuyout: CurveBuyout | null;
  pool: PoolNow | null;
  funder: { sharedCohort: null | { funder: string; wallets: string[]; signatures: string[] }[] };
  flags: Flag[];
  history: {
    complete: boolean;
    transactions: number;
    failedTransactions: number;
    firstSlot: number | null;
    lastSlot: number | null;
    /** when this record was last rebuilt from the curve's complete chain history (on request or `lpa rebuild`); absent when it was not, or was written again since */
    rebuiltAt?: Instant;
  };
}
