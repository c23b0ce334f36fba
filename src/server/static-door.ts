import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { getDeps } from './deps.ts';
import { corsHeaders, ifNoneMatch, pageHeaders } from './http.ts';
import { CACHE_LISTS, CACHE_METHODOLOGY, homePageNow, siteFileCacheOf } from './site-pages.ts';
import { CACHE_ASSET } from '../cache-rules.ts';
import { MIN_COMPRESSED_BYTES, chosenEncoding, compressedCopy, tagAsHeld } from './compress.ts';

/**
 * The site's written pages — `/` (index.html), `/lists/{list}/{n}.html`, `/methodology.html`
 * (not `/status.html`: its route renders it when the collector that wrote it is not running; `/`
 * is the written file only while the collector runs, else rendered: site-pages.ts homePageNow) — answered from memory before Astro's pipeline, as the adapter answers
 * its own static files: the home page is the most requested page of the site, and Astro's
 * per-request pipeline costs several times the answer (docs/benchmarks.md "Home page and search").
 * Same bytes and headers as the routes of site-pages.ts, which answer everything this does not:
 * a file not written yet (their rendered fallback), a query string, a method other than GET/HEAD.
 *
 * Also the assets of `public/` (write-site.ts SITE_ASSETS: the stylesheet `/site.css`, `/favicon.ico`,
 * `/robots.txt`): the collector's copy in the site folder (the file nginx's static tier sends), else
 * the build's copy (`dist/client/`). Its ETag is the sha256 of the bytes
 * like every written file's, not the adapter's `W/"<size>-<mtime>"`, which differs between two
 * builds of the same tree (two nodes, or `npm start` rebuilding before a restart) and so missed
 * every revalidation a CDN sent to another node.
 * Runs behind the front door (node-entry.ts installs it first, front-door.ts wraps it).
 */

const LIST_PAGE = /^\/lists\/(latest|graduated|findings)\/[1-9][0-9]{0,3}\.html$/;

/** A file this door answers: its path under the site folder, its Cache-Control, and whether it is an asset (`public/`) rather than a page. */
export interface StaticSiteFile {
  rel: string;
  cacheControl: string;
  /**
   * An asset of `public/` (write-site.ts SITE_ASSETS): its own Content-Type, no page headers, also
   * found in the build's client folder; `compress: false` for bytes already compressed (the icon's PNGs).
   */
  asset?: { contentType: string; compress?: false };
}

/** The assets of `public/` by request target: the same files and types as nginx's static tier (collector/cluster/nginx-config.ts). */
const ASSETS: Record<string, StaticSiteFile> = {
  '/site.css': { rel: 'site.css', cacheControl: CACHE_ASSET, asset: { contentType: 'text/css; charset=utf-8' } },
  '/favicon.ico': { rel: 'favicon.ico', cacheControl: CACHE_ASSET, asset: { contentType: 'image/x-icon', compress: false } },
  '/robots.txt': { rel: 'robots.txt', cacheControl: CACHE_ASSET, asset: { contentType: 'text/plain; charset=utf-8' } },
};

/** The file under the site folder and the Cache-Control of a raw request target, or null when the routes answer it. */
export function staticSiteFile(target: string): StaticSiteFile | null {
  if (target === '/') return { rel: 'index.html', cacheControl: CACHE_LISTS };
  if (Object.hasOwn(ASSETS, target)) return ASSETS[target]!;
  if (target === '/methodology.html') return { rel: 'methodology.html', cacheControl: CACHE_METHODOLOGY };
  if (target === '/api.html') return { rel: 'api.html', cacheControl: CACHE_METHODOLOGY };
  if (LIST_PAGE.test(target)) return { rel: target.slice(1), cacheControl: CACHE_LISTS };
  return null;
}

const HEADERS = { ...pageHeaders(), ...corsHeaders() };

/** Answer `req` from a written page, or return false to pass it on. `clientDir`: the build's static files (`dist/client/`). */
function answer(req: IncomingMessage, res: ServerResponse, clientDir: string | undefined): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  // a query (a stylesheet's cache-busting ?v=, a shared link's ?utm_…) names the same file
  const url = req.url ?? '';
  const q = url.indexOf('?');
  const file = staticSiteFile(q === -1 ? url : url.slice(0, q));
  if (!file || req.headers['content-length'] || req.headers['transfer-encoding']) return false;
  let deps;
  try {
    deps = getDeps();
  } catch {
    return false; // the routes answer 500 internal, logged
  }
  // a node serving public-database generations answers the home page from the generation it serves (the route, through
  // withGeneration), not from its own database, which holds no launch (a cluster review: "0 launch records")
  if (file.rel === 'index.html' && deps.generations) return false;
  const cache = siteFileCacheOf(deps);
  const nowMs = deps.now();
  // the home page: the written file only while the collector runs and keeps it current, else rendered (site-pages.ts homePageNow)
  const hit = file.rel === 'index.html' ? homePageNow(deps) : (cache.get(join(deps.config.siteDir, file.rel), nowMs) ?? (file.asset && clientDir ? cache.get(join(clientDir, file.rel), nowMs) : null));
  if (!hit) return false;
  // a client that asks gets the file's compressed copy, made once per version (compress.ts), its ETag weak
  const encoding = hit.body.length >= MIN_COMPRESSED_BYTES && file.asset?.compress !== false ? chosenEncoding(req) : null;
  const etag = encoding ? `W/${hit.etag}` : hit.etag;
  const body = encoding ? compressedCopy(hit.body, encoding) : hit.body;
  const negotiated = { Vary: 'Accept-Encoding', ...(encoding ? { 'Content-Encoding': encoding } : {}) };
  // an asset gets what the adapter sent for it (Content-Type, Cache-Control), and what nginx sends: no page or CORS headers
  const headers = file.asset ? { 'Content-Type': file.asset.contentType, ETag: etag, 'Cache-Control': file.cacheControl } : { ...HEADERS, ETag: etag, 'Cache-Control': file.cacheControl };
  const inm = req.headers['if-none-match'];
  if (inm && ifNoneMatch(new Request('http://x/', { headers: { 'If-None-Match': inm } }), hit.etag)) {
    res.writeHead(304, { ETag: tagAsHeld(hit.etag, inm), 'Cache-Control': file.cacheControl, Vary: 'Accept-Encoding', ...(file.asset ? {} : corsHeaders()) });
    res.end();
    return true;
  }
  res.writeHead(200, { ...headers, ...negotiated, 'Content-Length': String(body.length) });
  res.end(req.method === 'HEAD' ? undefined : body);
  return true;
}

/**
 * Put the written-pages answer in front of the server's request listeners (call before hardenServer).
 * `clientDir`: the build's static files (`dist/client/`), where `/site.css` is found before the
 * collector copies it into the site folder.
 */
export function serveSitePagesFirst(server: Server, clientDir?: string): void {
  const listeners = server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (answer(req, res, clientDir)) return;
    for (const l of listeners) l.call(server, req, res);
  });
}
