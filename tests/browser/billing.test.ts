import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { loadConfig } from '../../src/config.ts';
import { canonicalJson, instant, sha256Hex } from '../../src/core/canonical.ts';
import type { LaunchDocument } from '../../src/core/types.ts';
import { PublicStore } from '../../src/db/public-store.ts';
import { PrivateStore } from '../../src/db/private-store.ts';
import { utcDay } from '../../src/server/quota.ts';
import { startStripeStandin, type StripeStandin } from '../helpers/stripe-standin.ts';
import { freePort } from '../helpers/net.ts';

/**
 * The paid plan end to end against the BUILT server (`npx astro build` first), in Debian's
 * chromium: pricing page → Subscribe → Checkout Session created through the `stripe` package at
 * the loopback stand-in (STRIPE_API_HOST/PORT/PROTOCOL) → the stand-in's hosted page → Pay (the
 * stand-in sends the signed webhook, then redirects to the success URL) → the key, shown once →
 * the key reads a record → a second visit does not show it. Then: 200 concurrent requests over
 * HTTP across the 10,000 boundary, revocation by webhook, and a scan of the server's log and
 * public.db for the key. Nothing leaves the machine.
 */

const ROOT = resolve(fileURLToPath(import.meta.url), '../../..');
const ENTRY = join(ROOT, 'dist/server/entry.mjs');
const MINT = '7GCihgDB8fe6KNjn2MYtkzZcRjQy3t9GHdC8uHYmW2hr';
const KEY_RE = /lpa_[1-9A-HJ-NP-Za-km-z]{43,44}/;
const T0 = Date.parse('2026-10-01T10:00:00.000Z');

let dir: string;
let server: ChildProcess | undefined;
let browser: Browser | undefined;
let standin: StripeStandin;
let base: string;
let serverLog = '';
let key = '';
let successUrl = '';

beforeAll(async () => {
  if (!existsSync(ENTRY)) throw new Error(`no server build at ${ENTRY}: run "npx astro build" first (npm test does)`);
  dir = mkdtempSync(join(tmpdir(), 'lpa-billing-browser-'));
  const store = new PublicStore(loadConfig({ DATA_DIR: dir }).publicDbPath);
  const doc = {
    apiVersion: 'v1', methodVersion: 'markers-v1', mint: MINT, symbol: 'TST', name: 'Test', uri: null, venue: 'pump.fun',
    origin: 'observed', observedAtLaunch: true, settled: true, asOf: instant(T0), cleanAtBirth: false, launch: null,
    finding: { class: 'FINDINGS', label: 'No outside buyers', why: 'No outside wallet bought on the curve.' },
    curveBuyout: null, pool: null, funder: { sharedCohort: null }, flags: [],
    history: { complete: true, transactions: 3, failedTransactions: 0, firstSlot: 1, lastSlot: 3 },
  } as unknown as LaunchDocument;
  const text = canonicalJson(doc);
  store.putLaunch(doc, null, text, sha256Hex(text), T0);
  store.close();

  standin = await startStripeStandin();
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  standin.webhookUrl = `${base}/billing/webhook`;
  server = spawn(process.execPath, [ENTRY], {
    env: {
      ...process.env,
      DATA_DIR: dir,
      HOST: '127.0.0.1',
      PORT: String(port),
      SOLANA_RPC_URL: `http://127.0.0.1:${await freePort()}`,
      LOG_LEVEL: 'trace',
      PLAN_PRICE_TEXT: 'USD 49 per month',
      ...standin.env('price_test_plan'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout?.on('data', (d) => (serverLog += d));
  server.stderr?.on('data', (d) => (serverLog += d));
  const deadline = Date.now() + 20_000;
  for (;;) {
    try {
      if ((await fetch(`${base}/api/v1/status`)).ok) break;
    } catch {
      /* not listening yet */
    }
    if (server.exitCode !== null || Date.now() > deadline) throw new Error(`server did not start:\n${serverLog}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
});

afterAll(async () => {
  await browser?.close();
  if (server && server.exitCode === null) {
    const exited = new Promise((r) => server!.once('exit', r));
    server.kill('SIGTERM');
    await exited;
  }
  await standin?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const api = (k: string) => fetch(`${base}/api/v1/token/${MINT}`, { headers: { Authorization: `Bearer ${k}` } });

describe('subscribing in chromium', () => {
  it('pricing → Subscribe → stand-in checkout → Pay → success page shows the key once', async () => {
    const page = await browser!.newPage();
    const res = await page.goto(`${base}/pricing`);
    expect(res?.status()).toBe(200);
    const plan = await page.locator('#plan').innerText();
    for (const s of ['10,000 API requests per day', 'any mint', 'Rebuilds', 'record database file']) expect(plan).toContain(s);
    expect(await page.locator('#price').innerText()).toBe('USD 49 per month');

    await Promise.all([page.waitForURL(`${standin.url}/pay/**`), page.locator('#subscribe').click()]);
    const created = standin.requests.find((r) => r.method === 'POST' && r.path === '/v1/checkout/sessions')!;
    expect(created.form).toMatchObject({ mode: 'subscription', 'line_items[0][price]': 'price_test_plan' });

    await Promise.all([page.waitForURL(`${base}/billing/success?session_id=*`), page.locator('#pay').click()]);
    expect(standin.deliveries).toEqual([expect.objectContaining({ type: 'checkout.session.completed', status: 200 })]);
    successUrl = page.url();
    key = (await page.locator('#api-key').innerText()).trim();
    expect(key).toMatch(KEY_RE);
    expect(page.url()).not.toContain(key);
    await page.close();
  });

  it('the key reads a record through the API, with the licence and the RateLimit fields', async () => {
    const res = await api(key);
    expect(res.status).toBe(200);
    expect(res.headers.get('RateLimit-Policy')).toBe('"daily";q=10000;w=86400');
    expect(res.headers.get('RateLimit')).toMatch(/^"daily";r=9999;t=\d+$/);
    const body = await res.json();
    expect(body).toMatchObject({ apiVersion: 'v1', mint: MINT, finding: { class: 'FINDINGS' } });
    expect(body.license).toContain('no bulk redistribution');
  });

  it('a second visit of the success page does not show the key again', async () => {
    const page = await browser!.newPage();
    const res = await page.goto(successUrl);
    expect(res?.status()).toBe(200);
    expect(await page.locator('#already-shown').innerText()).toContain('cannot be shown again');
    expect(await page.content()).not.toMatch(KEY_RE);
    await page.close();
  });
});

describe('the built server', () => {
  it('200 concurrent HTTP requests with 9,900 already used today: exactly 100 × 200 and 100 × 429 quota_exceeded', async () => {
    const store = new PrivateStore(join(dir, 'private.db'));
    const keyId = store.listKeys()[0].id;
    store.setUsage(keyId, utcDay(Date.now()), 9_900);
    store.close();
    const responses = await Promise.all(
      Array.from({ length: 200 }, async () => {
        const r = await api(key);
        return { status: r.status, retryAfter: r.headers.get('Retry-After'), body: await r.json() };
      }),
    );
    expect(responses.filter((r) => r.status === 200).length).toBe(100);
    const refused = responses.filter((r) => r.status === 429);
    expect(refused.length).toBe(100);
    for (const r of refused) {
      expect(Number(r.retryAfter)).toBeGreaterThan(0);
      expect(r.body).toMatchObject({ error: 'quota_exceeded', finding: { class: 'UNKNOWN' } });
    }
  });

  it('customer.subscription.deleted (signed webhook) revokes the key → 401 revoked_key; a replay changes nothing', async () => {
    const session = [...standin.sessions.values()][0];
    const sub = { id: session.subscription, object: 'subscription', status: 'canceled', customer: session.customer };
    const sent = await standin.sendEvent('customer.subscription.deleted', sub);
    expect(sent).toMatchObject({ status: 200, body: { received: true, duplicate: false } });
    const replay = await standin.sendEvent('customer.subscription.deleted', sub, { id: sent.id });
    expect(replay).toMatchObject({ status: 200, body: { received: true, duplicate: true } });
    const bad = await standin.sendEvent('checkout.session.completed', session, { secret: 'whsec_forged' });
    expect(bad).toMatchObject({ status: 400, body: { error: 'invalid_signature', finding: { class: 'UNKNOWN' } } });
    const res = await api(key);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: 'revoked_key', finding: { class: 'UNKNOWN' } });
  });

  it('the key is in no server log line and in no byte of public.db', () => {
    expect(serverLog).toContain('payment event');
    for (const needle of [key, key.slice(4), key.slice(0, 10)]) expect(serverLog).not.toContain(needle);
    const publicBytes = readdirSync(dir)
      .filter((f) => f.startsWith('public.db'))
      .map((f) => readFileSync(join(dir, f)).toString('latin1'))
      .join('');
    expect(publicBytes.length).toBeGreaterThan(0);
    expect(publicBytes).not.toContain(key);
    expect(publicBytes).not.toContain(key.slice(4));
  });
});
