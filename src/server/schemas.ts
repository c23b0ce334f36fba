import { z } from 'zod';
import type { LaunchDocument as LaunchDocumentType } from '../core/types.ts';
import { ERROR_CODES, type ErrorBody } from './errors.ts';
import type { RebuildView as RebuildViewType } from './rebuilds.ts';
import type { RotateBody } from './rotate.ts';
import type { StatusBody } from './status.ts';
import type { LaunchListBody } from './launches.ts';
import type { UsageBody } from './usage.ts';
import type { WalletBody } from './wallet.ts';
import { WALLET_LIST_MAX } from '../core/wallet-lists.ts';

/**
 * The zod schemas of every JSON body the API answers: the one description of the responses. The
 * OpenAPI document (openapi.ts), the published JSON Schemas (`/api/v1/schemas/*.json`) and the test
 * suite's check of every `/api/v1/*` response (tests/helpers/conform.ts) are generated from these;
 * the compile-time checks at the end tie them to the TypeScript types the handlers build, so a
 * field added to a body without its schema does not type-check. Objects are closed
 * (`additionalProperties: false`): a field the schema does not name fails the tests.
 * Pure: no I/O.
 */

/** Registry of the named schemas: each becomes `#/components/schemas/<id>` in the OpenAPI document. */
export const registry = z.registry<{ id: string; description?: string }>();

const named = <T extends z.ZodType>(id: string, description: string, schema: T): T => {
  registry.add(schema, { id, description });
  return schema;
};

/** base58, 32-44 characters (spec §4, §8); the server also checks it decodes to 32 bytes. */
const address = z.string().regex(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
const signature = z.string().regex(/^[1-9A-HJ-NP-Za-km-z]{43,90}$/);
/** u64/u128 amounts are decimal strings of raw units, never JSON numbers. */
const rawAmount = z.string().regex(/^-?[0-9]+$/);
const int = z.number().int();
const count = z.number().int().min(0);

export const Instant = named(
  'Instant',
  'Spec §2.1 "T": epoch milliseconds and ISO 8601 UTC with milliseconds and Z.',
  z.object({ ms: int, iso: z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/) }),
);

export const FindingClass = named('FindingClass', 'The field to branch on (spec §2.2). A class of entry, not a grade of risk.', z.enum(['FINDINGS', 'NOTE', 'NO_MARKERS', 'UNKNOWN']));

export const Finding = named('Finding', 'finding: class, short label, and why (naming the observed facts).', z.object({ class: FindingClass, label: z.string(), why: z.string() }));

export const Flag = named(
  'Flag',
  'A marker flag with the signatures behind it; codes in docs/methodology.md. An UNKNOWN flag makes the record UNKNOWN.',
  z.object({ code: z.string(), class: z.enum(['FINDINGS', 'NOTE', 'UNKNOWN']), summary: z.string(), evidence: z.array(signature) }),
);

const feesOfPart = rawAmount.nullable().describe('fee + creator_fee of its events, raw quote units; null when its events do not report the fee (2024 TradeEvent layout, markers-v8)');
const BuyoutPart = z.object({ tokens: rawAmount, quoteSpent: rawAmount, fees: feesOfPart });
const reserves = z.object({ base: rawAmount, quote: rawAmount });
const PoolPart = BuyoutPart.extend({ poolReservesBefore: reserves, poolReservesAfter: reserves });

const buyoutFields = {
  signature,
  slot: count,
  sameBatchAsLaunch: z.boolean(),
  hoursAfterLaunch: z.number().min(0).nullable().describe('null (never 0) when sameBatchAsLaunch'),
  quoteSpent: rawAmount,
  quoteMint: address,
  tokens: rawAmount,
};

export const CurveBuyout = named(
  'CurveBuyout',
  'Who took the curve: the wallet whose buy completed it. `fees`, `curvePart`, `poolPart` are markers-v2 (absent in a markers-v1 document).',
  z.object({ wallet: address, ...buyoutFields, fees: rawAmount.nullable().optional().describe('fee + creator_fee of its events, raw quote units (the buyback fee is a part of fee; markers-v2 to v4 added it again); null when the events do not report the fee: the 2024 TradeEvent layout, before 2025-05-12 (markers-v8; markers-v7 and before wrote "0")'), curvePart: BuyoutPart.optional(), poolPart: PoolPart.nullable().optional() }),
);

export const BundledBuy = named(
  'BundledBuy',
  'An outside wallet that bought in the creation slot (markers-v2).',
  z.object({ wallet: address, signatures: z.array(signature), tokens: rawAmount, quoteSpent: rawAmount, withCreation: z.boolean(), jitoTipLamports: rawAmount.nullable() }),
);

export const PoolNow = named(
  'PoolNow',
  'The pool now (PumpSwap): reserves in raw units, price in quote per token (UI units), when it was read.',
  z.object({
    address,
    program: address,
    baseMint: address,
    quoteMint: address,
    quoteDecimals: z.number().int().min(0).max(255).nullable().optional().describe('decimals of quoteMint: 9 for WSOL, 6 for USDC, any other read from its mint account with the vaults; null when that read failed (markers-v6; absent before)'),
    baseReserves: rawAmount,
    quoteReserves: rawAmount,
    price: z.number().nullable(),
    lpSupply: rawAmount,
    asOf: Instant,
  }),
);

export const LaunchFacts = named(
  'LaunchFacts',
  'What the launch was (spec §2.1 `launch.*`; definitions in docs/methodology.md).',
  z.object({
    createdAt: Instant.nullable(),
    creator: address,
    creatorSupplyPct: z.number(),
    creatorTokensRaw: rawAmount,
    totalSupplyRaw: rawAmount,
    creatorSold: z.boolean(),
    curveBuyers: count,
    buyersFirst30s: count,
    bundledBuyers: count,
    bundle: z.array(BundledBuy).optional().describe('markers-v2; absent in a markers-v1 document'),
    quoteMint: address,
    quoteDecimals: z
      .number()
      .int()
      .min(0)
      .max(255)
      .nullable()
      .optional()
      .describe('decimals of quoteMint: 9 for SOL, 6 for USDC; any other quote as the chain reported it in the launch\'s transactions (token balances, CreatePoolEvent); null when none named it (markers-v6; absent before). Amounts stay raw units'),
    tokenProgram: address.nullable(),
    mayhemMode: z.boolean().nullable(),
    completed: z.boolean(),
    completedAt: Instant.nullable(),
    graduated: z.boolean(),
    graduationObserved: z.boolean(),
    graduationCheck: z.object({ checkedAt: Instant, curveComplete: z.boolean().nullable(), poolFound: z.boolean().nullable(), pool: address.nullable() }).nullable(),
    graduationConfirmedBy: z.enum(['migration_event', 'pool', 'withdraw']).nullable(),
    graduatedAt: Instant.nullable(),
    secondsToGraduate: z.number().int().nullable(),
    graduation: z.object({ signature: signature.nullable(), slot: count.nullable(), venue: z.enum(['pumpswap', 'raydium']), pool: address.nullable() }).nullable(),
    transaction: z.object({ signature, slot: count }),
  }),
);

const launchDocumentShape = {
  apiVersion: z.literal('v1'),
  methodVersion: z.string(),
  mint: address,
  symbol: z.string().nullable(),
  name: z.string().nullable(),
  uri: z.string().nullable(),
  venue: z.literal('pump.fun'),
  origin: z.enum(['observed', 'scanned', 'rebuilt']),
  observedAtLaunch: z.boolean(),
  settled: z.boolean(),
  asOf: Instant,
  finding: Finding,
  cleanAtBirth: z.boolean().nullable(),
  launch: LaunchFacts.nullable(),
  curveBuyout: CurveBuyout.nullable(),
  pool: PoolNow.nullable(),
  funder: z.object({ sharedCohort: z.array(z.object({ funder: address, wallets: z.array(address), signatures: z.array(signature) })).nullable() }),
  flags: z.array(Flag),
  history: z.object({
    complete: z.boolean(),
    transactions: count,
    failedTransactions: count,
    firstSlot: count.nullable(),
    lastSlot: count.nullable(),
    rebuiltAt: Instant.optional().describe('when the record was last rebuilt from the curve\'s complete chain history (on request or by the operator); absent when it was not, or was written again since. A rebuilt record is not rebuilt again on request'),
  }),
};

export const LaunchDocument = named(
  'LaunchDocument',
  'The canonical launch document as captured (`/d/{mint}`; its sha256 is the ETag). Published as /api/v1/schemas/launch.json.',
  z.object(launchDocumentShape),
);

export const Coverage = named(
  'Coverage',
  'Spec §2.1 coverage: start of the observed window (null before the collector first read the chain), process downtime, the note.',
  z.object({ from: Instant.nullable(), downtimeMinutes: count, note: z.string() }),
);

export const TokenRecord = named(
  'TokenRecord',
  '200 of GET /api/v1/token/{mint}: the launch document plus coverage, generatedAt, source, license.',
  z.object({ ...launchDocumentShape, coverage: Coverage, generatedAt: Instant, source: z.url(), license: z.string() }),
);

export const RebuildView = named(
  'RebuildView',
  'The `rebuild` object of a 202 (docs/api.md "Rebuilds").',
  z.object({
    state: z.enum(['queued', 'running']),
    queuedAt: Instant,
    startedAt: Instant.nullable(),
    position: count,
    progress: z.object({ signatures: count, transactions: count }),
    estimate: z.object({ secondsRemaining: z.number().min(0).nullable() }),
  }),
);

export const RebuildInProgress = named(
  'RebuildInProgress',
  '202 of GET /api/v1/token/{mint}: a rebuild queued or running (spec §3). Poll the same URL after Retry-After.',
  z.object({
    apiVersion: z.literal('v1'),
    mint: address,
    finding: Finding.extend({ class: z.literal('UNKNOWN') }),
    cleanAtBirth: z.null(),
    rebuild: RebuildView,
    generatedAt: Instant,
    source: z.url(),
    license: z.string(),
  }),
);

const BuyoutAfterwards = z.object({
  sold: z.enum(['all', 'part', 'none']),
  soldTokens: rawAmount,
  venues: z.array(z.enum(['pool', 'curve'])),
  firstSoldAt: Instant.nullable(),
  lastSoldAt: Instant.nullable(),
  movedOutTokens: rawAmount,
  balanceTokens: rawAmount,
  tokenAccount: address,
  signatures: z.array(signature),
  throughSlot: count,
  checkedAt: Instant,
});

const WalletAppearance = z.object({
  mint: address,
  signature,
  slot: count,
  signatures: z.array(signature).optional(),
  secondsAfterLaunch: z.number().nullable().optional(),
  tokens: rawAmount.optional(),
});

const walletShape = {
  address,
  inArchive: z.boolean().describe('false only for a wallet never seen: no role in a launch held and no curve trade (buy or sell) in a launch held; then every other data field is null. A wallet seen only trading: true, empty lists, zero counts'),
  buyouts: z
    .array(
      z.object({
        mint: address,
        ...buyoutFields,
        fees: rawAmount.nullable(),
        curvePart: BuyoutPart.nullable(),
        poolPart: PoolPart.nullable(),
        afterwards: BuyoutAfterwards.nullable(),
      }),
    )
    .nullable(),
  created: z.array(WalletAppearance).nullable(),
  bundled: z.array(WalletAppearance).nullable(),
  early: z.array(WalletAppearance).nullable(),
  counts: z
    .object({ buyouts: count, created: count, bundled: count, early: count })
    .nullable()
    .describe(`every role of the wallet counted by kind; created, bundled and early list at most the newest ${WALLET_LIST_MAX.toLocaleString('en')} (buyouts: all). null when inArchive is false`),
};

export const WalletData = named(
  'WalletData',
  'The wallet record (spec §2.4) without the response envelope. Published as /api/v1/schemas/wallet.json.',
  z.object(walletShape),
);

export const WalletRecord = named(
  'WalletRecord',
  '200 of GET /api/v1/wallet/{address} (spec §2.4). `inArchive: false` → every other data field null.',
  z.object({ apiVersion: z.literal('v1'), ...walletShape, coverage: Coverage, generatedAt: Instant, license: z.string() }),
);

const countMap = z.record(z.string(), count);

export const Status = named(
  'Status',
  '200 of GET /api/v1/status: what the archive holds and what it was awake for (docs/api.md "Status").',
  z.object({
    apiVersion: z.literal('v1'),
    demo: z.boolean(),
    counts: z.object({ launches: count, records: count, byOrigin: countMap, byClass: countMap, byOriginAndClass: z.record(z.string(), countMap) }),
    coverage: Coverage.extend({
      gaps: z.array(z.object({ from: Instant, to: Instant, fromSlot: count.nullable(), toSlot: count.nullable(), minutes: count })),
    }),
    collector: z.object({
      lastHeartbeat: Instant.nullable(),
      cursorSlot: count.nullable(),
      tipSlot: count.nullable(),
      lagSlots: count.nullable(),
      running: z.boolean(),
      state: z.enum(['live', 'catching_up', 'unreachable', 'between_runs', 'stopped']),
      fallingBehind: z.boolean(),
      unreachableSince: Instant.nullable(),
      lastRpcError: z.string().nullable(),
      periodic: z.object({ funderSweep: Instant.nullable(), afterwardsSweep: Instant.nullable(), poolRefresh: Instant.nullable(), downloads: Instant.nullable() }),
      jobs: z.array(z.object({ name: z.string(), setting: z.string().nullable(), intervalMs: count, lastRun: Instant.nullable() })).optional(),
    }),
    unrecognisedProgramData: z.array(
      z.object({ program: z.string(), kind: z.string(), discriminator: z.string(), count, firstSignature: z.string(), firstSeen: Instant, lastSeen: Instant }),
    ),
    unreadable: z.object({ transactions: count, byReason: z.partialRecord(z.enum(['unsupported_version', 'malformed', 'rpc_error', 'request_failed', 'not_found']), count) }),
    rebuilds: z.object({ queued: count, running: count }).nullable(),
    fundingChecks: z.object({ waiting: count, olderMethod: count }),
    generatedAt: Instant,
  }),
);

export const RotatedKey = named(
  'RotatedKey',
  '200 of POST /api/v1/keys/rotate: the new key, shown once; the key sent is revoked.',
  z.object({
    apiVersion: z.literal('v1'),
    key: z.string().startsWith('lpa_'),
    id: count,
    prefix: z.string(),
    replaces: z.object({ id: count, prefix: z.string() }),
    message: z.string(),
    generatedAt: Instant,
  }),
);

export const ErrorCode = named('ErrorCode', 'The permanent error codes (docs/api.md "Errors"): never renamed, removed or repurposed.', z.enum(ERROR_CODES as [string, ...string[]]));

export const ApiError = named(
  'Error',
  'Every error: the code in `error` (branch on it), what to do in `message`, and finding.class always UNKNOWN.',
  z.object({
    apiVersion: z.literal('v1'),
    error: ErrorCode,
    message: z.string(),
    finding: Finding.extend({ class: z.literal('UNKNOWN') }),
    generatedAt: Instant,
  }),
);

export const LaunchList = named(
  'LaunchList',
  '200 of GET /api/v1/launches: a page of records (newest first when browsing; in change order when syncing), the cursor of the next page.',
  z.object({
    apiVersion: z.literal('v1'),
    order: z.enum(['newest', 'changes']),
    records: z.array(z.object({ mint: address, sha256: z.string().regex(/^[0-9a-f]{64}$/), changeSeq: count, document: LaunchDocument })),
    next: z.string().nullable(),
    hasMore: z.boolean(),
    generatedAt: Instant,
    license: z.string(),
  }),
);

export const TokenBatch = named(
  'TokenBatch',
  '200 of GET /api/v1/tokens: each distinct mint, in request order, with the status and body its single call would have given.',
  z.object({
    apiVersion: z.literal('v1'),
    results: z.array(
      z.object({
        mint: z.string(),
        status: z.union([z.literal(200), z.literal(202), z.literal(400), z.literal(404), z.literal(429), z.literal(500), z.literal(503)]),
        body: z.union([TokenRecord, RebuildInProgress, ApiError]),
      }),
    ),
    generatedAt: Instant,
    license: z.string(),
  }),
);

export const UsageReport = named(
  'Usage',
  '200 of GET /api/v1/usage: the key\'s daily quota and the caller\'s rebuild starts this hour (not counted against the quota).',
  z.object({
    apiVersion: z.literal('v1'),
    quota: z.object({ policy: z.literal('daily'), limit: count, used: count, remaining: count, windowSeconds: count, resetSeconds: count, resetsAt: Instant }),
    rebuilds: z.object({ policy: z.literal('rebuilds'), caller: z.string(), limit: count, started: count, remaining: count, windowSeconds: count, resetSeconds: count }),
    generatedAt: Instant,
  }),
);

export const StreamEvent = named(
  'StreamEvent',
  'The `data:` of one event of GET /api/v1/stream (Server-Sent Events; the event `id:` is the record\'s change sequence, as `changeSeq` in GET /api/v1/launches): a record written for the first time (`changed: false`) or a later version of it (`changed: true`), with its canonical document.',
  z.object({ mint: address, sha256: z.string().regex(/^[0-9a-f]{64}$/), class: FindingClass, changed: z.boolean(), document: LaunchDocument }),
);

// Compile-time ties between the schemas and the types the handlers build: each handler's body type
// must be assignable to its schema's type, so a field added to one without the other fails `tsc`.
// Top-level keys must also be the same both ways (an extra field in the type fails too).
type Assignable<T, U extends T & ([Exclude<keyof U, keyof T>] extends [never] ? unknown : { fieldWithoutSchema: Exclude<keyof U, keyof T> })> = U;
export type _Ties = [
  Assignable<z.infer<typeof LaunchDocument>, LaunchDocumentType>,
  Assignable<z.infer<typeof RebuildView>, RebuildViewType>,
  Assignable<z.infer<typeof WalletRecord>, WalletBody>,
  Assignable<z.infer<typeof Status>, StatusBody>,
  Assignable<z.infer<typeof RotatedKey>, RotateBody>,
  Assignable<z.infer<typeof ApiError>, ErrorBody>,
  Assignable<z.infer<typeof UsageReport>, UsageBody>,
  Assignable<z.infer<typeof LaunchList>, LaunchListBody>,
];
