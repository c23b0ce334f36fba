import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { loadConfig } from '../../src/config.ts';
import type { LaunchDocument } from '../../src/core/types.ts';
import { PublicStore } from '../../src/db/public-store.ts';
import { displayText } from '../../src/render/display-text.ts';
import { writeChain } from '../../devchain/simulate/write-chain.ts';
import { startReplayRpc, type ReplayRpc } from '../../devchain/replay/server.ts';
import { collectOnce } from '../helpers/collect-once.ts';
import { putDoc, randomAddress } from '../helpers/launch-doc.ts';
import { freePort } from '../helpers/net.ts';

/**
 * Issue 23 in chromium with JavaScript disabled, against the BUILT server (`npx astro build`
 * first) over an archive the real collector built from a simulated chain: the home page, search
 * (mint, symbol prefix, unheld mint, garbage), the list, status and methodology pages. Every
 * request is routed: anything not to the server fails the test. Two records get hostile names
 * (written over the collector's record, then the collector runs again and rewrites the pages).
 * Screenshots: test-results/screenshots/ (1280 and 360 px wide).
 */

const ROOT = resolve(fileURLToPath(import.meta.url), '../../..');
const ENTRY = join(ROOT, 'dist/server/entry.mjs');
const SHOTS = join(ROOT, 'test-results/screenshots');
const AXE = readFileSync(join(ROOT, 'node_modules/axe-core/axe.min.js'), 'utf8');
const HOSTILE_NAME = '<script>window.__xss=1</script>"><img src=x onerror="window.__xss=2"> javascript:alert(3) evil\u202Egnp.exe';
const HOSTILE_SYMBOL = '"><b>';
const LONG_NAME = 'Long '.repeat(2048); // 10 KB
const UNHELD = randomAddress();

let dir: string;
let replay: ReplayRpc | undefined;
let server: ChildProcess | undefined;
let browser: Browser | undefined;
let context: BrowserContext | undefined;
let base: string;
let serverLog = '';
const offOrigin: string[] = [];
/** A record the collector built (not renamed): mint and symbol. */
let sample: { mint: string; symbol: string; name: string };
let hostileMint: string;

beforeAll(async () => {
  if (!existsSync(ENTRY)) throw new Error(`no server build at ${ENTRY}: run "npx astro build" first (npm test does)`);
  dir = mkdtempSync(join(tmpdir(), 'lpa-home-'));
  writeChain({ launches: 40, seed: 2323, out: join(dir, 'chain') });
  replay = await startReplayRpc({ chainDir: join(dir, 'chain') });
  const env = { LISTS_INTERVAL_MS: '0' };
  await collectOnce(join(dir, 'data'), replay.url, Date.now, env);
  // two records renamed (hostile text, a 10 KB name), then the collector runs again: it rewrites their pages and the lists
  const config = loadConfig({ DATA_DIR: join(dir, 'data') });
  const store = new PublicStore(config.publicDbPath);
  const rows = store.db.prepare('SELECT mint, document FROM launch WHERE creation_slot IS NOT NULL ORDER BY creation_slot DESC LIMIT 3').all() as { mint: string; document: string }[];
  const docs = rows.map((r) => JSON.parse(r.document) as LaunchDocument);
  hostileMint = docs[0]!.mint;
  putDoc(store, { ...docs[0]!, name: HOSTILE_NAME, symbol: HOSTILE_SYMBOL, uri: 'javascript:window.__xss=4' });
  putDoc(store, { ...docs[1]!, name: LONG_NAME });
  sample = { mint: docs[2]!.mint, symbol: docs[2]!.symbol!, name: docs[2]!.name! };
  store.close();
  await collectOnce(join(dir, 'data'), replay.url, Date.now, env);

  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  server = spawn(process.execPath, [ENTRY], {
    env: { ...process.env, DATA_DIR: join(dir, 'data'), HOST: '127.0.0.1', PORT: String(port), SOLANA_RPC_URL: `http://127.0.0.1:${await freePort()}`, LOG_LEVEL: 'warn', SEARCH_PER_MINUTE: '1000' },
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
  context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(base + '/')) return route.continue();
    offOrigin.push(url);
    return route.abort();
  });
  mkdirSync(SHOTS, { recursive: true });
}, 240_000);

afterAll(async () => {
  await browser?.close();
  if (server && server.exitCode === null) {
    const exited = new Promise((r) => server!.once('exit', r));
    server.kill('SIGTERM');
    await exited;
  }
  await replay?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** No horizontal overflow at 360 px, and a screenshot at both widths when `shot` is given. */
async function atWidths(page: Page, shot?: string): Promise<void> {
  if (shot) await page.screenshot({ path: join(SHOTS, `${shot}-1280.png`), fullPage: true });
  await page.setViewportSize({ width: 360, height: 780 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  if (shot) await page.screenshot({ path: join(SHOTS, `${shot}-360.png`), fullPage: true });
  if (shot) await page.screenshot({ path: join(SHOTS, `${shot}-360-first-screen.png`) });
  await page.setViewportSize({ width: 1280, height: 900 });
  // and on a phone (touch, pointer: coarse), where links get 40 px tap targets
  const phone = await browser!.newContext({ javaScriptEnabled: false, viewport: { width: 360, height: 780 }, isMobile: true, hasTouch: true });
  try {
    await phone.route('**/*', (route) => (route.request().url().startsWith(base + '/') ? route.continue() : (offOrigin.push(route.request().url()), route.abort())));
    const p = await phone.newPage();
    await p.goto(page.url());
    expect(await p.evaluate(() => document.documentElement.scrollWidth), `${page.url()} on a phone`).toBeLessThanOrEqual(360);
  } finally {
    await phone.close();
  }
}

/** axe-core on `url` in a context with JavaScript on (axe is a script; the page's CSP is bypassed for it): no serious or critical violation. */
async function axe(url: string): Promise<void> {
  const ctx = await browser!.newContext({ bypassCSP: true });
  await ctx.route('**/*', (route) => (route.request().url().startsWith(base + '/') ? route.continue() : (offOrigin.push(route.request().url()), route.abort())));
  const page = await ctx.newPage();
  for (const width of [1280, 360]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto(url);
    await page.evaluate(AXE);
    const violations = (await page.evaluate(async () => {
      const r = await (window as unknown as { axe: { run: (c: Document, o: object) => Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }).axe.run(document, { resultTypes: ['violations'] });
      return r.violations.map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }));
    })) as { id: string; impact: string }[];
    expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical'), `${url} at ${width} px`).toEqual([]);
  }
  await ctx.close();
}

/** The hostile names are text: no element came from them, and they read as written (displayText). */
async function hostileIsText(page: Page): Promise<void> {
  expect(await page.locator('script').count()).toBe(0);
  expect(await page.locator('img').count()).toBe(0);
  expect(await page.locator('b').count()).toBe(0);
  expect(await page.locator('a[href^="javascript:"]').count()).toBe(0);
  const html = await page.content();
  expect(html).not.toContain('<script>window');
  expect(html).not.toContain('<img src=x');
}

describe('home, search, lists, status and methodology in chromium without JavaScript', () => {
  it('home: the archive in words, the three lists, screenshots; no overflow at 360 px', async () => {
    const page = await context!.newPage();
    const res = await page.goto(`${base}/`);
    expect(res?.status()).toBe(200);
    expect(res?.headers()['cache-control']).toBe('max-age=5');
    const text = await page.locator('main').innerText();
    expect(text).toMatch(/[\d,]+ launch records: [\d,]+ FINDINGS, [\d,]+ NOTE, [\d,]+ NO MARKERS, [\d,]+ UNKNOWN\./);
    expect(text).toMatch(/Watching launches since \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    expect(text).toMatch(/Collector (live|catching up|between runs|stopped)/);
    for (const id of ['latest', 'graduated', 'findings']) expect(await page.locator(`section#${id} h2`).count()).toBe(1);
    const rows = page.locator('section#latest li.row');
    expect(await rows.count()).toBe(10);
    expect(await rows.first().locator('.badge').count()).toBe(1);
    expect(await rows.first().locator('a.tok').getAttribute('href')).toMatch(/^\/t\/[1-9A-HJ-NP-Za-km-z]{32,44}\.html$/);
    // the hostile record is the newest launch: its name is text, cut and made visible
    expect(await rows.first().locator('.name').textContent()).toBe(displayText(HOSTILE_NAME, 60));
    expect(await rows.first().locator('.sym').textContent()).toBe(HOSTILE_SYMBOL);
    expect(await rows.nth(1).locator('.name').textContent()).toBe(displayText(LONG_NAME, 60));
    await hostileIsText(page);
    expect(await page.locator('meta[property="og:title"]').getAttribute('content')).toContain('Launch-provenance archive');
    await atWidths(page, 'home');
    await page.close();
    await axe(`${base}/`);
  });

  it('home → search by mint → token page → (creator page) → home via a#home', async () => {
    const page = await context!.newPage();
    await page.goto(`${base}/`);
    await page.fill('input#q', sample.mint);
    await page.click('form#search button[type=submit]');
    await page.waitForURL(`${base}/t/${sample.mint}.html`);
    expect(await page.locator('body').innerText()).toContain(sample.mint);
    // the creator page (`a#creator-page`, /w/{address}.html) comes with the token page redesign; followed when present
    const creator = page.locator('a#creator-page');
    if ((await creator.count()) > 0) {
      await creator.click();
      await page.waitForURL(/\/w\/[1-9A-HJ-NP-Za-km-z]{32,44}\.html$/);
    }
    await page.click('a#home');
    await page.waitForURL(`${base}/`);
    expect(await page.locator('section#latest').count()).toBe(1);
    await page.close();
  });

  it('search by symbol prefix lists the record; results page has no overflow and passes axe', async () => {
    const page = await context!.newPage();
    const prefix = sample.symbol.slice(0, 3);
    await page.goto(`${base}/`);
    await page.fill('input#q', prefix);
    await page.click('form#search button[type=submit]');
    await page.waitForURL(/\/search\?q=/);
    const hrefs = await page.locator('li.row a.tok').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(hrefs).toContain(`/t/${sample.mint}.html`);
    expect(await page.locator('input#q').inputValue()).toBe(prefix);
    expect(await page.locator('meta[name=robots]').getAttribute('content')).toBe('noindex');
    await atWidths(page, 'search-results');
    await page.close();
    await axe(`${base}/search?q=${encodeURIComponent(prefix)}`);
  });

  it('search for the hostile name: its row is text; the query is text in the title and OpenGraph meta', async () => {
    const page = await context!.newPage();
    const q = '<script>window.__xss=1</script>"><img src=x onerror=x> evil';
    const res = await page.goto(`${base}/search?q=${encodeURIComponent(q)}`);
    expect(res?.status()).toBe(200);
    const hrefs = await page.locator('li.row a.tok').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(hrefs).toContain(`/t/${hostileMint}.html`);
    await hostileIsText(page);
    expect(await page.title()).toContain('<script>');
    expect(await page.locator('meta[property="og:title"]').getAttribute('content')).toContain('"><img src=x');
    await atWidths(page);
    await page.close();
  });

  it('search for a mint not held: no record, unknown not clean, how to ask for a rebuild', async () => {
    const page = await context!.newPage();
    await page.goto(`${base}/`);
    await page.fill('input#q', UNHELD);
    await page.click('form#search button[type=submit]');
    await page.waitForURL(/\/search\?q=/);
    const text = await page.locator('main').innerText();
    expect(text).toContain('No record for this address');
    expect(text).toContain('unknown, not clean');
    // what a reader can do comes first; the API request is folded under "For developers" (a details element: no JavaScript needed)
    expect(text).toContain('Check the address was copied whole');
    expect(text).not.toContain(`GET /api/v1/token/${UNHELD}`);
    await page.click('details.dev summary');
    expect(await page.locator('main').innerText()).toContain(`GET /api/v1/token/${UNHELD}`);
    expect((await page.goto(`${base}/search?q=${UNHELD}`))?.status()).toBe(404);
    await atWidths(page, 'search-unheld');
    await page.close();
    await axe(`${base}/search?q=${UNHELD}`);
  });

  it('search for garbage: a clear page, never a 500', async () => {
    const page = await context!.newPage();
    await page.goto(`${base}/`);
    await page.fill('input#q', '"*(');
    await page.click('form#search button[type=submit]');
    await page.waitForURL(/\/search\?q=/);
    expect(await page.locator('h1').textContent()).toBe('Nothing to search for');
    // FTS5 syntax is not syntax here: the words are searched as words
    const near = await page.goto(`${base}/search?q=${encodeURIComponent('"*NEAR(')}`);
    expect(near?.status()).toBe(200);
    expect(await page.locator('h1').textContent()).toBe('Search: “"*NEAR(”');
    for (const [q, status, h1] of [
      ['', 200, 'Search the archive'],
      ['%00%0Apepe', 400, 'Search text not readable'],
      ['x'.repeat(201), 400, 'Search text too long'],
      ['%22%22%22%2A%28%29', 400, 'Nothing to search for'],
      ['pepe%22%20OR%20NEAR(a%2C%20b)%20*', 200, 'Search: “pepe" OR NEAR(a, b) *”'],
    ] as const) {
      const res = await page.goto(`${base}/search?q=${q}`);
      expect(res?.status(), q).toBe(status);
      expect(await page.locator('h1').textContent(), q).toBe(h1);
    }
    await page.goto(`${base}/search?q=%22*NEAR(`);
    await atWidths(page, 'search-garbage');
    await page.close();
    await axe(`${base}/search?q=%22*NEAR(`);
  });

  it('list pages: written by the collector, paged, hostile names as text', async () => {
    const page = await context!.newPage();
    const res = await page.goto(`${base}/lists/latest/1.html`);
    expect(res?.status()).toBe(200);
    expect(res?.headers()['cache-control']).toBe('max-age=5');
    expect(existsSync(join(dir, 'data/site/lists/latest/1.html'))).toBe(true);
    expect(await page.locator('li.row').count()).toBeGreaterThan(10);
    await hostileIsText(page);
    expect((await page.goto(`${base}/lists/latest/999.html`))?.status()).toBe(404);
    expect((await page.goto(`${base}/lists/nope/1.html`))?.status()).toBe(404);
    await page.goto(`${base}/lists/latest/1.html`);
    await atWidths(page, 'list-latest');
    await page.close();
  });

  it('status and methodology pages: through the shell, no overflow at 360 px, axe', async () => {
    const page = await context!.newPage();
    const res = await page.goto(`${base}/status.html`);
    expect(res?.status()).toBe(200);
    const text = await page.locator('main').innerText();
    expect(text).toContain('Coverage');
    expect(text).toMatch(/scanned: not watched at its creation; found later from the chain \(created before coverage began/); // COLLECT_START earliest: every launch predates coverage
    expect(await page.locator('footer.site a[href="/methodology.html"]').count()).toBe(1);
    await atWidths(page, 'status');
    const m = await page.goto(`${base}/methodology.html`);
    expect(m?.status()).toBe(200);
    expect(await page.locator('article.prose h1, article.prose h2').count()).toBeGreaterThan(2);
    await atWidths(page, 'methodology');
    await page.close();
    await axe(`${base}/status.html`);
    await axe(`${base}/methodology.html`);
  });

  it('no request left the origin', () => {
    expect(offOrigin).toEqual([]);
  });
});
