import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { LIST_NAMES, type ListName } from '../db/lists.ts';
import { renderHomePage, renderListPage } from '../render/home-page.ts';
import { renderApiDocPage, renderMethodologyPage } from '../render/methodology-page.ts';
import { renderStatusPage } from '../render/status-page.ts';
import type { Deps } from './deps.ts';
import { corsHeaders, etagOf, htmlPage, ifNoneMatch, notModified, pageHeaders } from './http.ts';
import { homeFacts, listPageFacts } from '../facts/site-facts.ts';
import { rebuildCountsOf, statusBody } from './status.ts';
import { collectorStateOf } from '../facts/coverage.ts';

/**
 * The site's pages written by the collector (collector/publish/lists.ts) under `config.siteDir`:
 * `index.html` (served at `/`), `lists/{list}/{n}.html`, `status.html`, `methodology.html`. Each
 * is served from memory (re-read when the file's mtime or size changes; checked at most every
 * {@link RECHECK_MS}) with a short max-age for a CDN; before the collector's first write the same
 * page is rendered from the database (the methodology from the Markdown bundled at build).
 */

export { CACHE_LISTS, CACHE_METHODOLOGY } from '../cache-rules.ts';
import { CACHE_LISTS, CACHE_METHODOLOGY } from '../cache-rules.ts';
/** How often at most (ms) a served file's mtime is checked. */
export const RECHECK_MS = 500;

interface Cached {
  body: Buffer;
  etag: string;
  mtimeMs: number;
  size: number;
}

/** In-memory copies of site files by path. */
export class SiteFileCache {
  private readonly files = new Map<string, Cached | null>();
  private readonly checked = new Map<string, number>();

  /** The file's bytes and ETag, or null when it does not exist. */
  get(path: string, nowMs: number): { body: Buffer; etag: string } | null {
    const hit = this.files.get(path);
    if (hit !== undefined && nowMs - (this.checked.get(path) ?? 0) < RECHECK_MS) return hit;
    this.checked.set(path, nowMs);
    let st;
    try {
      st = statSync(path);
    } catch {
      this.files.set(path, null);
      return null;
    }
    if (hit && hit.mtimeMs === st.mtimeMs && hit.size === st.size) return hit;
    let body: Buffer;
    try {
      body = readFileSync(path);
    } catch {
      this.files.set(path, null);
      return null;
    }
    const c = { body, etag: etagOf(createHash('sha256').update(body).digest('hex')), mtimeMs: st.mtimeMs, size: st.size };
    if (this.files.size > 1_000) this.files.clear();
    this.files.set(path, c);
    return c;
  }
}

const caches = new WeakMap<Deps['config'], SiteFileCache>();
/**
 * The site-file cache of a server process, shared by the routes and static-door.ts: one per process,
 * keyed by its config (parsed once per process), so also one for the deps copy that a node serving
 * generations makes for each request (generation-lease.ts).
 */
export function siteFileCacheOf(deps: Pick<Deps, 'config'>): SiteFileCache {
  let c = caches.get(deps.config);
  if (!c) caches.set(deps.config, (c = new SiteFileCache()));
  return c;
}

function serveBytes(request: Request, body: Buffer | string, etag: string, cacheControl: string): Response {
  if (ifNoneMatch(request, etag)) return notModified(etag, cacheControl);
  return new Response(body as string | Uint8Array<ArrayBuffer>, {
    status: 200,
    headers: { ...pageHeaders(), ETag: etag, 'Cache-Control': cacheControl, ...corsHeaders() },
  });
}

/** Serve `rel` from the site folder, or `render()` when it is not written yet. */
function serveSiteFile(request: Request, deps: Deps, rel: string, cacheControl: string, render: () => string): Response {
  const file = siteFileCacheOf(deps).get(join(deps.config.siteDir, rel), deps.now());
  if (file) return serveBytes(request, file.body, file.etag, cacheControl);
  const page = render();
  return serveBytes(request, page, etagOf(createHash('sha256').update(page).digest('hex')), cacheControl);
}

const siteOptions = (deps: Deps) => ({ baseUrl: deps.config.baseUrl, demo: deps.config.DEMO, contactEmail: deps.config.CONTACT_EMAIL });

/** How long the server keeps what it read of the collector's state, and a home page it rendered (ms). */
const COLLECTOR_READ_MS = 1000;

/** A value made by `make` at most once a {@link COLLECTOR_READ_MS} per server (per config), kept in `kept`. */
function madeEverySecond<T>(kept: WeakMap<Deps['config'], { atMs: number; value: T }>, deps: Deps, nowMs: number, make: () => T): T {
  let k = kept.get(deps.config);
  if (!k || nowMs - k.atMs >= COLLECTOR_READ_MS || nowMs < k.atMs) kept.set(deps.config, (k = { atMs: nowMs, value: make() }));
  return k.value;
}
const collectorReads = new WeakMap<Deps['config'], { atMs: number; value: boolean }>();
const renderedHomes = new WeakMap<Deps['config'], { atMs: number; value: { body: Buffer; etag: string } }>();

/**
 * The home page to send now: the collector's written file while the collector runs (`live` or
 * `catching_up`: it keeps the file current then; its state read at most once a second, the home
 * page being the site's most requested); otherwise — a cron run ended, it stopped or failed, and
 * the file still says what it said last ("Collector live") — the page rendered here from the
 * database, as before any collector wrote one, at most once a {@link COLLECTOR_READ_MS}, so the home
 * page, /status.html and /api/v1/status agree. Used by the route and by the static door (static-door.ts).
 */
export function homePageNow(deps: Deps): { body: Buffer; etag: string } {
  const nowMs = deps.now();
  const running = madeEverySecond(collectorReads, deps, nowMs, () => collectorStateOf(deps.publicStore, nowMs, deps.config.COVERAGE_GAP_MS).running);
  if (running) {
    const file = siteFileCacheOf(deps).get(join(deps.config.siteDir, 'index.html'), nowMs);
    if (file) return file;
  }
  return madeEverySecond(renderedHomes, deps, nowMs, () => {
    const body = Buffer.from(renderHomePage(homeFacts(deps.publicStore, deps.config, nowMs), siteOptions(deps)));
    return { body, etag: etagOf(createHash('sha256').update(body).digest('hex')) };
  });
}

/** `GET /`: the home page ({@link homePageNow}). */
export function handleHome(request: Request, deps: Deps): Response {
  const home = homePageNow(deps);
  return serveBytes(request, home.body, home.etag, CACHE_LISTS);
}

/** `GET /lists/{list}/{n}.html`: a list page; 404 for an unknown list or a page past the last. */
export function handleListPage(request: Request, deps: Deps, params: { list?: string; file?: string }): Response {
  const list = params.list as ListName;
  const m = /^([1-9][0-9]{0,3})\.html$/.exec(params.file ?? '');
  if (!LIST_NAMES.includes(list) || !m) return htmlPage(404, 'No such list page', 'The lists are /lists/latest/1.html, /lists/graduated/1.html and /lists/findings/1.html.');
  const page = Number(m[1]);
  const file = siteFileCacheOf(deps).get(join(deps.config.siteDir, 'lists', list, `${page}.html`), deps.now());
  if (file) return serveBytes(request, file.body, file.etag, CACHE_LISTS);
  const facts = listPageFacts(deps.publicStore, list, page, deps.now());
  if (!facts) return htmlPage(404, 'No such list page', `The list has fewer pages. Its first page is /lists/${list}/1.html.`);
  const body = renderListPage(facts, siteOptions(deps));
  return serveBytes(request, body, etagOf(createHash('sha256').update(body).digest('hex')), CACHE_LISTS);
}

/** `GET /status.html`: the status in words. */
export async function handleStatusPage(request: Request, deps: Deps): Promise<Response> {
  const rebuildCounts = await rebuildCountsOf(deps);
  const facts = statusBody({ ...deps, rebuildCounts }, deps.now());
  // The collector writes status.html while it runs, and keeps it current then. Once it is not
  // running (a cron run ended, it stopped or failed) that file still says what it said last
  // ("running and live"): the page is rendered here from the facts of /api/v1/status instead, as it
  // is before any collector wrote one, so the page and the JSON never disagree.
  if (facts.collector.running) {
    const file = siteFileCacheOf(deps).get(join(deps.config.siteDir, 'status.html'), deps.now());
    if (file) return serveBytes(request, file.body, file.etag, CACHE_LISTS);
  }
  const page = renderStatusPage(facts, deps.now(), siteOptions(deps));
  return serveBytes(request, page, etagOf(createHash('sha256').update(page).digest('hex')), CACHE_LISTS);
}

/** `GET /methodology.html`: docs/methodology.md as a page; `markdown` is the text bundled at build. */
export function handleMethodologyPage(request: Request, deps: Deps, markdown: string): Response {
  return serveSiteFile(request, deps, 'methodology.html', CACHE_METHODOLOGY, () => renderMethodologyPage(markdown, siteOptions(deps)));
}

/** `GET /api.html`: docs/api.md as a page (the API reference for people); `markdown` is the text bundled at build. */
export function handleApiDocPage(request: Request, deps: Deps, markdown: string): Response {
  return serveSiteFile(request, deps, 'api.html', CACHE_METHODOLOGY, () => renderApiDocPage(markdown, siteOptions(deps)));
}

