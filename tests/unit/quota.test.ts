import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../src/config.ts';
import { canonicalJson, sha256Hex } from '../../src/core/canonical.ts';
import type { LaunchDocument } from '../../src/core/types.ts';
import { PrivateStore } from '../../src/db/private-store.ts';
import { createLogger } from '../../src/log.ts';
import { createDeps, type Deps } from '../../src/server/deps.ts';
import { handleToken } from '../../src/server/token.ts';
import { DAILY_QUOTA, rateLimitHeaders, secondsToUtcMidnight, utcDay } from '../../src/server/quota.ts';

/**
 * The daily quota (spec §8): exact at the 10,000 boundary under concurrency (200 concurrent
 * requests through the handler; and 4 processes writing the same private.db at once), reset at
 * 00:00 UTC on the injected clock, which responses count, the RateLimit fields, and the benchmark
 * switch that turns counting off.
 */

const ROOT = resolve(fileURLToPath(import.meta.url), '../../..');
const MINT = '7GCihgDB8fe6KNjn2MYtkzZcRjQy3t9GHdC8uHYmW2hr';
const ABSENT = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';

let dir: string;
let deps: Deps;
let clock: number;
let key: string;
let keyId: number;
let store: PrivateStore;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lpa-quota-'));
  clock = Date.parse('2026-11-20T12:00:00.000Z');
  deps = createDeps(loadConfig({ DATA_DIR: dir }), { now: () => clock, curveStatus: async () => 'never', log: createLogger('silent') });
  ({ key, id: keyId } = await deps.keys.create('quota test'));
  const doc = {
    mint: MINT, apiVersion: 'v1', methodVersion: 'markers-v1', origin: 'observed', observedAtLaunch: true, settled: true,
    cleanAtBirth: true, launch: null, finding: { class: 'NO_MARKERS', label: 'No recorded markers', why: 'Checked; none found.' },
  } as unknown as LaunchDocument;
  const text = canonicalJson(doc);
  deps.publicStore.putLaunch(doc, null, text, sha256Hex(text), clock);
  store = new PrivateStore(join(dir, 'private.db'));
});
afterEach(() => {
  store.close();
  deps.publicStore.close();
  rmSync(dir, { recursive: true, force: true });
});

const req = (headers: Record<string, string> = {}) => new Request(`http://x/api/v1/token/${MINT}`, { headers: { Authorization: `Bearer ${key}`, ...headers } });
const get = (mint = MINT, headers: Record<string, string> = {}) => handleToken(req(headers), deps, { mint });
const used = () => store.usage(keyId, utcDay(clock));

describe('exactness at the boundary', () => {
  it('200 concurrent requests with 9,900 already used: exactly 100 succeed and 100 get 429 quota_exceeded', async () => {
    store.setUsage(keyId, utcDay(clock), 9_900);
    const responses = await Promise.all(Array.from({ length: 200 }, () => get()));
    const ok = responses.filter((r) => r.status === 200);
    const refused = responses.filter((r) => r.status === 429);
    expect(ok.length).toBe(100);
    expect(refused.length).toBe(100);
    const remaining = ok.map((r) => Number(r.headers.get('RateLimit')!.match(/r=(\d+)/)![1])).sort((a, b) => a - b);
    expect(remaining).toEqual(Array.from({ length: 100 }, (_, i) => i)); // 99 … 0, each exactly once
    for (const r of refused) {
      const body = await r.json();
      expect(body).toMatchObject({ apiVersion: 'v1', error: 'quota_exceeded', finding: { class: 'UNKNOWN' } });
      expect(r.headers.get('Retry-After')).toBe(String(12 * 3600));
      expect(r.headers.get('RateLimit')).toBe(`"daily";r=0;t=${12 * 3600}`);
      expect(r.headers.get('RateLimit-Policy')).toBe('"daily";q=10000;w=86400');
    }
    expect(used()).toBe(DAILY_QUOTA); // refusals are not counted
  });

  it('4 processes each trying 500 requests on the same private.db at once, 9,000 already used: exactly 1,000 admitted', async () => {
    const day = utcDay(clock);
    store.setUsage(keyId, day, 9_000);
    const code = `
      const { PrivateStore } = await import(${JSON.stringify(join(ROOT, 'src/db/private-store.ts'))});
      const s = new PrivateStore(process.env.DB);
      process.stdout.write('ready\\n');
      await new Promise((r) => process.stdin.once('data', r));
      let ok = 0;
      for (let i = 0; i < 500; i++) if (s.admitRequest(Number(process.env.KEY_ID), process.env.DAY, 10000) !== null) ok++;
      s.close();
      process.stdout.write('admitted ' + ok + '\\n');
      process.exit(0);
    `;
    const procs = Array.from({ length: 4 }, () =>
      spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
        cwd: ROOT,
        env: { ...process.env, DB: join(dir, 'private.db'), KEY_ID: String(keyId), DAY: day },
        stdio: ['pipe', 'pipe', 'inherit'],
      }),
    );
    const outputs = procs.map((p) => {
      let out = '';
      const ready = new Promise<void>((r) => p.stdout!.on('data', (d) => ((out += d), out.includes('ready') && r())));
      const done = new Promise<string>((r) => p.once('exit', () => r(out)));
      return { ready, done };
    });
    await Promise.all(outputs.map((o) => o.ready));
    for (const p of procs) p.stdin!.write('go\n');
    const texts = await Promise.all(outputs.map((o) => o.done));
    const admitted = texts.map((t) => Number(t.match(/admitted (\d+)/)![1]));
    expect(admitted.reduce((a, b) => a + b, 0)).toBe(1_000);
    expect(admitted.filter((n) => n > 0).length).toBeGreaterThan(1); // the processes really interleaved
    expect(used()).toBe(10_000);
  });
});

describe('reset at 00:00 UTC (injected clock)', () => {
  it('a used-up key is refused until midnight UTC, then admitted with a fresh count', async () => {
    deps.dailyQuota = 3;
    clock = Date.parse('2026-11-20T23:59:58.500Z');
    for (let i = 0; i < 3; i++) expect((await get()).status).toBe(200);
    const refused = await get();
    expect(refused.status).toBe(429);
    expect(refused.headers.get('Retry-After')).toBe('2'); // 1.5 s, rounded up
    clock = Date.parse('2026-11-20T23:59:59.999Z');
    expect((await get()).headers.get('Retry-After')).toBe('1');
    clock = Date.parse('2026-11-21T00:00:00.000Z');
    const fresh = await get();
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get('RateLimit')).toBe('"daily";r=2;t=86400');
    expect(secondsToUtcMidnight(Date.parse('2026-11-21T06:00:00.000Z'))).toBe(18 * 3600);
  });
});

describe('which responses count', () => {
  it('counted: 200, 304 and 404 not_a_curve_launch (all carry RateLimit); not counted: 400, 401, 429', async () => {
    const ok = await get();
    expect(ok.status).toBe(200);
    expect(ok.headers.get('RateLimit')).toBe(`"daily";r=9999;t=${12 * 3600}`);
    const etag = ok.headers.get('ETag')!;
    const notModified = await get(MINT, { 'If-None-Match': etag });
    expect(notModified.status).toBe(304);
    expect(notModified.headers.get('RateLimit')).toMatch(/r=9998;/);
    const absent = await get(ABSENT);
    expect(absent.status).toBe(404);
    expect(absent.headers.get('RateLimit')).toMatch(/r=9997;/);
    expect(used()).toBe(3);

    expect((await handleToken(req(), deps, { mint: 'not-an-address' })).status).toBe(400);
    expect((await handleToken(new Request('http://x/'), deps, { mint: MINT })).status).toBe(401);
    expect((await handleToken(req({ Authorization: 'Bearer lpa_wrong' }), deps, { mint: MINT })).status).toBe(401);
    expect(used()).toBe(3);
    deps.dailyQuota = 3;
    const refused = await get();
    expect(refused.status).toBe(429);
    expect(used()).toBe(3);
  });

  it('a 401 carries its code and finding UNKNOWN and no RateLimit fields (no key, no quota)', async () => {
    const res = await handleToken(new Request('http://x/'), deps, { mint: MINT });
    expect(await res.json()).toMatchObject({ error: 'missing_key', finding: { class: 'UNKNOWN' } });
    expect(res.headers.get('RateLimit')).toBeNull();
  });
});

describe('benchmark switch', () => {
  it('countUsage: false counts and refuses nothing; the fields report the full quota', async () => {
    deps.countUsage = false;
    deps.dailyQuota = 1;
    for (let i = 0; i < 5; i++) {
      const r = await get();
      expect(r.status).toBe(200);
      expect(r.headers.get('RateLimit')).toMatch(/^"daily";r=1;/);
    }
    expect(used()).toBe(0);
  });

  it('rateLimitHeaders follows draft-ietf-httpapi-ratelimit-headers-10', () => {
    expect(rateLimitHeaders({ used: 1, quota: 10_000, resetSeconds: 3600, exceeded: false })).toEqual({
      'RateLimit-Policy': '"daily";q=10000;w=86400',
      RateLimit: '"daily";r=9999;t=3600',
    });
  });
});
