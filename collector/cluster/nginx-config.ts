/**
 * The static tier (issue 26 item 3; docs/scaling.md): an nginx configuration that answers the
 * collector's written files from disk with the same Cache-Control, Content-Type and page headers
 * as the Node server, and passes everything else to N API nodes.
 *
 * From disk (`siteDir`, the collector's `DATA_DIR/site` or a copy of it):
 * - `/lists/{list}/{n}.html`: `max-age=5` (`/` and `/status.html`, `max-age=5` too, are passed to a node); `/methodology.html`, `/api.html`: `max-age=300`;
 * - `/t/{mint}.html`, `/t/{mint}.early.html` and `/d/{mint}` (`d/{mint}.json`): the settled rule — `max-age=3600,
 *   stale-while-revalidate=86400` while the marker `settled/{mint}` exists (src/ingest/publish.ts
 *   writes it), else `no-store`;
 * - `/w/{address}.html`: `no-store`; `/site.css`, `/favicon.ico`, `/robots.txt` (public/'s assets): `public, max-age=0`.
 * A file not there (not written yet, or a mint not held) goes to the API nodes, which render the
 * same page from the database or answer the 404 page, exactly as without nginx.
 *
 * ETags differ in form: nginx's are `"<mtime hex>-<size hex>"`, the server's the sha256 of the
 * bytes. Each answers If-None-Match with 304 for its own tag; a CDN keeps the tag of the tier it
 * fetched from, so the two forms never meet in one conditional request.
 *
 * To the API nodes (upstream `lpa_api`): `/api/`, `/search`, `/pricing`, `/billing/`, `/data/`
 * (keyed and counted downloads: the key check and the quota run on a node, which streams the file
 * named by the downloads manifest; nothing is buffered to nginx's disk), redirects of bare `/t/{mint}`, and any other
 * path. A GET or HEAD that fails on one node (connection refused or reset, timeout, 502, 503) is
 * sent to the next; a POST never is (nginx retries non-idempotent methods only with
 * `non_idempotent`, not set here). Error bodies pass through (`proxy_intercept_errors off`).
 */
import { isAbsolute, resolve } from 'node:path';
import { CACHE_ASSET, CACHE_LISTS, CACHE_METHODOLOGY, CACHE_NONE, CACHE_SETTLED, CORS_EXPOSED } from '../../src/cache-rules.ts';
import { PAGE_CSP } from '../../src/render/shell.ts';
import { writeFileAtomic } from '../../src/ingest/write-site.ts';

export interface NginxOptions {
  /** The folder of the written site (`DATA_DIR/site`). */
  siteDir: string;
  /** The API nodes, `host:port` each (at least one). */
  nodes: string[];
  /** Where nginx listens: `port` or `host:port` (`[v6]:port`). */
  listen: string;
  /** A folder nginx may write: its pid file, error log and temporary files (created by the caller). */
  runDir: string;
  /** Worker processes (default `auto`: one per core). */
  workers?: number | 'auto';
  /** Write an access log to `runDir/access.log` (default off: a CDN or the nodes log requests). */
  accessLog?: boolean;
}

const HOST_PORT = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\]):([0-9]{1,5})$/;
const MINT_RE = '[1-9A-HJ-NP-Za-km-z]{32,44}';
/** Characters that would end or open an nginx directive or block, or start a variable. */
const UNSAFE_PATH = /[\s;{}"'$#\\]/;

function checkPort(what: string, port: string): void {
  const n = Number(port);
  if (!Number.isInteger(n) || n < 1 || n > 65535) throw new Error(`${what}: port must be 1–65535`);
}

function checkPath(what: string, path: string): string {
  if (!isAbsolute(resolve(path)) || UNSAFE_PATH.test(path)) throw new Error(`${what} "${path}" cannot go into an nginx configuration (no spaces, quotes, ; { } $ # or backslashes)`);
  return resolve(path);
}

/** Parse and check the options. Errors: throws naming the bad option. */
function checked(o: NginxOptions): Required<NginxOptions> {
  if (o.nodes.length === 0) throw new Error('nodes: at least one API node (host:port) is needed');
  for (const n of o.nodes) {
    const m = HOST_PORT.exec(n);
    if (!m) throw new Error(`nodes: "${n}" is not host:port`);
    checkPort(`nodes "${n}"`, m[1]!);
  }
  const listen = /^[0-9]+$/.test(o.listen) ? o.listen : HOST_PORT.exec(o.listen)?.[1];
  if (listen === undefined) throw new Error(`listen: "${o.listen}" is not a port or host:port`);
  checkPort(`listen "${o.listen}"`, listen);
  const workers = o.workers ?? 'auto';
  if (workers !== 'auto' && (!Number.isInteger(workers) || workers < 1)) throw new Error('workers: a whole number ≥ 1 or auto');
  return { siteDir: checkPath('siteDir', o.siteDir), runDir: checkPath('runDir', o.runDir), nodes: o.nodes, listen: o.listen, workers, accessLog: o.accessLog ?? false };
}

const q = (v: string) => `"${v}"`;
const CORS = [`add_header Access-Control-Allow-Origin "*";`, `add_header Access-Control-Expose-Headers ${q(CORS_EXPOSED.join(', '))};`];
/** The server's pageHeaders() (src/server/http.ts) and CORS, with a Cache-Control. */
const pageHeaders = (cacheControl: string) => [
  `add_header Cache-Control ${q(cacheControl)};`,
  `add_header Content-Security-Policy ${q(PAGE_CSP)};`,
  'add_header X-Content-Type-Options nosniff;',
  'add_header Referrer-Policy no-referrer;',
  ...CORS,
];
/** A JSON document's headers (src/server/site.ts serve()). */
const jsonHeaders = (cacheControl: string) => [`add_header Cache-Control ${q(cacheControl)};`, 'add_header X-Content-Type-Options nosniff;', ...CORS];

const block = (head: string, lines: string[], indent = '    ') => `${indent}${head} {\n${lines.map((l) => `${indent}    ${l}`).join('\n')}\n${indent}}`;

/**
 * The whole nginx configuration (main context: `nginx -c <file>`), as text.
 * Errors: throws naming the bad option (no node, a node or listen that is not host:port, a path nginx cannot take).
 * @example nginxConfig({ siteDir: '/srv/lpa/data/site', nodes: ['10.0.0.2:4321', '10.0.0.3:4321'], listen: '80', runDir: '/var/lib/lpa-nginx' })
 */
export function nginxConfig(options: NginxOptions): string {
  const o = checked(options);
  const run = o.runDir;
  const fromDisk = (extra: string[]) => [...extra, 'try_files $uri @api;'];
  const locations = [
    block('location @api', ['proxy_pass http://lpa_api;']),
    block('location /', ['proxy_pass http://lpa_api;']),
    block('location ^~ /data/', ['proxy_pass http://lpa_api;', 'proxy_buffering off; # large keyed downloads: streamed, never spooled to disk']),
    // the node decides (src/server/site-pages.ts): the collector's file while it runs, else the page of the facts now (a file
    // left by a collector that stopped said "running and live", "Collector live", from disk for as long as it stayed stopped);
    // the node answers both from memory before its Astro pipeline (static-door.ts)
    block('location = /', ['proxy_pass http://lpa_api;']),
    block('location = /status.html', ['proxy_pass http://lpa_api;']),
    block('location = /methodology.html', fromDisk(pageHeaders(CACHE_METHODOLOGY))),
    block('location = /api.html', fromDisk(pageHeaders(CACHE_METHODOLOGY))),
    block('location ~ "^/lists/(latest|graduated|findings)/[1-9][0-9]{0,3}\\.html$"', fromDisk(pageHeaders(CACHE_LISTS))),
    block('location = /site.css', [`add_header Cache-Control ${q(CACHE_ASSET)};`, 'try_files /site.css @api;']),
    block('location = /favicon.ico', [`add_header Cache-Control ${q(CACHE_ASSET)};`, 'try_files /favicon.ico @api;']),
    block('location = /robots.txt', [`add_header Cache-Control ${q(CACHE_ASSET)};`, 'try_files /robots.txt @api;']),
    block(`location ~ "^/w/${MINT_RE}\\.html$"`, fromDisk(pageHeaders(CACHE_NONE))),
    // a settled record's page and document: rewritten to the internal locations below, which send the settled rule
    // the token page and its first-30-seconds page (`{mint}.early.html`), under the mint's settled marker
    block(`location ~ "^/t/(?<mint>${MINT_RE})(?<page>\\.early)?\\.html$"`, ['if (-f $document_root/settled/$mint) { rewrite ^ /_settled/t/$mint$page.html last; }', ...fromDisk(pageHeaders(CACHE_NONE))]),
    block(`location ~ "^/d/(?<mint>${MINT_RE})$"`, ['if (-f $document_root/settled/$mint) { rewrite ^ /_settled/d/$mint.json last; }', ...jsonHeaders(CACHE_NONE), 'try_files /d/$mint.json @api;']),
    block('location ^~ /_settled/t/', ['internal;', `alias ${o.siteDir}/t/;`, ...pageHeaders(CACHE_SETTLED), 'error_page 404 = @api;']),
    block('location ^~ /_settled/d/', ['internal;', `alias ${o.siteDir}/d/;`, ...jsonHeaders(CACHE_SETTLED), 'error_page 404 = @api;']),
  ];
  return `# written by lpa cluster-config (collector/cluster/nginx-config.ts): the static tier of docs/scaling.md
worker_processes ${o.workers};
error_log ${run}/error.log warn;
pid ${run}/nginx.pid;

events {
    worker_connections 4096;
}

http {
    types {
        text/html html;
        text/css css;
        application/json json;
        text/plain txt;
        image/x-icon ico;
    }
    default_type application/octet-stream;
    charset utf-8;
    charset_types text/css application/json text/plain; # text/html is always included
    server_tokens off;
    sendfile on;
    tcp_nopush on;
    keepalive_timeout 65s;
    keepalive_requests 100000;
    access_log ${o.accessLog ? `${run}/access.log` : 'off'};
    client_body_temp_path ${run}/client_body;
    proxy_temp_path ${run}/proxy;
    fastcgi_temp_path ${run}/fastcgi;
    uwsgi_temp_path ${run}/uwsgi;
    scgi_temp_path ${run}/scgi;
    client_max_body_size 64k; # the server's largest route limit (/billing/webhook)
    # the pages and the stylesheet sent from disk, compressed for a client that asks, as the API nodes
    # compress theirs (src/server/compress.ts: they answer what is proxied, so it is passed on as it is;
    # a document, /d/{mint}, keeps its bytes and ETag); nginx makes a compressed answer's ETag weak
    gzip on;
    gzip_comp_level 5;
    gzip_min_length 1024;
    gzip_types text/css; # text/html is always included
    gzip_vary on;
    open_file_cache max=20000 inactive=30s;
    open_file_cache_valid 1s;
    open_file_cache_errors on; # a file's absence is kept too (a page's settled marker is looked up on every request): a page or marker the collector writes is seen within open_file_cache_valid; until then the API answers, or the page goes out no-store

    upstream lpa_api {
${o.nodes.map((n) => `        server ${n} max_fails=1 fail_timeout=5s;`).join('\n')}
        keepalive 64;
    }

    server {
        listen ${o.listen};
        root ${o.siteDir};

        proxy_http_version 1.1;
        proxy_set_header Connection "";
        proxy_set_header Host $http_host;
        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
        proxy_set_header X-Forwarded-Proto $scheme;
        # a GET or HEAD whose node cannot be reached (refused, reset, timed out) is answered by the next; POST is never retried (no
        # non_idempotent). A node's own answers, 503 included, reach the client as they are: a 503 is the node's word (PostgreSQL
        # down, no generation yet, rebuild budget spent: JSON with Retry-After), and retried on another node it would be counted
        # twice and mark the nodes failed (max_fails), turning every proxied route into nginx's own 502 for fail_timeout
        proxy_next_upstream error timeout;
        proxy_next_upstream_tries ${o.nodes.length};
        proxy_next_upstream_timeout 15s;
        proxy_connect_timeout 2s;
        proxy_read_timeout 120s;
        # the nodes' error bodies (JSON with finding.class UNKNOWN, HTML pages) reach the client as they are
        proxy_intercept_errors off;

${locations.map((l) => l.replace(/^/gm, '    ')).join('\n')}
    }
}
`;
}

/** Write {@link nginxConfig} to `path` atomically. Returns the text written. */
export function writeNginxConfig(path: string, options: NginxOptions): string {
  const text = nginxConfig(options);
  writeFileAtomic(path, text);
  return text;
}
