import { instant } from '../core/canonical.ts';
import type { Instant, LaunchDocument } from '../core/types.ts';
import { coverageOf, type Coverage } from '../facts/coverage.ts';
import { needsRebuild } from '../core/record/classify.ts';
import type { Deps } from './deps.ts';
import { errorReply, notAnAddress } from './errors.ts';
import { CACHE_NONE, CACHE_SETTLED, etagOf, fieldsTail, ifNoneMatch, isAddressParam, joinBytes, jsonTextReply, licenseOf, notModifiedReply, replyResponse, withFieldsBytes, type Reply } from './http.ts';
import type { StoredLaunch } from '../db/public-store.ts';
import { admitKeyedRequest, rateLimitHeaders } from './quota.ts';
import { REBUILDS_PER_CALLER_HOURLY, REBUILD_POLICY, callerAddress, type RebuildAnswer } from './rebuilds.ts';


/** How every stored document of this API version begins (canonical JSON: its first member). */
const V1_PREFIX = Buffer.from('{"apiVersion":"v1",');

/** Public token page of a mint: the `source` field. */
export function sourceUrl(baseUrl: string, mint: string): string {
  return `${baseUrl}/t/${mint}.html`;
}

/**
 * `GET /api/v1/token/{mint}` (spec §4, §5, §7). Order of checks: the path value (400
 * `not_an_address`), the key (401 `missing_key`/`invalid_key`/`revoked_key`), the daily quota
 * (429 `quota_exceeded`), then the record: 200 with the stored document plus `coverage`,
 * `generatedAt`, `source`, `license`; strong ETag = sha256 of the document, 304 on a match;
 * settled → cacheable, unsettled → `no-store`. A mint not held: see {@link notHeld} (spec §3).
 */
export async function handleToken(request: Request, deps: Deps, params: { mint?: string; clientAddress?: string }): Promise<Response> {
  const nowMs = deps.now();
  const mint = params.mint;
  if (!isAddressParam(mint)) return notAnAddress(mint, nowMs);

  const admitted = await admitKeyedRequest(request, deps, nowMs);
  if ('refused' in admitted) return admitted.refused;
  return replyResponse(await tokenAnswer(request, deps, { mint, clientAddress: params.clientAddress, nowMs, rate: rateLimitHeaders(admitted.usage) }));
}

/**
 * The members a record's 200 adds after its stored document's own, in order: `coverage`,
 * `generatedAt`, `source` (the mint's page), `license`. Made once for a request (a batch shares it
 * across its mints); the JSON text around the source is serialised here, once.
 */
export interface RecordFields {
  coverage: Readonly<Coverage>;
  generatedAt: Instant;
  license: string;
  /** `,"coverage":…,"generatedAt":…,"source":` (JSON text) */
  head: string;
  /** `,"license":…}`: the license member and the record's closing brace */
  tail: string;
  /** `head` and `tail` in UTF-8, made once for every record answered with these fields (a batch's hundred) */
  bytes?: { head: Buffer; tail: Buffer };
}

/** The {@link RecordFields} of an answer at `nowMs`; `coverage`: the archive's coverage when the caller has read it already. */
export function recordFields(deps: Pick<Deps, 'publicStore' | 'config'>, nowMs: number, coverage?: Readonly<Coverage>): RecordFields {
  const c = coverage ?? coverageOf(deps.publicStore, nowMs, deps.config.COVERAGE_GAP_MS);
  const generatedAt = instant(nowMs);
  const license = licenseOf(deps.config);
  return { coverage: c, generatedAt, license, head: `${fieldsTail({ coverage: c, generatedAt })},"source":`, tail: `,"license":${JSON.stringify(license)}}` };
}

/**
 * Whether a held row may need a rebuild before it is answered: only an UNKNOWN record not rebuilt
 * may (needsRebuild decides, from its parsed document); the others are answered as held, unparsed.
 */
function mayNeedRebuild(row: StoredLaunch<Buffer>): boolean {
  return row.findingClass === 'UNKNOWN' && row.origin !== 'rebuilt' && needsRebuild(JSON.parse(row.document.toString('utf8')) as LaunchDocument);
}

/**
 * The 200 body of a held record as pieces to join (joinBytes): the stored document without its
 * closing brace (a view, not a copy), then the fields (their shared text encoded once per `f`, the
 * source URL as text) and the brace — the stored text with the response's fields spliced after it
 * (its first member is `"apiVersion":"v1"`). A document of
 * another form (none is stored) is parsed and serialised with the fields instead.
 */
export function recordBodyParts(row: StoredLaunch<Buffer>, baseUrl: string, f: RecordFields): (Buffer | string)[] {
  const doc = row.document;
  const source = sourceUrl(baseUrl, row.mint);
  if (doc.length > V1_PREFIX.length && doc[doc.length - 1] === 0x7d && V1_PREFIX.compare(doc, 0, V1_PREFIX.length) === 0) {
    const b = (f.bytes ??= { head: Buffer.from(f.head, 'utf8'), tail: Buffer.from(f.tail, 'utf8') });
    return [doc.subarray(0, doc.length - 1), b.head, JSON.stringify(source), b.tail];
  }
  const fields = { coverage: f.coverage, generatedAt: f.generatedAt, source, license: f.license };
  return [doc.subarray(0, V1_PREFIX.length).equals(V1_PREFIX) ? withFieldsBytes(doc, fields) : JSON.stringify({ ...(JSON.parse(doc.toString('utf8')) as LaunchDocument), apiVersion: 'v1', ...fields })];
}

/**
 * The 200 body pieces ({@link recordBodyParts}) of a held row the token endpoint answers as it is
 * (no rebuild may be due), or null when {@link tokenAnswer} must decide (it may start a rebuild).
 * The batch answers its held mints through this, without a Request or Reply per mint.
 */
export function heldRecordParts(row: StoredLaunch<Buffer>, baseUrl: string, f: RecordFields): (Buffer | string)[] | null {
  return mayNeedRebuild(row) ? null : recordBodyParts(row, baseUrl, f);
}

/** A held record's row: this node's public.db, else (a node serving generations) the records it rebuilt itself. */
export function heldRow(deps: Pick<Deps, 'publicStore' | 'rebuiltStore'>, mint: string): StoredLaunch<Buffer> | undefined {
  return deps.publicStore.getLaunchBytes(mint) ?? deps.rebuiltStore?.getLaunchBytes(mint);
}

/** {@link heldRow} of several mints, read together (PublicStore.getLaunchesBytes): the rows held, by mint. */
export function heldRows(deps: Pick<Deps, 'publicStore' | 'rebuiltStore'>, mints: readonly string[]): Map<string, StoredLaunch<Buffer>> {
  const rows = deps.publicStore.getLaunchesBytes(mints);
  if (deps.rebuiltStore && rows.size < mints.length) {
    for (const [mint, row] of deps.rebuiltStore.getLaunchesBytes(mints.filter((m) => !rows.has(m)))) rows.set(mint, row);
  }
  return rows;
}

/**
 * The token endpoint's answer after its address, key and quota checks (the batch, which checks its
 * key once, comes in here for a mint it does not answer as held): the record, a rebuild's 202, or a
 * not-held answer, as a {@link Reply} (the batch splices its text; the single call makes it the Response).
 * `fields`: the record's added members, when the caller has made them for the request.
 */
export async function tokenAnswer(
  request: Request,
  deps: Deps,
  a: { mint: string; clientAddress?: string; nowMs: number; rate: Record<string, string>; fields?: RecordFields },
): Promise<Reply> {
  const { mint, nowMs, rate } = a;
  const params = { clientAddress: a.clientAddress };
  // on a node serving generations, a record this node rebuilt is in its own public.db until a generation holds it
  const row = heldRow(deps, mint);
  if (!row) return notHeld(request, deps, mint, params.clientAddress, nowMs, rate);

  if (mayNeedRebuild(row)) {
    const pending = await rebuildHeld(request, deps, mint, params.clientAddress, nowMs, rate);
    if (pending) return pending;
  }

  const etag = etagOf(row.sha256);
  const cacheControl = row.settled ? CACHE_SETTLED : CACHE_NONE;
  if (ifNoneMatch(request, etag)) return notModifiedReply(etag, cacheControl, rate);
  const parts = recordBodyParts(row, deps.config.baseUrl, a.fields ?? recordFields(deps, nowMs));
  return jsonTextReply(parts.length === 1 ? parts[0]! : joinBytes(parts), 200, { ETag: etag, 'Cache-Control': cacheControl, ...rate });
}

/** The rate-limit fields with the rebuild policy added (draft-ietf-httpapi-ratelimit-headers-10 lists). */
function withRebuildPolicy(rate: Record<string, string>, a: { callerStarts: number; callerResetS: number }): Record<string, string> {
  const left = Math.max(0, REBUILDS_PER_CALLER_HOURLY - a.callerStarts);
  return {
    ...rate,
    'RateLimit-Policy': `${rate['RateLimit-Policy']}, "${REBUILD_POLICY}";q=${REBUILDS_PER_CALLER_HOURLY};w=3600`,
    RateLimit: `${rate.RateLimit}, "${REBUILD_POLICY}";r=${left};t=${a.callerResetS}`,
  };
}

/**
 * The `rebuild_failed` message of a rebuild that ended on one of the archive's own limits (its
 * history longer than REBUILD_MAX_TRANSACTIONS, its server stopped on every attempt), which a chain
 * read's failure does not explain; none (the code's own message) for a chain read that failed.
 */
function failedMessage(error: string | null, maxTransactions: number): { message?: string } {
  if (error?.startsWith('RebuildTooLongError')) {
    return { message: `This launch's history holds more than ${maxTransactions.toLocaleString('en-US')} transactions, more than this archive rebuilds on request: its provenance is unknown here, not clean. Asking again starts a new rebuild, which stops at the same limit.` };
  }
  if (error?.startsWith('stopped while running')) {
    return { message: 'The rebuild of this launch stopped on each of its attempts (its server was restarted or ran out of memory while running it): its provenance is unknown here, not clean. Asking again starts a new rebuild.' };
  }
  return {};
}

/**
 * A mint the archive does not hold (spec §3, §7): a rebuild already queued or running answers 202
 * again (polling never counts as a start); one that failed answers 404 `rebuild_failed` once. Else
 * the chain decides: no curve account and no history → 404 `not_a_curve_launch` (a finding); the
 * check failed → 404 `rebuild_failed`; the curve exists → start a rebuild (202) unless the caller's
 * hourly starts (429 `rate_limited`), the daily ceiling (503 `rebuild_budget_exhausted`) or the queue
 * length (503 `busy`) refuse it. 202 bodies: docs/api.md "Rebuilds".
 */
async function notHeld(request: Request, deps: Deps, mint: string, clientAddress: string | undefined, nowMs: number, rate: Record<string, string>): Promise<Reply> {
  const caller = callerAddress(request, clientAddress, deps.config.TRUSTED_PROXIES);
  let answer: RebuildAnswer | null = await deps.rebuilds.existing(mint, caller);
  // HEAD is safe (RFC 9110 §9.2.1): it reads no chain and starts no rebuild; a GET would
  if (!answer && request.method === 'HEAD') return errorReply('not_found', { nowMs, headers: rate, message: HEAD_NOT_HELD });
  if (!answer) {
    const status = await deps.curveStatus(mint);
    if (status === 'never') return errorReply('not_a_curve_launch', { nowMs, headers: rate });
    if (status === 'unknown') return errorReply('rebuild_failed', { nowMs, headers: rate });
    answer = await deps.rebuilds.start(mint, caller);
  }
  if (answer.kind === 'failed') return errorReply('rebuild_failed', { nowMs, headers: rate, ...failedMessage(answer.error, deps.config.REBUILD_MAX_TRANSACTIONS) });
  if (answer.kind === 'refused') {
    const headers = { ...(answer.code === 'rate_limited' ? withRebuildPolicy(rate, answer) : rate), 'Retry-After': String(answer.retryAfterS) };
    return errorReply(answer.code, { nowMs, headers });
  }
  return inProgress(deps, mint, answer, nowMs, rate, REBUILD_WHY.notHeld);
}

/**
 * A held placeholder or incomplete record: a rebuild already running answers 202; otherwise one is
 * started under the same limits as for a mint not held (202), without reading the chain first (the
 * held transactions show its curve exists). When none can run (the caller's limit, the daily
 * ceiling, a full queue, a failed rebuild) the held record is served (null here): it is UNKNOWN, and
 * the caller loses nothing by getting it.
 */
async function rebuildHeld(request: Request, deps: Deps, mint: string, clientAddress: string | undefined, nowMs: number, rate: Record<string, string>): Promise<Reply | null> {
  const caller = callerAddress(request, clientAddress, deps.config.TRUSTED_PROXIES);
  // the held record proves its curve existed (its transactions touched it): no chain read here; a HEAD starts nothing
  const answer: RebuildAnswer | null = (await deps.rebuilds.existing(mint, caller)) ?? (request.method === 'HEAD' ? null : await deps.rebuilds.start(mint, caller));
  return answer?.kind === 'in_progress' ? inProgress(deps, mint, answer, nowMs, rate, REBUILD_WHY.held) : null;
}

/** The (bodiless) answer of a HEAD for a mint not held and not being rebuilt: 404, where a GET would read the chain and may start a rebuild. */
const HEAD_NOT_HELD = 'The archive holds no record of this mint and is not rebuilding it. A HEAD reads no chain and starts no rebuild: send a GET to look the mint up and start one.';

/** `finding.why` of a 202: a mint the archive does not hold, or a record it holds without its complete history. */
const REBUILD_WHY = {
  notHeld: 'Unknown, not clean, until the rebuild ends: the archive did not watch this launch, and it is being reconstructed from its complete chain history.',
  held: 'Unknown, not clean, until the rebuild ends: the archive holds only part of this launch\'s history, and it is being reconstructed from its complete chain history.',
} as const;

/** The 202 answer of a rebuild queued or running (docs/api.md "Rebuilds"). */
function inProgress(deps: Deps, mint: string, answer: Extract<RebuildAnswer, { kind: 'in_progress' }>, nowMs: number, rate: Record<string, string>, why: string): Reply {
  const body = {
    apiVersion: 'v1',
    mint,
    finding: {
      class: 'UNKNOWN',
      label: 'Rebuild in progress',
      why,
    },
    cleanAtBirth: null,
    rebuild: answer.view,
    // when this answer was made: after the job was queued and its view read (the request's own time, taken at its arrival, can precede a job it queued)
    generatedAt: instant(Math.max(nowMs, deps.now())),
    source: sourceUrl(deps.config.baseUrl, mint),
    license: licenseOf(deps.config),
  };
  const headers = { ...(answer.started ? withRebuildPolicy(rate, answer) : rate), 'Retry-After': String(answer.retryAfterS), 'Cache-Control': CACHE_NONE };
  return jsonTextReply(JSON.stringify(body), 202, headers);
}
