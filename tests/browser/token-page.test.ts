import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { loadConfig } from '../../src/config.ts';
import { canonicalJson, instant, sha256Hex } from '../../src/core/canonical.ts';
import type { LaunchDocument } from '../../src/core/types.ts';
import { PublicStore } from '../../src/db/public-store.ts';
import { PrivateStore } from '../../src/db/private-store.ts';
import { KeyService, loadKeySecret } from '../../src/access/keys.ts';
import { freePort } from '../helpers/net.ts';

/**
 * Browser test against the BUILT server (`npx astro build` first; `npm test` does it): the token
 * pages of a FINDINGS record with a hostile name and of an UNKNOWN record, opened in Debian's
 * chromium. The curve-status RPC points at an unused loopback port, so nothing leaves the machine.
 */

const ROOT = resolve(fileURLToPath(import.meta.url), '../../..');
const ENTRY = join(ROOT, 'dist/server/entry.mjs');
const HOSTILE = '<script>alert(1)</script>';
const HOSTILE_SYMBOL = '<img src=x onerror="window.__xss=1">';
const FINDINGS_MINT = '7GCihgDB8fe6KNjn2MYtkzZcRjQy3t9GHdC8uHYmW2hr';
const UNKNOWN_MINT = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';
const ABSENT_MINT = 'So11111111111111111111111111111111111111112';
const CREATOR = '39azUYFWPz3VHgKCf3VChUwbpURdCHRxjWVowf5jUJjg';
const CREATE_SIG = '5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW';
const EVIDENCE = ['3nbEvidence11111111111111111111111111111111111111111111111111111111111111111111111', '4xbEvidence22222222222222222222222222222222222222222222222222222222222222222222222'];
const T0 = Date.parse('2026-10-01T10:00:00.000Z');

function makeDoc(over: Partial<LaunchDocument>): LaunchDocument {
  return {
    apiVersion: 'v1',
    methodVersion: 'markers-v1',
    mint: FINDINGS_MINT,
    symbol: 'TST',
    name: 'Test',
    uri: null,
    venue: 'pump.fun',
    origin: 'observed',
    observedAtLaunch: true,
    settled: true,
    asOf: instant(T0 + 3_600_000),
    finding: { class: 'FINDINGS', label: 'No outside buyers', why: 'No outside wallet bought on the curve; the creator kept 71% of the supply.' },
    cleanAtBirth: false,
    launch: {
      createdAt: instant(T0),
      creator: CREATOR,
      creatorSupplyPct: 71,
      creatorTokensRaw: '710000000000000',
      totalSupplyRaw: '1000000000000000',
      creatorSold: false,
      curveBuyers: 0,
      buyersFirst30s: 0,
      bundledBuyers: 2,
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
      transaction: { signature: CREATE_SIG, slot: 370000000 },
    },
    curveBuyout: null,
    pool: null,
    funder: { sharedCohort: null },
    flags: [
      { code: 'no_outside_buyers', class: 'FINDINGS', summary: 'No outside wallet bought on the curve', evidence: EVIDENCE },
      { code: 'creator_majority', class: 'FINDINGS', summary: 'Creator kept most of the supply', evidence: [CREATE_SIG] },
    ],
    history: { complete: true, transactions: 7, failedTransactions: 0, firstSlot: 370000000, lastSlot: 370000300 },
    ...over,
  };
}

let dir: string;
let server: ChildProcess | undefined;
let browser: Browser | undefined;
let base: string;
let port: number;
let key: string;
let serverLog = '';

beforeAll(async () => {
  if (!existsSync(ENTRY)) throw new Error(`no server build at ${ENTRY}: run "npx astro build" first (npm test does)`);
  dir = mkdtempSync(join(tmpdir(), 'lpa-browser-'));
  const config = loadConfig({ DATA_DIR: dir });
  const store = new PublicStore(config.publicDbPath);
  for (const doc of [
    makeDoc({ name: HOSTILE, symbol: HOSTILE_SYMBOL, uri: 'javascript:window.__xss=2' }),
    makeDoc({
      mint: UNKNOWN_MINT,
      name: 'Quiet token',
      symbol: 'QT',
      origin: 'scanned',
      observedAtLaunch: false,
      settled: false,
      cleanAtBirth: null,
      launch: null,
      flags: [],
      finding: { class: 'UNKNOWN', label: 'Not observed', why: 'The creation was not observed and the history has not been rebuilt.' },
      history: { complete: false, transactions: 0, failedTransactions: 0, firstSlot: null, lastSlot: null },
    }),
  ]) {
    const text = canonicalJson(doc);
    store.putLaunch(doc, null, text, sha256Hex(text), Date.now());
  }
  store.close();
  const priv = new PrivateStore(config.privateDbPath);
  key = (await new KeyService(priv, loadKeySecret(config)).create('browser test')).key;
  priv.close();

  port = await freePort();
  const unusedRpcPort = await freePort();
  base = `http://127.0.0.1:${port}`;
  server = spawn(process.execPath, [ENTRY], {
    env: { ...process.env, DATA_DIR: dir, HOST: '127.0.0.1', PORT: String(port), SOLANA_RPC_URL: `http://127.0.0.1:${unusedRpcPort}`, LOG_LEVEL: 'warn' },
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
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('token pages in chromium', () => {
  it('FINDINGS page: facts render, the hostile name is text, no script runs, evidence signatures are links', async () => {
    const page = await browser!.newPage();
    const dialogs: string[] = [];
    page.on('dialog', async (d) => {
      dialogs.push(d.message());
      await d.dismiss();
    });
    const res = await page.goto(`${base}/t/${FINDINGS_MINT}.html`);
    expect(res?.status()).toBe(200);
    expect(res?.headers()['content-type']).toMatch(/^text\/html/);
    expect(await page.locator('#token-name').textContent()).toBe(`${HOSTILE} (${HOSTILE_SYMBOL})`);
    expect(await page.title()).toContain(HOSTILE);
    await page.waitForTimeout(200);
    expect(dialogs).toEqual([]);
    expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();
    expect(await page.locator('script').count()).toBe(0);
    expect(await page.locator('img').count()).toBe(0);
    expect(await page.locator('a[href^="javascript:"]').count()).toBe(0);

    const facts = await page.locator('#facts').innerText();
    for (const s of ['71%', 'Bundled buyers', '370000000', 'markers-v1', 'observed: watched live from its creation transaction', 'complete: 7 transactions']) expect(facts).toContain(s);
    // the creator's page is linked (the full address in its href), and its explorer link names it in full
    expect(await page.locator(`#facts a[href="/w/${CREATOR}.html"]`).count()).toBe(1);
    expect(await page.locator(`#facts a[href="https://solscan.io/account/${CREATOR}"]`).getAttribute('aria-label')).toBe(`${CREATOR} on the explorer`);
    expect(await page.locator('#finding').innerText()).toContain('FINDINGS');
    expect(await page.locator('#at-birth').innerText()).toContain('markers present');

    const evidence = page.locator('.flag .evidence a');
    expect(await evidence.count()).toBe(3);
    expect(await evidence.nth(0).getAttribute('href')).toBe(`https://solscan.io/tx/${EVIDENCE[0]}`);
    expect(await evidence.nth(1).textContent()).toBe(EVIDENCE[1]);
    expect(await page.locator(`#facts a[href="https://solscan.io/tx/${CREATE_SIG}"]`).count()).toBe(1);
    expect(await page.locator('#document').getAttribute('href')).toBe(`/d/${FINDINGS_MINT}`);
    await page.close();
  });

  it('UNKNOWN page: "unknown — not observed", and never clean, safe or no issues', async () => {
    const page = await browser!.newPage();
    const res = await page.goto(`${base}/t/${UNKNOWN_MINT}.html`);
    expect(res?.status()).toBe(200);
    expect(res?.headers()['cache-control']).toBe('no-store');
    const text = await page.locator('body').innerText();
    expect(text).toContain('unknown — not observed');
    expect(text).toContain('UNKNOWN');
    expect(text.toLowerCase()).not.toMatch(/clean|safe|no issues/);
    expect((await page.content()).toLowerCase()).not.toMatch(/clean|safe|no issues/);
    await page.close();
  });

  it('the page links to its document, served as JSON with the sha256 ETag', async () => {
    const page = await browser!.newPage();
    await page.goto(`${base}/t/${FINDINGS_MINT}.html`);
    const sha = (await page.locator('#sha256').textContent())!;
    const res = await page.goto(`${base}/d/${FINDINGS_MINT}`);
    expect(res?.status()).toBe(200);
    expect(res?.headers()['content-type']).toMatch(/^application\/json/);
    expect(res?.headers()['etag']).toBe(`"${sha}"`);
    expect(sha256Hex(await res!.text())).toBe(sha);
    await page.close();
  });

  it('a mint not held is an HTML 404 page; the API answers cross-origin browser calls (CORS preflight)', async () => {
    const page = await browser!.newPage();
    const nf = await page.goto(`${base}/t/${ABSENT_MINT}.html`);
    expect(nf?.status()).toBe(404);
    expect(await page.locator('body').innerText()).toContain(ABSENT_MINT);
    // From origin 127.0.0.1 to origin localhost: the Authorization header forces a preflight.
    // The calls run in a JSON answer of origin 127.0.0.1: the pages' CSP (issue 21) lets no script of
    // a page fetch anything, which is what the 404 page above now says.
    await page.goto(`${base}/api/v1/status`);
    const other = `http://localhost:${port}`;
    const result = await page.evaluate(
      async ([url, k]) => {
        const r = await fetch(url, { headers: { Authorization: `Bearer ${k}` } });
        return { status: r.status, etag: r.headers.get('ETag'), body: await r.json() };
      },
      [`${other}/api/v1/token/${FINDINGS_MINT}`, key],
    );
    expect(result.status).toBe(200);
    expect(result.etag).toMatch(/^"[0-9a-f]{64}"$/);
    expect(result.body).toMatchObject({ apiVersion: 'v1', mint: FINDINGS_MINT, finding: { class: 'FINDINGS' } });
    // A mint not held: the curve check cannot reach its RPC, so 404 rebuild_failed (the service's
    // failure) — never not_a_curve_launch, a finding it could not check.
    const failed = await page.evaluate(
      async ([url, k]) => {
        const r = await fetch(url, { headers: { Authorization: `Bearer ${k}` } });
        return { status: r.status, body: await r.json() };
      },
      [`${other}/api/v1/token/${ABSENT_MINT}`, key],
    );
    expect(failed.status).toBe(404);
    expect(failed.body).toMatchObject({ error: 'rebuild_failed', finding: { class: 'UNKNOWN' } });
    await page.close();
  });
});
