import { assertConforms } from '../helpers/conform.ts';
import { handleTokensBatch } from '../../src/server/tokens-batch.ts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { getBase58Decoder } from '@solana/kit';
import { loadConfig } from '../../src/config.ts';
import { canonicalJson, instant, sha256Hex } from '../../src/core/canonical.ts';
import type { LaunchDocument } from '../../src/core/types.ts';
import { PublicStore } from '../../src/db/public-store.ts';
import { createLogger } from '../../src/log.ts';
import { createDeps, type Deps } from '../../src/server/deps.ts';
import { ERROR_CODES, ERRORS, errorResponse } from '../../src/server/errors.ts';
import { preflightResponse } from '../../src/server/http.ts';
import { handleToken } from '../../src/server/token.ts';
import { handleStatus } from '../../src/server/status.ts';
import { handleDocument, handleTokenPage } from '../../src/server/site.ts';
import { safely } from '../../src/server/safely.ts';
import { downtimeMinutes, gapOnStart, watchedAt } from '../../src/core/coverage.ts';
import type { CurveStatus } from '../../src/chain/curve-status.ts';

/** Handler tests: plain functions over Request/Response with temporary SQLite files; no server. */

const NOW = Date.parse('2026-11-20T12:00:00.000Z');
const b58 = getBase58Decoder();
const newAddress = () => b58.decode(randomBytes(32));

/** A launch document as the collector stores it (constructed here, not captured from chain). */
function makeDoc(over: Partial<LaunchDocument> = {}): LaunchDocument {
  const mint = over.mint ?? newAddress();
  return {
    apiVersion: 'v1',
    methodVersion: 'markers-v1',
    mint,
    symbol: 'TST',
    name: 'Test token',
    uri: 'https://example.com/t.json',
    venue: 'pump.fun',
    origin: 'observed',
    observedAtLaunch: true,
    settled: true,
    asOf: instant(NOW - 60_000),
    finding: { class: 'FINDINGS', label: 'Creator kept most of the supply', why: 'The creator kept 62% of the supply.' },
    cleanAtBirth: false,
    launch: {
      createdAt: instant(NOW - 3_600_000),
      creator: newAddress(),
      creatorSupplyPct: 62,
      creatorTokensRaw: '620000000000000',
      totalSupplyRaw: '1000000000000000',
      creatorSold: false,
      curveBuyers: 3,
      buyersFirst30s: 2,
      bundledBuyers: 1,
      bundle: [],
      quoteMint: 'So11111111111111111111111111111111111111112',
      tokenProgram: null,
      mayhemMode: null,
      completed: false,
      completedAt: null,
      graduated: false,
      graduationObserved: false,
      graduationCheck: null,
      graduationConfirmedBy: null,
      graduatedAt: null,
      secondsToGraduate: null,
      graduation: null,
      transaction: { signature: 'createSig111', slot: 1000 },
    },
    curveBuyout: null,
    pool: null,
    funder: { sharedCohort: null },
    flags: [{ code: 'creator_majority', class: 'FINDINGS', summary: 'Creator kept most of the supply', evidence: ['createSig111'] }],
    history: { complete: true, transactions: 5, failedTransactions: 0, firstSlot: 1000, lastSlot: 1200 },
    ...over,
  };
}

function put(store: PublicStore, doc: LaunchDocument): { text: string; sha: string } {
  const text = canonicalJson(doc);
  const sha = sha256Hex(text);
  store.putLaunch(doc, null, text, sha, NOW);
  return { text, sha };
}

let dir: string;
let deps: Deps;
let curve: CurveStatus;
let key: string;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lpa-server-'));
  curve = 'never';
  const config = loadConfig({ DATA_DIR: dir, PUBLIC_BASE_URL: 'https://archive.example', LICENSE_URL: 'https://example.com/licence' });
  deps = createDeps(config, { now: () => NOW, curveStatus: async () => curve, log: createLogger('silent') });
  key = (await deps.keys.create('test')).key;
});

afterEach(() => {
  deps.publicStore.close();
  rmSync(dir, { recursive: true, force: true });
});

const tokenReq = (mint: string, headers: Record<string, string> = {}) =>
  new Request(`http://x/api/v1/token/${mint}`, { headers: { Authorization: `Bearer ${key}`, ...headers } });

async function expectError(res: Response, status: number, code: string) {
  expect(res.status).toBe(status);
  // a 401 carries its Bearer challenge (RFC 6750 §3); no other status does
  expect(res.headers.get('WWW-Authenticate')).toBe(status !== 401 ? null : code === 'missing_key' ? 'Bearer realm="api"' : 'Bearer realm="api", error="invalid_token"');
  expect(res.headers.get('Cache-Control')).toBe('no-store');
  expect(res.headers.get('Access-Control-Allow-Origin')).toBe('*');
  expect(res.headers.get('Content-Type')).toMatch(/^application\/json/);
  const body = await res.json();
  expect(body).toMatchObject({ apiVersion: 'v1', error: code, finding: { class: 'UNKNOWN' } });
  expect(typeof body.message).toBe('string');
  expect(typeof body.finding.label).toBe('string');
  expect(typeof body.finding.why).toBe('string');
  expect(body.generatedAt).toEqual({ ms: NOW, iso: '2026-11-20T12:00:00.000Z' });
  return body;
}

describe('error vocabulary', () => {
  it('maps every permanent code to its status with a what/why/what-to-do body and finding UNKNOWN', async () => {
    expect(ERROR_CODES).toEqual([
      'not_an_address', 'missing_key', 'invalid_key', 'revoked_key', 'not_a_curve_launch', 'rebuild_failed',
      'quota_exceeded', 'rate_limited', 'rebuild_budget_exhausted', 'busy', 'not_found',
      'invalid_signature', 'billing_not_configured', 'internal',
      'bad_request', 'method_not_allowed', 'payload_too_large', 'invalid_event', 'headers_too_large', 'request_timeout',
      'invalid_query', 'invalid_cursor', 'too_many_mints', 'invalid_mints', 'feed_not_in_plan', 'too_many_streams', 'unavailable', 'range_not_satisfiable',
    ]);
    for (const code of ERROR_CODES) {
      await expectError(errorResponse(code, { nowMs: NOW }), ERRORS[code].status, code);
    }
    expect(ERRORS.not_a_curve_launch.status).toBe(404);
    expect(ERRORS.rebuild_failed.status).toBe(404);
    expect(ERRORS.quota_exceeded.status).toBe(429);
    expect(ERRORS.rate_limited.status).toBe(429);
    expect(ERRORS.rebuild_budget_exhausted.status).toBe(503);
    expect(ERRORS.feed_not_in_plan.status).toBe(403);
    expect(ERRORS.too_many_streams.status).toBe(429);
    expect(ERRORS.range_not_satisfiable.status).toBe(416);
  });

  it('turns an unexpected exception into 500 internal without logging the request headers', async () => {
    const lines: string[] = [];
    const log = { error: (o: unknown, m: string) => lines.push(JSON.stringify(o) + m) } as unknown as Deps['log'];
    const res = await safely({ log, now: () => NOW }, tokenReq('x'), () => {
      throw new Error('boom');
    });
    await expectError(res, 500, 'internal');
    expect(lines.join('\n')).toContain('boom');
    expect(lines.join('\n')).not.toContain(key);
  });
});

describe('GET /api/v1/token/{mint}', () => {
  it('400 not_an_address for a short, a 45-character and a non-base58 value, before the key is checked', async () => {
    const valid = newAddress();
    for (const bad of ['abc', valid + '1'.repeat(45 - valid.length), '0OIl' + valid.slice(4), 'x'.repeat(32), '']) {
      const res = await handleToken(new Request('http://x/'), deps, { mint: bad });
      await expectError(res, 400, 'not_an_address');
    }
    expect((valid + '1'.repeat(45 - valid.length)).length).toBe(45);
  });

  it('401 missing_key, invalid_key and revoked_key', async () => {
    const mint = newAddress();
    await expectError(await handleToken(new Request('http://x/'), deps, { mint }), 401, 'missing_key');
    await expectError(await handleToken(new Request('http://x/', { headers: { Authorization: 'Basic abc' } }), deps, { mint }), 401, 'missing_key');
    await expectError(await handleToken(tokenReq(mint, { Authorization: 'Bearer lpa_nope' }), deps, { mint }), 401, 'invalid_key');
    // A key of the right shape with one character changed: found by hash → not found → invalid.
    const altered = key.slice(0, -1) + (key.endsWith('2') ? '3' : '2');
    await expectError(await handleToken(tokenReq(mint, { Authorization: `Bearer ${altered}` }), deps, { mint }), 401, 'invalid_key');
    const other = await deps.keys.create('to revoke');
    expect(await deps.keys.revoke(other.id)).toBe(true);
    await expectError(await handleToken(tokenReq(mint, { Authorization: `Bearer ${other.key}` }), deps, { mint }), 401, 'revoked_key');
  });

  it('200 with the stored document plus coverage, generatedAt, source, license; strong ETag; 304', async () => {
    const doc = makeDoc();
    const { sha } = put(deps.publicStore, doc);
    deps.publicStore.setMeta('coverage_from_ms', String(NOW - 86_400_000));
    const res = await handleToken(tokenReq(doc.mint), deps, { mint: doc.mint });
    expect(res.status).toBe(200);
    expect(res.headers.get('ETag')).toBe(`"${sha}"`);
    expect(res.headers.get('Cache-Control')).toBe('max-age=3600, stale-while-revalidate=86400');
    expect(res.headers.get('Access-Control-Allow-Origin')).toBe('*');
    expect(res.headers.get('RateLimit-Policy')).toBe('"daily";q=10000;w=86400');
    expect(res.headers.get('RateLimit')).toMatch(/^"daily";r=9999;t=\d+$/);
    const body = await res.json();
    expect(body.apiVersion).toBe('v1');
    expect(body.mint).toBe(doc.mint);
    expect(body.finding).toEqual(doc.finding);
    expect(body.flags).toEqual(doc.flags);
    expect(body.launch).toEqual(doc.launch);
    expect(body.cleanAtBirth).toBe(false);
    expect(body.generatedAt).toEqual({ ms: NOW, iso: '2026-11-20T12:00:00.000Z' });
    expect(body.coverage.from).toEqual(instant(NOW - 86_400_000));
    expect(body.coverage.downtimeMinutes).toBe(0);
    expect(body.coverage.note).toMatch(/unknown, not clean/);
    expect(body.source).toBe(`https://archive.example/t/${doc.mint}.html`);
    expect(body.license).toContain('https://example.com/licence');
    expect(body.license).toContain('no bulk redistribution');
    expect(body.asOf.iso).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    const again = await handleToken(tokenReq(doc.mint, { 'If-None-Match': `"${sha}"` }), deps, { mint: doc.mint });
    expect(again.status).toBe(304);
    expect(again.headers.get('ETag')).toBe(`"${sha}"`);
    expect(again.headers.get('Cache-Control')).toBe('max-age=3600, stale-while-revalidate=86400');
    expect(await again.text()).toBe('');
    const list = await handleToken(tokenReq(doc.mint, { 'If-None-Match': `"other", W/"${sha}"` }), deps, { mint: doc.mint });
    expect(list.status).toBe(304);
    const miss = await handleToken(tokenReq(doc.mint, { 'If-None-Match': '"other"' }), deps, { mint: doc.mint });
    expect(miss.status).toBe(200);
  });

  it('unsettled record: no-store, still with an ETag and 304', async () => {
    const doc = makeDoc({ settled: false, finding: { class: 'UNKNOWN', label: 'Not established', why: 'History incomplete.' }, cleanAtBirth: null });
    const { sha } = put(deps.publicStore, doc);
    const res = await handleToken(tokenReq(doc.mint), deps, { mint: doc.mint });
    expect(res.status).toBe(200);
    expect(res.headers.get('Cache-Control')).toBe('no-store');
    expect(res.headers.get('ETag')).toBe(`"${sha}"`);
    expect((await res.json()).cleanAtBirth).toBeNull();
    const again = await handleToken(tokenReq(doc.mint, { 'If-None-Match': `"${sha}"` }), deps, { mint: doc.mint });
    expect(again.status).toBe(304);
    expect(again.headers.get('Cache-Control')).toBe('no-store');
  });

  it('a mint not held: 404 not_a_curve_launch only when the chain says never; 202 rebuild when it exists (polling is no new start); 404 rebuild_failed when the check fails', async () => {
    const mint = newAddress();
    curve = 'never';
    await expectError(await handleToken(tokenReq(mint), deps, { mint }), 404, 'not_a_curve_launch');
    curve = 'exists';
    const first = await handleToken(tokenReq(mint), deps, { mint, clientAddress: '192.0.2.7' });
    expect(first.status).toBe(202);
    expect(first.headers.get('Cache-Control')).toBe('no-store');
    expect(Number(first.headers.get('Retry-After'))).toBeGreaterThan(0);
    expect(first.headers.get('RateLimit-Policy')).toContain('"rebuilds";q=5;w=3600');
    expect(first.headers.get('RateLimit')).toContain('"rebuilds";r=4;');
    await assertConforms('GET', `/api/v1/token/${mint}`, first); // the 202 as the OpenAPI document describes it
    const body = await first.json();
    expect(body).toMatchObject({ apiVersion: 'v1', mint, cleanAtBirth: null, finding: { class: 'UNKNOWN' }, rebuild: { state: 'queued', position: 0, startedAt: null } });
    expect(body.license).toBe(`${deps.config.LICENSE_TEXT} ${deps.config.LICENSE_URL}`); // a keyed response (spec §1)
    const again = await handleToken(tokenReq(mint), deps, { mint, clientAddress: '192.0.2.7' });
    expect(again.status).toBe(202);
    expect((await again.json()).rebuild.queuedAt).toEqual(body.rebuild.queuedAt);
    expect((await deps.rebuilds.jobs.callerStartsInHour('192.0.2.7', deps.now())).count).toBe(1); // polling did not count
    curve = 'unknown';
    const other = newAddress();
    await expectError(await handleToken(tokenReq(other), deps, { mint: other, clientAddress: '192.0.2.7' }), 404, 'rebuild_failed');
  });

  it('a 202 is generated no earlier than the rebuild it reports was queued (a clock that moves during the request)', async () => {
    let t = NOW;
    const moving = createDeps(deps.config, { now: () => (t += 7), curveStatus: async () => 'exists', log: createLogger('silent') });
    const k = (await moving.keys.create('moving')).key;
    const mint = newAddress();
    const res = await handleToken(new Request(`http://x/api/v1/token/${mint}`, { headers: { Authorization: `Bearer ${k}` } }), moving, { mint, clientAddress: '192.0.2.9' });
    expect(res.status).toBe(202);
    const body = await res.json();
    expect(body.rebuild.queuedAt.ms).toBeGreaterThan(NOW + 7); // queued after the request arrived
    expect(body.generatedAt.ms).toBeGreaterThanOrEqual(body.rebuild.queuedAt.ms);
    moving.publicStore.close();
  });

  it('batch GET /api/v1/tokens: each distinct mint answered as its single call in request order, one request each, rebuild limits as single calls', async () => {
    const doc = makeDoc();
    put(deps.publicStore, doc);
    const batchReq = (mints: string) => new Request(`http://x/api/v1/tokens?mints=${mints}`, { headers: { Authorization: `Bearer ${key}` } });
    const used = async () => (await deps.keys.peekUsage(1)).used;
    for (const [mints, code] of [['', 'invalid_mints'], [`${doc.mint},,${doc.mint}`, 'invalid_mints'], [`${doc.mint},`, 'invalid_mints'], [`${doc.mint}, x`, 'invalid_mints'], [Array.from({ length: 101 }, newAddress).join(','), 'too_many_mints']] as const) {
      await expectError(await handleTokensBatch(batchReq(mints), deps, {}), 400, code);
    }
    await expectError(await handleTokensBatch(new Request(`http://x/api/v1/tokens?mints=${doc.mint}`), deps, {}), 401, 'missing_key');
    // each malformed list is told what is wrong with it (an API reviewer got one message for all six)
    const why = async (query: string) => ((await (await handleTokensBatch(new Request(`http://x/api/v1/tokens?${query}`, { headers: { Authorization: `Bearer ${key}` } }), deps, {})).json()) as { message: string }).message;
    expect(await why('')).toMatch(/^The mints parameter is missing \(/);
    expect(await why('mints=')).toMatch(/^The mints parameter is empty \(/);
    expect(await why(`mints=${doc.mint},`)).toMatch(/^The mints list starts or ends with a comma \(/);
    expect(await why(`mints=${doc.mint},,${doc.mint}`)).toMatch(/^The mints list holds an empty entry \(two commas in a row\) \(/);
    expect(await why(`mints=%20${doc.mint}`)).toMatch(/^The mints list holds a space or another blank \(/);
    expect(await why(`mints=${doc.mint}&mints=${doc.mint}`)).toMatch(/^The mints parameter is given more than once/);
    expect(await used()).toBe(0);
    curve = 'exists';
    const unheld = Array.from({ length: 6 }, newAddress);
    const res = await handleTokensBatch(batchReq([doc.mint, 'abc', doc.mint, ...unheld].join(',')), deps, { clientAddress: '192.0.2.9' });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.results.map((r: { mint: string }) => r.mint)).toEqual([doc.mint, 'abc', ...unheld]);
    expect(body.results.map((r: { status: number }) => r.status)).toEqual([200, 400, 202, 202, 202, 202, 202, 429]);
    expect(body.results[0].body.mint).toBe(doc.mint);
    expect(body.results[1].body.error).toBe('not_an_address');
    expect(body.results[7].body.error).toBe('rate_limited'); // the 6th start this hour by this caller, as a single call
    expect(body.license).toBeTruthy();
    expect(await used()).toBe(7); // one per looked-up mint; the malformed one, like a single 400, is not counted
    expect(res.headers.get('RateLimit')).toContain(`r=${10_000 - 7};`);
  });

  it('429 quota_exceeded past the daily quota, with Retry-After until 00:00 UTC', async () => {
    const doc = makeDoc();
    put(deps.publicStore, doc);
    deps.dailyQuota = 2;
    expect((await handleToken(tokenReq(doc.mint), deps, { mint: doc.mint })).status).toBe(200);
    expect((await handleToken(tokenReq(doc.mint), deps, { mint: doc.mint })).status).toBe(200);
    const res = await handleToken(tokenReq(doc.mint), deps, { mint: doc.mint });
    await expectError(res, 429, 'quota_exceeded');
    expect(res.headers.get('Retry-After')).toBe(String(12 * 3600));
    // the wait is in the message too, so a batch entry (which has no header fields) says it
    const again = (await (await handleToken(tokenReq(doc.mint), deps, { mint: doc.mint })).json()) as { message: string };
    expect(again.message).toBe(`This key's daily request quota is used. It resets at 00:00 UTC (in ${12 * 3600} s); larger volumes need a data agreement.`);
    const other = makeDoc();
    put(deps.publicStore, other);
    deps.dailyQuota = 3; // one left: the batch's first mint is answered, its second is past the quota
    const batch = await handleTokensBatch(new Request(`http://localhost/api/v1/tokens?mints=${doc.mint},${other.mint}`, { headers: tokenReq(doc.mint).headers }), deps, {});
    const entries = ((await batch.json()) as { results: { status: number; body: { message: string } }[] }).results;
    expect(entries.map((e) => e.status)).toEqual([200, 429]);
    expect(entries[1]!.body.message).toMatch(/^This key's daily request quota is used\. It resets at 00:00 UTC \(in \d+ s\); larger volumes need a data agreement\.$/);
  });
});

describe('CORS', () => {
  it('OPTIONS preflight answers 204 with the allowed methods, headers and max-age', () => {
    const res = preflightResponse();
    expect(res.status).toBe(204);
    expect(res.headers.get('Access-Control-Allow-Origin')).toBe('*');
    expect(res.headers.get('Access-Control-Allow-Methods')).toBe('GET, OPTIONS');
    expect(res.headers.get('Access-Control-Allow-Headers')).toBe('Authorization, Content-Type, If-None-Match, Range, If-Range');
    expect(res.headers.get('Access-Control-Max-Age')).toBe('86400');
  });

  it('every response is open to every origin and exposes ETag, Retry-After and RateLimit', async () => {
    const doc = makeDoc();
    put(deps.publicStore, doc);
    const responses = [
      await handleToken(tokenReq(doc.mint), deps, { mint: doc.mint }),
      await handleToken(new Request('http://x/'), deps, { mint: doc.mint }),
      await handleStatus(new Request('http://x/'), deps),
      await handleDocument(new Request('http://x/'), deps, { mint: doc.mint }),
      await handleTokenPage(new Request('http://x/'), deps, { file: `${doc.mint}.html` }),
      await handleTokenPage(new Request('http://x/'), deps, { file: `${newAddress()}.html` }),
    ];
    for (const res of responses) {
      expect(res.headers.get('Access-Control-Allow-Origin')).toBe('*');
      const exposed = res.headers.get('Access-Control-Expose-Headers') ?? '';
      for (const h of ['ETag', 'Retry-After', 'RateLimit']) expect(exposed).toContain(h);
    }
  });
});

describe('GET /api/v1/status', () => {
  it('reports counts by origin and class, coverage with downtime, collector state', async () => {
    put(deps.publicStore, makeDoc());
    put(deps.publicStore, makeDoc({ origin: 'scanned', observedAtLaunch: false, finding: { class: 'UNKNOWN', label: 'u', why: 'w' }, cleanAtBirth: null }));
    deps.publicStore.setMeta('coverage_from_ms', String(NOW - 86_400_000));
    const r1 = deps.publicStore.startRun(NOW - 3_600_000, 1000);
    deps.publicStore.stopRun(r1, NOW - 3_000_000);
    deps.publicStore.addGap({ fromMs: NOW - 3_000_000, toMs: NOW - 3_000_000 + 10 * 60_000 + 30_000, fromSlot: 2000, toSlot: 3575 }); // 10.5 min
    const r2 = deps.publicStore.startRun(NOW - 3_000_000 + 10 * 60_000 + 30_000, 3575);
    deps.publicStore.heartbeat(r2, NOW - 30_000, 123460);
    deps.publicStore.setCursor('program', 'sig', 123456, NOW);
    deps.publicStore.setMeta('afterwards_sweep_at_ms', String(NOW - 60_000));
    const res = await handleStatus(new Request('http://x/api/v1/status'), deps);
    expect(res.status).toBe(200);
    expect(res.headers.get('Cache-Control')).toBe('no-store');
    const body = await res.json();
    expect(body.apiVersion).toBe('v1');
    expect(body.generatedAt).toEqual(instant(NOW));
    expect(body.counts).toMatchObject({ launches: 1, records: 2, byOrigin: { observed: 1, scanned: 1 }, byClass: { FINDINGS: 1, UNKNOWN: 1 } });
    expect(body.coverage).toMatchObject({ from: instant(NOW - 86_400_000), downtimeMinutes: 10 });
    expect(typeof body.coverage.note).toBe('string');
    expect(body.coverage.gaps).toEqual([{ from: instant(NOW - 3_000_000), to: instant(NOW - 3_000_000 + 630_000), fromSlot: 2000, toSlot: 3575, minutes: 10 }]);
    expect(body.collector).toEqual({
      lastHeartbeat: instant(NOW - 30_000), cursorSlot: 123456, tipSlot: 123460, lagSlots: 4, running: true, state: 'live', fallingBehind: false, unreachableSince: null, lastRpcError: null,
      periodic: { funderSweep: null, afterwardsSweep: instant(NOW - 60_000), poolRefresh: null, downloads: null },
    });
  });

  it('an empty archive: nulls, not zeros, where nothing is known', async () => {
    const body = await (await handleStatus(new Request('http://x/'), deps)).json();
    expect(body.counts).toMatchObject({ launches: 0, records: 0 });
    expect(body.coverage.from).toBeNull();
    expect(body.collector).toEqual({
      lastHeartbeat: null, cursorSlot: null, tipSlot: null, lagSlots: null, running: false, state: 'stopped', fallingBehind: false, unreachableSince: null, lastRpcError: null,
      periodic: { funderSweep: null, afterwardsSweep: null, poolRefresh: null, downloads: null },
    });
    expect(body.coverage.gaps).toEqual([]);
    expect(body.rebuilds).toEqual({ queued: 0, running: 0 });
  });

  it('coverage rules: a pause longer than the allowed gap is a gap; a cron minute is not; downtime adds the ongoing outage', () => {
    const prev = { lastBeatMs: 60_000, tipSlot: 500 };
    expect(gapOnStart(undefined, 1e9, 1, 120_000)).toBeNull();
    expect(gapOnStart(prev, 60_000 + 55_000, 640, 120_000)).toBeNull(); // cron: next run 55 s later
    expect(gapOnStart(prev, 60_000 + 600_000, 2000, 120_000)).toEqual({ fromMs: 60_000, toMs: 660_000, fromSlot: 500, toSlot: 2000 });
    const gaps = [{ fromMs: 0, toMs: 1, fromSlot: 500, toSlot: 2000 }];
    expect(watchedAt(450, 400, gaps)).toBe(true);
    expect(watchedAt(400, 400, gaps)).toBe(false); // at or before the first watched slot: before coverage
    expect(watchedAt(501, 400, gaps)).toBe(false);
    expect(watchedAt(2000, 400, gaps)).toBe(false);
    expect(watchedAt(2001, 400, gaps)).toBe(true);
    expect(downtimeMinutes(0, null, 1e9, 120_000)).toBe(0);
    expect(downtimeMinutes(630_000, 1e9 - 60_000, 1e9, 120_000)).toBe(10); // heartbeat fresh: no ongoing outage
    expect(downtimeMinutes(630_000, 1e9 - 300_000, 1e9, 120_000)).toBe(15); // 5 more minutes and counting
  });
});

describe('GET /d/{mint} and /t/{mint}.html', () => {
  it('serves the collector-written document file as application/json with ETag = its sha256', async () => {
    const doc = makeDoc();
    const { text, sha } = put(deps.publicStore, doc);
    mkdirSync(join(deps.config.siteDir, 'd'), { recursive: true });
    writeFileSync(join(deps.config.siteDir, 'd', `${doc.mint}.json`), text);
    const res = await handleDocument(new Request('http://x/'), deps, { mint: doc.mint });
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toMatch(/^application\/json/);
    expect(res.headers.get('ETag')).toBe(`"${sha}"`);
    expect(res.headers.get('Cache-Control')).toBe('max-age=3600, stale-while-revalidate=86400');
    expect(await res.text()).toBe(text);
    const again = await handleDocument(new Request('http://x/', { headers: { 'If-None-Match': `"${sha}"` } }), deps, { mint: doc.mint });
    expect(again.status).toBe(304);
  });

  it('falls back to the database when the document file is missing; 404/400 as JSON errors', async () => {
    const doc = makeDoc({ settled: false });
    const { text, sha } = put(deps.publicStore, doc);
    const res = await handleDocument(new Request('http://x/'), deps, { mint: doc.mint });
    expect(res.status).toBe(200);
    expect(res.headers.get('ETag')).toBe(`"${sha}"`);
    expect(res.headers.get('Cache-Control')).toBe('no-store');
    expect(await res.text()).toBe(text);
    const unheld = await handleDocument(new Request('http://x/'), deps, { mint: newAddress() });
    // the 404 of a mint not held says so (and that absence is not clean); an unknown path's says the path
    expect((await unheld.clone().json()).message).toMatch(/^The archive holds no record of this mint.*not a clean record/);
    await expectError(unheld, 404, 'not_found');
    await expectError(await handleDocument(new Request('http://x/'), deps, { mint: 'nope' }), 400, 'not_an_address');
  });

  it('serves the page file, renders it from the database when missing, and HTML 404/400 otherwise', async () => {
    const doc = makeDoc();
    const { sha } = put(deps.publicStore, doc);
    const rendered = await handleTokenPage(new Request('http://x/'), deps, { file: `${doc.mint}.html` });
    expect(rendered.status).toBe(200);
    expect(rendered.headers.get('Content-Type')).toMatch(/^text\/html/);
    const page = await rendered.text();
    expect(page).toContain(sha);
    expect(page.startsWith('<!doctype html>')).toBe(true);

    mkdirSync(join(deps.config.siteDir, 't'), { recursive: true });
    const onDisk = page.replace('<h1', '<h1 data-from-file');
    writeFileSync(join(deps.config.siteDir, 't', `${doc.mint}.html`), onDisk);
    const fromFile = await handleTokenPage(new Request('http://x/'), deps, { file: `${doc.mint}.html` });
    expect(await fromFile.text()).toBe(onDisk);
    const etag = fromFile.headers.get('ETag')!;
    expect(etag).toBe(`"${sha256Hex(onDisk)}"`);
    expect((await handleTokenPage(new Request('http://x/', { headers: { 'If-None-Match': etag } }), deps, { file: `${doc.mint}.html` })).status).toBe(304);

    const missing = newAddress();
    const nf = await handleTokenPage(new Request('http://x/'), deps, { file: `${missing}.html` });
    expect(nf.status).toBe(404);
    expect(nf.headers.get('Content-Type')).toMatch(/^text\/html/);
    expect(await nf.text()).toContain(missing);

    const bad = await handleTokenPage(new Request('http://x/'), deps, { file: '<script>.html' });
    expect(bad.status).toBe(400);
    const badText = await bad.text();
    expect(badText).not.toContain('<script>');
    expect(badText).toContain('not shown: it holds characters no address has'); // not echoed at all (a security review)

    const bare = await handleTokenPage(new Request('http://x/'), deps, { file: doc.mint });
    expect(bare.status).toBe(308);
    expect(bare.headers.get('Location')).toBe(`/t/${doc.mint}.html`);
  });
});
