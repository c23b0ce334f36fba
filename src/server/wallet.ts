import { instant } from '../core/canonical.ts';
import { WALLET_LIST_MAX } from '../core/wallet-lists.ts';
import type { CurveBuyout } from '../core/types.ts';
import type { StoredAfterwards, StoredWalletRole } from '../db/public-store.ts';
import { afterwardsOf, type BuyoutAfterwards } from '../core/afterwards.ts';
import { documentQuoteMint } from '../core/record/launch-events.ts';
import { coverageOf } from '../facts/coverage.ts';
import type { Deps } from './deps.ts';
import { errorResponse, notAnAddress } from './errors.ts';
import { CACHE_NONE, isAddressParam, jsonResponse, licenseOf } from './http.ts';
import { admitKeyedRequest, rateLimitHeaders } from './quota.ts';

/**
 * One curve the wallet bought outright (spec §2.4 `buyouts[]`): that launch's `curveBuyout` without
 * the wallet, plus the mint and what the wallet did afterwards — `null` (unknown, never "none") until
 * the afterwards sweep has read the token account's history to the end, or when the completing
 * buy's tokens did not land in a token account of the wallet.
 */
/**
 * A curve the wallet took (spec §2.4 `buyouts[]`): the launch record's curveBuyout without `wallet`.
 * `fees`, `curvePart` and `poolPart` (markers-v2) are null for a role recorded before markers-v2
 * until its launch is recorded again.
 */
export type WalletBuyout = Omit<CurveBuyout, 'wallet' | 'fees' | 'curvePart' | 'poolPart'> & {
  mint: string;
  fees: CurveBuyout['fees'] | null;
  curvePart: CurveBuyout['curvePart'] | null;
  poolPart: CurveBuyout['poolPart'];
  afterwards: BuyoutAfterwards | null;
};

/** A launch the wallet created, or took part in as a bundled (creation-slot) or early (first 30 s) buyer. */
export interface WalletAppearance {
  mint: string;
  signature: string;
  slot: number;
  /** bundled/early: every buy signature of the wallet in that window; early: seconds after creation */
  signatures?: string[];
  secondsAfterLaunch?: number | null;
  /** raw token units bought in the window, decimal string */
  tokens?: string;
}

/** How many roles of each kind the wallet has in all (its lists hold at most {@link WALLET_LIST_MAX} of each but buyouts). */
export interface WalletCounts {
  buyouts: number;
  created: number;
  bundled: number;
  early: number;
}

/** Body of `GET /api/v1/wallet/{address}` (spec §2.4; docs/api.md "Wallet record"). */
export interface WalletBody {
  apiVersion: 'v1';
  address: string;
  inArchive: boolean;
  buyouts: WalletBuyout[] | null;
  created: WalletAppearance[] | null;
  bundled: WalletAppearance[] | null;
  early: WalletAppearance[] | null;
  counts: WalletCounts | null;
  coverage: ReturnType<typeof coverageOf>;
  generatedAt: ReturnType<typeof instant>;
  /** Licence text and link, as on every keyed response (spec §1, §2.1). */
  license: string;
}

/**
 * The wallet record (spec §2.4) from the wallet's roles in the launches held: pure over the rows.
 * A wallet never seen — no role, and not `seen` trading a curve held (PublicStore.walletSeen) — is
 * `inArchive: false` and every other data field is null (not zero, not empty); a wallet seen only
 * trading is `inArchive: true` with empty lists and zero counts (it bought no curve outright, created
 * none, was in no creation slot or first 30 s of a launch held).
 * `roles`: each kind oldest first (PublicStore.walletRoles: every buyout, the newest
 * {@link WALLET_LIST_MAX} of the others); `totals`: every role counted by kind (default: those
 * given); `afterwards`: the wallet's followed buyouts (buyout_afterwards rows).
 */
export function walletRecord(
  address: string,
  roles: StoredWalletRole[],
  afterwards: StoredAfterwards[] = [],
  totals: Record<StoredWalletRole['role'], number> = countRoles(roles),
  seen = false,
): Pick<WalletBody, 'address' | 'inArchive' | 'buyouts' | 'created' | 'bundled' | 'early' | 'counts'> {
  if (roles.length === 0 && !seen) return { address, inArchive: false, buyouts: null, created: null, bundled: null, early: null, counts: null };
  const of = (role: StoredWalletRole['role']) => roles.filter((r) => r.role === role);
  const appearance = (r: StoredWalletRole): WalletAppearance => ({ mint: r.mint, signature: r.signature, slot: r.slot, ...(r.detail as object) });
  return {
    address,
    inArchive: true,
    buyouts: of('buyout').map((r) => {
      const d = r.detail as Partial<Omit<WalletBuyout, 'mint' | 'signature' | 'slot'>> & Pick<WalletBuyout, 'sameBatchAsLaunch' | 'hoursAfterLaunch' | 'quoteSpent' | 'quoteMint' | 'tokens'>;
      return {
        mint: r.mint,
        signature: r.signature,
        slot: r.slot,
        sameBatchAsLaunch: d.sameBatchAsLaunch,
        hoursAfterLaunch: d.sameBatchAsLaunch ? null : d.hoursAfterLaunch,
        quoteSpent: d.quoteSpent,
        quoteMint: documentQuoteMint(d.quoteMint), // a role recorded before markers-v3 may spell SOL as the default key
        tokens: d.tokens,
        fees: d.fees ?? null,
        curvePart: d.curvePart ?? null,
        poolPart: d.poolPart ?? null,
        afterwards: afterwardsFor(afterwards.find((a) => a.mint === r.mint)),
      };
    }),
    created: of('creator').map((r) => ({ mint: r.mint, signature: r.signature, slot: r.slot })),
    bundled: of('bundled').map(appearance),
    early: of('early').map(appearance),
    counts: { buyouts: totals.buyout, created: totals.creator, bundled: totals.bundled, early: totals.early },
  };
}

/** Roles counted by kind. */
function countRoles(roles: StoredWalletRole[]): Record<StoredWalletRole['role'], number> {
  const n = { creator: 0, buyout: 0, bundled: 0, early: 0 };
  for (const r of roles) n[r.role]++;
  return n;
}

/** Rendered afterwards of one buyout: only a state read to the end (checkedAtMs > 0) is a fact. */
function afterwardsFor(row: StoredAfterwards | undefined): BuyoutAfterwards | null {
  return row && row.state !== null && row.checkedAtMs > 0 ? afterwardsOf(row.state, row.checkedAtMs) : null;
}

/** The wallet record of `address` from the public store (at most {@link WALLET_LIST_MAX} entries a list but buyouts). */
function walletBody(deps: Pick<Deps, 'publicStore'>, address: string): ReturnType<typeof walletRecord> {
  const { roles, totals } = deps.publicStore.walletRoles(address, WALLET_LIST_MAX);
  return walletRecord(address, roles, deps.publicStore.afterwardsOfWallet(address), totals, roles.length === 0 && deps.publicStore.walletSeen(address));
}

/**
 * `GET /api/v1/wallet/{address}` (key; spec §2.4, §4). Checks in the token endpoint's order: 400
 * `not_an_address`, 401 `missing_key`/`invalid_key`/`revoked_key`, 429 `quota_exceeded`; then 200
 * with the wallet record, `Cache-Control: no-store` (it grows with every launch the wallet joins).
 */
export async function handleWallet(request: Request, deps: Deps, params: { address?: string }): Promise<Response> {
  const nowMs = deps.now();
  const address = params.address;
  if (!isAddressParam(address)) return notAnAddress(address, nowMs);
  const admitted = await admitKeyedRequest(request, deps, nowMs);
  if ('refused' in admitted) return admitted.refused;
  const usage = admitted.usage;
  const body: WalletBody = {
    apiVersion: 'v1',
    ...walletBody(deps, address),
    coverage: coverageOf(deps.publicStore, nowMs, deps.config.COVERAGE_GAP_MS),
    generatedAt: instant(nowMs),
    license: licenseOf(deps.config),
  };
  return jsonResponse(body, 200, { 'Cache-Control': CACHE_NONE, ...rateLimitHeaders(usage) });
}
