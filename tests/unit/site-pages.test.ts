import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type Config } from '../../src/config.ts';
import { PublicStore } from '../../src/db/public-store.ts';
import { createLogger } from '../../src/log.ts';
import type { Deps } from '../../src/server/deps.ts';
import { handleApiDocPage, handleHome, handleListPage, handleMethodologyPage, handleStatusPage } from '../../src/server/site-pages.ts';
import { staticSiteFile } from '../../src/server/static-door.ts';
import { listWindow } from '../../src/render/home-page.ts';
import { publishLists } from '../../collector/publish/lists.ts';
import { launchDoc, putDoc, randomAddress } from '../helpers/launch-doc.ts';

/** Issue 23: the home, list, status and methodology pages — written by the collector, served by the server, rendered before the first write. */

const NOW = Date.parse('2026-11-25T12:00:00Z');
let dir: string;
let config: Config;
let store: PublicStore;
let deps: Deps;
const silent = createLogger('silent');

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lpa-site-pages-'));
  config = loadConfig({ DATA_DIR: dir, LISTS_INTERVAL_MS: '5000' });
  store = new PublicStore(config.publicDbPath);
  for (let i = 0; i < 120; i++) {
    const cls = i % 3 === 0 ? 'FINDINGS' : 'NO_MARKERS';
    const graduatedAt = i % 10 === 0 ? { ms: NOW - i * 60_000 + 1_000, iso: new Date(NOW - i * 60_000 + 1_000).toISOString() } : null;
    const base = launchDoc(randomAddress(), NOW - i * 60_000, { name: `Token ${i}`, symbol: `T${i}`, finding: { class: cls, label: cls, why: `why ${i}` } });
    putDoc(store, { ...base, launch: { ...base.launch!, graduated: graduatedAt !== null, graduatedAt } }, NOW);
  }
  deps = { config, publicStore: store, now: () => NOW } as unknown as Deps;
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const get = (path: string, headers: Record<string, string> = {}) => new Request(`http://x${path}`, { headers });

describe('the status page during an outage', () => {
  it('says the collector is not watching now, not "no gap", while the outage is not yet a listed gap', async () => {
    store.setMeta('coverage_from_ms', String(NOW - 86_400_000));
    const run = store.startRun(NOW - 86_400_000, 100);
    store.heartbeat(run, NOW - 3_600_000, 200); // the last beat an hour ago: stopped
    const page = await (await handleStatusPage(get('/status.html'), deps)).text();
    const since = new Date(NOW - 3_600_000).toISOString().slice(0, 16).replace('T', ' ');
    expect(page).toContain(`The collector is not running now (last heartbeat ${since} UTC): launches created since are not being watched.`);
    expect(page).toContain('No earlier gap: the collector has not been down for longer than the allowed pause since coverage began, before this.');
    // running again (a fresh beat): no such line
    store.heartbeat(run, NOW, 300);
    const live = await (await handleStatusPage(get('/status.html'), deps)).text();
    expect(live).not.toContain('is not running now');
    expect(live).toContain('No gap: the collector has not been down');
    expect(live).not.toContain('demo-dates'); // the demo's note on replayed dates: only in the demo (tests/integration/demo.test.ts)
  });

  it('the page the collector wrote while running is served while it runs, not after it stopped (a cron run that ended)', async () => {
    store.setMeta('coverage_from_ms', String(NOW - 86_400_000));
    const run = store.startRun(NOW - 86_400_000, 100);
    mkdirSync(config.siteDir, { recursive: true });
    writeFileSync(join(config.siteDir, 'status.html'), '<!doctype html><p>The collector is running and live (written by it)</p>');
    store.heartbeat(run, NOW - 10_000, 200); // running
    expect(await (await handleStatusPage(get('/status.html'), deps)).text()).toContain('written by it');
    store.heartbeat(run, NOW - 3_600_000, 300); // its last beat an hour ago: the file is what it said then
    const stopped = await (await handleStatusPage(get('/status.html'), deps)).text();
    expect(stopped).not.toContain('written by it');
    expect(stopped).toContain('The collector is not running now');
  });
});

describe('the home page after the collector stopped', () => {
  it('is the written file while the collector runs; between cron runs and after a stop it is rendered and says so, never "Collector live"', async () => {
    let clock = NOW;
    const d = { ...deps, now: () => clock } as Deps;
    const text = async () => (await handleHome(get('/'), d).text());
    store.setMeta('coverage_from_ms', String(NOW - 86_400_000));
    const run = store.startRun(NOW - 86_400_000, 100);
    store.heartbeat(run, NOW - 10_000, 200);
    expect(publishLists(store, config, silent, NOW)).toBeGreaterThan(0);
    const written = readFileSync(join(config.siteDir, 'index.html'), 'utf8');
    expect(written).toContain('Collector live');
    expect(await text()).toBe(written);
    // a cron run that ended 30 s ago (COVERAGE_GAP_MS 2 min): between runs, not live and not stopped
    store.stopRun(run, NOW - 30_000);
    clock += 1_000; // past the 1-s read of the collector's state
    const between = await text();
    expect(between).not.toContain('Collector live');
    expect(between).toContain(`Collector between runs: its last run ended at ${new Date(NOW - 30_000).toISOString().slice(0, 16).replace('T', ' ')} UTC`);
    expect((await (await handleStatusPage(get('/status.html'), d)).text())).toContain('The collector is between runs');
    // longer than the allowed pause: stopped
    clock += 120_000;
    const stopped = await text();
    expect(stopped).toContain('Collector stopped: new launches are not being recorded now.');
    expect(stopped).not.toContain('Collector live');
    // the static door sends the same page (it answers / before the route)
    expect(staticSiteFile('/')?.rel).toBe('index.html');
  });
});

describe('site pages', () => {
  it('render from the database before the first write, then serve the written file with its ETag', async () => {
    // a collector running (it writes the file and keeps it current)
    store.heartbeat(store.startRun(NOW - 60_000, 100), NOW, 200);
    const before = handleHome(get('/'), deps);
    expect(before.status).toBe(200);
    expect(before.headers.get('Cache-Control')).toBe('max-age=5');
    const rendered = await before.text();
    expect(rendered).toContain('Token 0');
    expect(rendered).toContain('120 launch records');
    expect(publishLists(store, config, silent, NOW)).toBeGreaterThan(0);
    const file = readFileSync(join(config.siteDir, 'index.html'), 'utf8');
    const served = handleHome(get('/'), deps);
    expect(await served.text()).toBe(file);
    expect(handleHome(get('/', { 'If-None-Match': served.headers.get('ETag')! }), deps).status).toBe(304);
    expect(existsSync(join(config.siteDir, 'status.html'))).toBe(true);
    expect(existsSync(join(config.siteDir, 'methodology.html'))).toBe(true);
    expect(existsSync(join(config.siteDir, 'api.html'))).toBe(true);
  });

  it('the home page says why the latest list holds fewer launches than the archive holds records', async () => {
    expect(await handleHome(get('/'), deps).text()).not.toContain('held without');
    putDoc(store, { ...launchDoc(randomAddress(), NOW), origin: 'scanned', observedAtLaunch: false, launch: null, finding: { class: 'UNKNOWN', label: 'Not established', why: 'No creation.' }, cleanAtBirth: null }, NOW);
    // the server renders the home page at most once a second (no collector runs here)
    const home = await handleHome(get('/'), { ...deps, now: () => NOW + 1_000 } as Deps).text();
    expect(home).toContain('121 launch records');
    expect(home).toContain('1 record held without its creation transaction is not in this list');
  });

  it('lists: 50 rows a page, newest first; pages past the last are 404 and removed when the list shrinks', async () => {
    publishLists(store, config, silent, NOW);
    for (const p of [1, 2, 3]) expect(existsSync(join(config.siteDir, `lists/latest/${p}.html`))).toBe(true);
    expect(existsSync(join(config.siteDir, 'lists/latest/4.html'))).toBe(false);
    const page2 = await handleListPage(get('/lists/latest/2.html'), deps, { list: 'latest', file: '2.html' }).text();
    expect(page2).toContain('Token 50<');
    expect(page2).toContain('rel="prev" href="/lists/latest/1.html"');
    expect(handleListPage(get('/'), deps, { list: 'latest', file: '9.html' }).status).toBe(404);
    expect(handleListPage(get('/'), deps, { list: 'bogus', file: '1.html' }).status).toBe(404);
    expect(handleListPage(get('/'), deps, { list: 'latest', file: '01.html' }).status).toBe(404);
    // graduated: 12 in the last 24 h; FINDINGS: 40
    expect(await handleListPage(get('/'), deps, { list: 'graduated', file: '1.html' }).text()).toContain('Rows 1–12 of 12');
    expect(await handleListPage(get('/'), deps, { list: 'findings', file: '1.html' }).text()).toContain('Rows 1–40 of 40');
    // not due again within LISTS_INTERVAL_MS; a day later FINDINGS of the last 24 h are gone, and so are their extra pages
    expect(publishLists(store, config, silent, NOW + 1000)).toBeNull();
    mkdirSync(join(config.siteDir, 'lists/findings'), { recursive: true });
    writeFileSync(join(config.siteDir, 'lists/findings/2.html'), 'stale');
    publishLists(store, config, silent, NOW + 6000);
    expect(existsSync(join(config.siteDir, 'lists/findings/2.html'))).toBe(false);
  });

  it('the 24-hour window ends now, or at the newest launch when that is older than a day', () => {
    expect(listWindow(NOW, NOW - 1000)).toMatchObject({ anchorMs: NOW, historical: false });
    expect(listWindow(NOW, NOW - 3 * 86_400_000)).toMatchObject({ anchorMs: NOW - 3 * 86_400_000, fromMs: NOW - 4 * 86_400_000, historical: true });
  });

  it('status and methodology pages', async () => {
    const status = await (await handleStatusPage(get('/status.html'), deps)).text();
    expect(status).toContain('<h1>Status</h1>');
    expect(status).toContain('not running');
    // never run: no coverage, so no "no gap" either
    expect(status).toContain('None yet: the collector has not read the chain, so coverage has not begun.');
    expect(status).not.toContain('No gap');
    const m = handleMethodologyPage(get('/methodology.html'), deps, '# Method\n\n<script>alert(1)</script>\n\n[x](javascript:alert(1)) [y](https://example.org/)');
    expect(m.headers.get('Cache-Control')).toBe('max-age=300');
    const html = await m.text();
    expect(html).toContain('<h1 id="method">Method</h1>');
    // the API reference the same way (docs/api.md as /api.html)
    const api = handleApiDocPage(get('/api.html'), deps, '# API\n\n## Rebuilds\n\nSee [the methodology](docs/methodology.md).');
    expect(api.headers.get('Cache-Control')).toBe('max-age=300');
    const apiHtml = await api.text();
    expect(apiHtml).toContain('<h2 id="rebuilds">Rebuilds</h2>');
    expect(apiHtml).toContain('href="/methodology.html"');
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;');
    expect(html).not.toContain('javascript:');
    expect(html).toContain('href="https://example.org/"');
  });

  it('the written pages the server answers before Astro', () => {
    expect(staticSiteFile('/')).toEqual({ rel: 'index.html', cacheControl: 'max-age=5' });
    expect(staticSiteFile('/lists/latest/3.html')?.rel).toBe('lists/latest/3.html');
    expect(staticSiteFile('/methodology.html')?.cacheControl).toBe('max-age=300');
    expect(staticSiteFile('/site.css')).toEqual({ rel: 'site.css', cacheControl: 'public, max-age=0', asset: { contentType: 'text/css; charset=utf-8' } });
    expect(staticSiteFile('/favicon.ico')).toEqual({ rel: 'favicon.ico', cacheControl: 'public, max-age=0', asset: { contentType: 'image/x-icon', compress: false } });
    expect(staticSiteFile('/robots.txt')).toEqual({ rel: 'robots.txt', cacheControl: 'public, max-age=0', asset: { contentType: 'text/plain; charset=utf-8' } });
    for (const t of ['/?q=1', '/lists/latest/0.html', '/lists/../x/1.html', '/lists/latest/1.html?x', '/status.html', '/status.html/', '/search', '/site.css?v=1', '/favicon.ico/', '/robots.txt?x', '/constructor', '/toString']) expect(staticSiteFile(t)).toBeNull();
  });
});
