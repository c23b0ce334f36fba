import type { IncomingMessage, OutgoingHttpHeader, Server, ServerResponse } from 'node:http';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import compression from 'compression';
import Negotiator from 'negotiator';
import onHeaders from 'on-headers';

/**
 * Compressed answers for clients that ask (`Accept-Encoding`), through the `compression` library
 * (expressjs: negotiation with q-values, brotli at quality 4 or gzip, `Vary: Accept-Encoding`,
 * `Cache-Control: no-transform` respected, HEAD and 304 left alone). Without a CDN in front
 * (`npm start` alone) a phone would otherwise load every page uncompressed: a token page is ~27 KB
 * of HTML and SVG, ~7 KB gzip; a list page of 50 records ~105 KB of JSON, ~15 KB.
 *
 * What is compressed ({@link compressible}): the site's pages and stylesheet (`text/html`,
 * `text/css`) and JSON answers of at least {@link LARGE_JSON_BYTES} without an `ETag` (list and
 * sync pages, batches). A record or a document (an `ETag`: the sha256 of the bytes sent) is not,
 * whatever its size: its `ETag` stays the strong one the spec gives, and at ~3.5 KB the work would
 * cost more than the bytes it saves. The
 * creation feed (`text/event-stream`) and the downloads (already gzip, or SQLite) never are.
 * A compressed answer's strong `ETag` is made weak (`W/"…"`, as nginx's gzip does, RFC 9110
 * §8.8.1: the bytes differ from the identity answer's); If-None-Match compares weakly (http.ts
 * `ifNoneMatch`), so revalidation still answers 304.
 *
 * A request without `Accept-Encoding` skips the library altogether. The site's written pages
 * (static-door.ts: the home page is the most requested page) are not compressed per request: each
 * file's version is compressed once ({@link compressedCopy}) and sent as it is.
 */

/** JSON answers at least this long (bytes, from Content-Length) are compressed when asked. */
export const LARGE_JSON_BYTES = 16_384;
/** Answers shorter than this are never compressed (the library's threshold). */
export const MIN_COMPRESSED_BYTES = 1_024;

/** Whether an answer with these headers is one to compress when the client asks. Pure. */
export function compressible(contentType: OutgoingHttpHeader | undefined, contentLength: OutgoingHttpHeader | undefined, etag?: OutgoingHttpHeader): boolean {
  const type = String(contentType ?? '').toLowerCase();
  if (type.startsWith('text/html') || type.startsWith('text/css')) return true;
  if (type.startsWith('application/json') || type.startsWith('application/problem+json')) {
    // a record or document (its ETag the sha256 of the bytes sent, spec §4) never, whatever its size;
    // a length not known in advance (a stream) is left alone: the large JSON answers all carry one
    if (etag !== undefined) return false;
    const n = Number(contentLength);
    return Number.isFinite(n) && n >= LARGE_JSON_BYTES;
  }
  return false;
}

const middleware = compression({
  threshold: MIN_COMPRESSED_BYTES,
  filter: (_req, res) => compressible(res.getHeader('Content-Type'), res.getHeader('Content-Length'), res.getHeader('ETag')),
});

/**
 * Make the ETag of a compressed answer weak; run after the library chose (see {@link compressWhenAsked}).
 * A 304 carries the validator of the answer it stands for: weak when the client revalidated the
 * compressed answer's (`If-None-Match: W/"…"`), so a cache does not store the strong one over it.
 */
function weakenCompressedEtag(req: IncomingMessage, res: ServerResponse): void {
  const etag = res.getHeader('ETag');
  if (typeof etag !== 'string' || !etag.startsWith('"')) return;
  if (res.getHeader('Content-Encoding')) res.setHeader('ETag', `W/${etag}`);
  else if (res.statusCode === 304) res.setHeader('ETag', tagAsHeld(etag, req.headers['if-none-match']));
}

/**
 * The strong `etag` in the form a revalidating client holds it: weak when its If-None-Match names the
 * weak form (it holds the compressed answer), else as it is. What a 304 carries (here and static-door.ts).
 */
export function tagAsHeld(etag: string, ifNoneMatch: string | undefined): string {
  const weak = `W/${etag}`;
  return ifNoneMatch?.includes(weak) ? weak : etag;
}

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Put compression in front of the server's request listeners (after the static door is installed,
 * before the front door, so the static door's pages are compressed too).
 */
export function compressWhenAsked(server: Server): void {
  const listeners = server.listeners('request') as Listener[];
  server.removeAllListeners('request');
  const pass: Listener = (req, res) => {
    for (const l of listeners) l.call(server, req, res);
  };
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (!req.headers['accept-encoding']) return pass(req, res);
    // registered before the library's own: on-headers runs the last registered first, so this sees its choice
    onHeaders(res, () => weakenCompressedEtag(req, res));
    middleware(req as never, res as never, () => pass(req, res));
  });
}

/** Encodings of the written pages' copies, most preferred first (the library's own order). */
const ENCODINGS = ['br', 'gzip'] as const;
export type ContentEncoding = (typeof ENCODINGS)[number];

/**
 * The encoding a request accepts for a compressed copy, chosen as the library chooses (negotiator:
 * q-values, then br before gzip), or null for the bytes as they are (no `Accept-Encoding`, only
 * `identity`, or every encoding refused).
 */
export function chosenEncoding(req: Pick<IncomingMessage, 'headers'>): ContentEncoding | null {
  if (!req.headers['accept-encoding']) return null;
  // negotiator 0.6.4's second argument (the preferred order), which its types do not declare
  const negotiator = new Negotiator(req as IncomingMessage) as unknown as { encoding(available: string[], preferred: string[]): string | undefined };
  const e = negotiator.encoding([...ENCODINGS, 'identity'], [...ENCODINGS]);
  return e === 'br' || e === 'gzip' ? e : null;
}

/** Brotli quality of the kept copies: made once per file version (~1 ms for a 30 KB page), where the library's per-answer quality is 4. */
const KEPT_BROTLI_QUALITY = 6;
const copies = new WeakMap<Buffer, Partial<Record<ContentEncoding, Buffer>>>();

/** `body` compressed in `encoding` (brotli at {@link KEPT_BROTLI_QUALITY}, gzip at level 9): what the kept copies hold. */
function compress(body: Buffer, encoding: ContentEncoding): Buffer {
  return encoding === 'br'
    ? brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: KEPT_BROTLI_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } })
    : gzipSync(body, { level: 9 });
}

/**
 * `body` compressed in `encoding`, made on first use and kept as long as `body` is (a WeakMap keyed
 * by the Buffer: the site-file cache holds one Buffer per file version, so a rewritten file gets new copies).
 */
export function compressedCopy(body: Buffer, encoding: ContentEncoding): Buffer {
  let kept = copies.get(body);
  if (!kept) copies.set(body, (kept = {}));
  return (kept[encoding] ??= compress(body, encoding));
}

/** Pages' compressed copies kept by their ETag at most (~6 KB each in brotli: ~6 MB). */
export const KEPT_PAGES = 1_024;
const byEtag = new Map<string, Partial<Record<ContentEncoding, Buffer>>>();

/**
 * A page's bytes compressed in `encoding`, kept by its ETag (the sha256 of the bytes: the same tag is
 * the same page) for the pages the routes read from disk or render (`/t/{mint}.html`,
 * `/w/{address}.html`), at most {@link KEPT_PAGES} (the least recently used dropped first).
 */
export function compressedPage(etag: string, body: string | Buffer, encoding: ContentEncoding): Buffer {
  let kept = byEtag.get(etag);
  if (kept) {
    byEtag.delete(etag); // most recently used last
    byEtag.set(etag, kept);
  } else {
    byEtag.set(etag, (kept = {}));
    if (byEtag.size > KEPT_PAGES) byEtag.delete(byEtag.keys().next().value!);
  }
  return (kept[encoding] ??= compress(typeof body === 'string' ? Buffer.from(body, 'utf8') : body, encoding));
}
