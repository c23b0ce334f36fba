import bs58 from 'bs58';
import { PAGE_CSP, renderMessagePage } from '../render/token-page.ts';
import { BytesResponse } from './bytes-response.ts';

/**
 * HTTP helpers shared by every handler: CORS, caching headers, ETag matching, address checks.
 * Pure functions over Web Request/Response.
 */

export { CACHE_NONE, CACHE_SETTLED, corsHeaders } from '../cache-rules.ts';
import { CACHE_NONE, corsHeaders } from '../cache-rules.ts';

/**
 * Answer to a CORS preflight (`OPTIONS`) on any API path: 204, GET only (or the given methods),
 * `Authorization` allowed, a day of caching.
 * @example preflightResponse().status // 204
 */
export function preflightResponse(methods = 'GET, OPTIONS'): Response {
  return new Response(null, {
    status: 204,
    headers: {
      ...corsHeaders(),
      'Access-Control-Allow-Methods': methods,
      'Access-Control-Allow-Headers': 'Authorization, Content-Type, If-None-Match, Range, If-Range',
      'Access-Control-Max-Age': '86400',
    },
  });
}

/**
 * Headers of every HTML page (README "Security"): the pages' CSP (no script, the one inline style
 * by its hash, `frame-ancestors 'none'`), `X-Content-Type-Options: nosniff`, `Referrer-Policy:
 * no-referrer`. A CDN serving `DATA_DIR/site/t/` should send the same (README).
 */
export function pageHeaders(): Record<string, string> {
  return {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': PAGE_CSP,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    // a page is sent compressed to a client that asks (compress.ts): a cache keeps the two apart, also when it fetched the plain one first
    Vary: 'Accept-Encoding',
  };
}

/**
 * A small HTML page answering an error on a page path (the API's paths answer JSON: errors.ts).
 * `no-store`, the page headers, CORS unless `cors` is false.
 * @example htmlPage(405, 'Method not allowed', 'This page answers GET.', { headers: { Allow: 'GET, HEAD, OPTIONS' } })
 */
export function htmlPage(status: number, heading: string, text: string, opts: { cors?: boolean; headers?: Record<string, string> } = {}): Response {
  return new Response(renderMessagePage(heading, text), {
    status,
    headers: { ...pageHeaders(), 'Cache-Control': CACHE_NONE, ...(opts.cors === false ? {} : corsHeaders()), ...opts.headers },
  });
}

/**
 * The `license` field of every keyed response (spec §1, §2.1): the licence text, a space, the link.
 * @example licenseOf({ LICENSE_TEXT: 'For use in your own product.', LICENSE_URL: 'https://x/license' })
 */
export function licenseOf(config: { LICENSE_TEXT: string; LICENSE_URL: string }): string {
  return `${config.LICENSE_TEXT} ${config.LICENSE_URL}`;
}

/** A JSON response with CORS; `headers` may add or override. */
export function jsonResponse(body: unknown, status: number, headers: Record<string, string> = {}): Response {
  return jsonTextResponse(JSON.stringify(body), status, headers);
}

/**
 * An answer before it becomes a Web `Response`: its status, header fields and body text (`''` for
 * none). Handlers that answer one request from several answers (the batch, src/server/tokens-batch.ts)
 * combine these rather than build and read back a `Response` for each: building one costs more than
 * the lookup it carries. {@link replyResponse} makes the `Response`.
 */
export interface Reply {
  status: number;
  headers: Record<string, string>;
  /** The body: text, or its UTF-8 bytes; empty for a 304. */
  body: string | Buffer;
}

/**
 * The `Response` of a {@link Reply} (no body for 204/304 or an empty text; else `Content-Length`). The body goes in as
 * UTF-8 bytes (Buffer.from), not as a string: undici converts a string body to a USVString (a scan
 * for lone surrogates) and then encodes it in JavaScript, which cost a fifth of a 100 KB list
 * page's time; the bytes are the same (a lone surrogate becomes U+FFFD either way). A body is a
 * {@link BytesResponse}: the server writes its bytes without making a body stream.
 */
export function replyResponse(r: Reply): Response {
  const bytes = typeof r.body === 'string' ? Buffer.from(r.body, 'utf8') : r.body;
  if (bytes.length === 0) return new Response(null, { status: r.status, headers: r.headers });
  // the length is known: sent as Content-Length (exposed to browsers by CORS) rather than chunked;
  // no body stream is made unless something reads the body (bytes-response.ts)
  return new BytesResponse(bytes, { status: r.status, headers: { ...r.headers, 'Content-Length': String(bytes.length) } });
}

/** The {@link Reply} of a JSON body already serialised (`text`, or its UTF-8 bytes, must be one JSON value), with CORS; `headers` may add or override. */
export function jsonTextReply(text: string | Buffer, status: number, headers: Record<string, string> = {}): Reply {
  return { status, body: text, headers: { 'Content-Type': 'application/json; charset=utf-8', 'X-Content-Type-Options': 'nosniff', ...corsHeaders(), ...headers } };
}

/** {@link jsonResponse} of a body already serialised (`text`, or its UTF-8 bytes, must be one JSON value). */
export function jsonTextResponse(text: string | Buffer, status: number, headers: Record<string, string> = {}): Response {
  return replyResponse(jsonTextReply(text, status, headers));
}

/**
 * {@link jsonTextResponse} of a body given as its parts in order (UTF-8 bytes of one JSON value
 * joined), written to the socket as they are (bytes-response.ts): not joined into one buffer.
 */
export function jsonPartsResponse(parts: readonly Buffer[], status: number, headers: Record<string, string> = {}): Response {
  let length = 0;
  for (const p of parts) length += p.length;
  if (length === 0) return jsonTextResponse('', status, headers);
  const r = jsonTextReply('', status, headers);
  return new BytesResponse(parts.length === 1 ? parts[0]! : parts, { status, headers: { ...r.headers, 'Content-Length': String(length) } });
}

const BASE58_ALPHABET = /^[1-9A-HJ-NP-Za-km-z]+$/;

/** Values {@link addressProblem} found to be addresses (its answer depends on the value alone): not decoded again. At most 4,096, cleared when full. */
const knownAddresses = new Set<string>();
const KNOWN_ADDRESSES_MAX = 4_096;

/**
 * What is wrong with a path value as an address (spec §4, §8: base58, 32-44 characters, and
 * decoding to the 32 bytes of a public key), in words for the `not_an_address` message; null
 * when it is an address. `subject` names the value in the message (a batch entry, a query parameter).
 * @example addressProblem('So11111111111111111111111111111111111111112') // null
 */
export function addressProblem(value: string | undefined, subject = 'The path value'): string | null {
  if (value !== undefined && knownAddresses.has(value)) return null;
  if (typeof value !== 'string' || value.length < 32 || value.length > 44) {
    return `${subject} is not an address: it must be base58 of 32-44 characters (it has ${typeof value === 'string' ? [...value].length : 0}). Check the value you sent; nothing was looked up.`;
  }
  if (!BASE58_ALPHABET.test(value)) {
    return `${subject} is not an address: it holds a character that is not base58 (0, O, I, l and anything outside letters and digits are not used). Check the value you sent; nothing was looked up.`;
  }
  // bs58 (base-x): byte-array decoding, ~30 x faster here than @solana/kit's BigInt codec, same bytes (tests/unit/address-check.test.ts)
  const bytes = bs58.decodeUnsafe(value)?.length ?? 0;
  if (bytes !== 32) {
    return `${subject} is not an address: it is base58 but does not decode to 32 bytes (it decodes to ${bytes}). Addresses are case-sensitive: check it was not re-cased or cut. Nothing was looked up.`;
  }
  if (knownAddresses.size >= KNOWN_ADDRESSES_MAX) knownAddresses.clear();
  knownAddresses.add(value);
  return null;
}

/**
 * Has `value` an address's length and alphabet (base58, 32-44 characters: the checks
 * {@link addressProblem} makes before it decodes)? Whether it decodes to 32 bytes is not checked.
 * @example isAddressShape('So11111111111111111111111111111111111111112') // true
 */
export function isAddressShape(value: string): boolean {
  return value.length >= 32 && value.length <= 44 && BASE58_ALPHABET.test(value);
}

/**
 * Is `value` a Solana address as the spec allows in paths: base58, 32-44 characters (spec §4, §8),
 * decoding to 32 bytes. {@link addressProblem} says what is wrong otherwise.
 */
export function isAddressParam(value: string | undefined): value is string {
  return addressProblem(value) === null;
}

/**
 * A stored document's JSON text with `fields` added after its own members, without parsing it:
 * the same value as `{...JSON.parse(documentText), ...fields}` when no field is a member of the
 * document. Documents are stored as canonical JSON objects (src/core/canonical.ts); a text that is
 * not an object (it should never happen) is parsed and serialised instead. Throws only when
 * `documentText` is not JSON at all. `fields` are serialised with JSON.stringify.
 * @example withFields('{"a":1}', { b: 2 }) // '{"a":1,"b":2}'
 */
export function withFields(documentText: string, fields: Record<string, unknown>): string {
  const tail = fieldsTail(fields);
  if (documentText.charCodeAt(0) !== 0x7b || documentText.charCodeAt(documentText.length - 1) !== 0x7d) {
    return JSON.stringify({ ...(JSON.parse(documentText) as Record<string, unknown>), ...fields });
  }
  if (documentText.length === 2) return `{${tail.slice(1)}}`;
  return documentText.slice(0, -1) + tail + '}';
}

/**
 * {@link withFields} over a document's UTF-8 bytes, giving bytes: the document is copied, not
 * decoded (the token endpoint and the batch read it as stored: PublicStore.getLaunchBytes).
 * @example withFieldsBytes(Buffer.from('{"a":1}'), { b: 2 }).toString() // '{"a":1,"b":2}'
 */
export function withFieldsBytes(document: Buffer, fields: Record<string, unknown>): Buffer {
  if (document[0] !== 0x7b || document[document.length - 1] !== 0x7d) return Buffer.from(withFields(document.toString('utf8'), fields));
  const tail = fieldsTail(fields) + '}';
  if (document.length === 2) return Buffer.from(`{${tail.slice(1)}`);
  // one buffer: the document without its closing brace, then the fields and the brace
  const head = document.length - 1;
  const out = Buffer.allocUnsafe(head + Buffer.byteLength(tail));
  document.copy(out, 0, 0, head);
  out.write(tail, head, 'utf8');
  return out;
}

/** JSON text of frozen field values (the coverage object: the same one while it is unchanged). */
const frozenJson = new WeakMap<object, string>();

/**
 * The JSON text `,"k":v` of each defined field in order, serialised with JSON.stringify (a frozen
 * object once while it is unchanged): what {@link withFields} puts before a document's closing brace.
 * @example fieldsTail({ b: 2, c: undefined, d: 'x' }) // ',"b":2,"d":"x"'
 */
export function fieldsTail(fields: Record<string, unknown>): string {
  let tail = '';
  for (const k in fields) {
    const v = fields[k];
    if (v === undefined) continue;
    tail += `,${JSON.stringify(k)}:${jsonOf(v)}`;
  }
  return tail;
}

function jsonOf(v: unknown): string {
  if (typeof v !== 'object' || v === null || !Object.isFrozen(v)) return JSON.stringify(v);
  let json = frozenJson.get(v);
  if (json === undefined) frozenJson.set(v, (json = JSON.stringify(v)));
  return json;
}

/**
 * The bytes of `parts` one after another, UTF-8 for the texts: one buffer allocated and written,
 * where `Buffer.concat` would need a Buffer made first for every text. Answers assembled from
 * stored documents and the JSON around them (the list page, the batch) use it.
 * @example joinBytes(['{"a":', Buffer.from('1'), '}']).toString() // '{"a":1}'
 */
export function joinBytes(parts: readonly (string | Buffer)[]): Buffer {
  let size = 0;
  for (const p of parts) size += typeof p === 'string' ? Buffer.byteLength(p, 'utf8') : p.length;
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  for (const p of parts) {
    if (typeof p === 'string') at += out.write(p, at);
    else {
      out.set(p, at);
      at += p.length;
    }
  }
  return out;
}

/** Strong entity tag for a sha256 hex digest: `"<hex>"`. */
export function etagOf(sha256: string): string {
  return `"${sha256}"`;
}

/**
 * Does the request's `If-None-Match` match `etag`? RFC 9110 §13.1.2: weak comparison, `*` matches,
 * a comma-separated list matches when any member does.
 */
export function ifNoneMatch(request: Request, etag: string): boolean {
  const header = request.headers.get('If-None-Match');
  if (!header) return false;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((t) => {
    const tag = t.trim();
    return tag === '*' || tag.replace(/^W\//, '') === bare;
  });
}

/** A 304 Not Modified carrying the validator and caching headers it replaces (RFC 9110 §15.4.5). */
export function notModified(etag: string, cacheControl: string, extra: Record<string, string> = {}): Response {
  return replyResponse(notModifiedReply(etag, cacheControl, extra));
}

/** {@link notModified} as a {@link Reply}. */
export function notModifiedReply(etag: string, cacheControl: string, extra: Record<string, string> = {}): Reply {
  return { status: 304, body: '', headers: { ETag: etag, 'Cache-Control': cacheControl, ...corsHeaders(), ...extra } };
}

/**
 * The body of a request, read up to `limit` bytes (README "Security": body sizes). A
 * `Content-Length` over the limit is refused before a byte is read; a body without one (chunked)
 * is counted as it streams and the stream cancelled at the first byte over. Returns the bytes, or
 * `too_large` (answer 413 `payload_too_large`). A stream that fails (the client went away, or the
 * adapter's own size limit fired) counts as too large: nothing is left to answer otherwise.
 * @example const body = await readBodyLimited(request, 65_536); if (body === 'too_large') return errorResponse('payload_too_large')
 */
export async function readBodyLimited(request: Request, limit: number): Promise<Buffer | 'too_large'> {
  const declared = request.headers.get('Content-Length');
  if (declared !== null && Number(declared) > limit) return 'too_large';
  if (!request.body) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        lingerThenCancel(reader);
        return 'too_large';
      }
      chunks.push(value);
    }
  } catch {
    await reader.cancel().catch(() => undefined);
    return 'too_large';
  }
  return Buffer.concat(chunks);
}

/** Header of an answer after which the connection closes (the request could not be read). */
export const CLOSE_CONNECTION = { Connection: 'close' };

/**
 * After a body is refused: how long (ms) and how many more bytes (at most) are read and dropped
 * before the connection is closed. Closing at once, with the client's bytes still unread, makes
 * the kernel reset the connection, and a reset can drop the 413 before the client reads it.
 */
export const LINGER_MS = 1_000;
export const LINGER_BYTES = 1024 * 1024;

/**
 * Read and drop what follows a refused body: at most {@link LINGER_BYTES} (then reading pauses, so
 * TCP holds the client back), and cancel — closing the connection — after {@link LINGER_MS}, which
 * leaves the answer time to be written first. A body that ends sooner closes nothing.
 */
function lingerThenCancel(reader: ReadableStreamDefaultReader<Uint8Array>): void {
  let dropped = 0;
  const timer = setTimeout(() => void reader.cancel().catch(() => undefined), LINGER_MS);
  timer.unref?.();
  void (async () => {
    try {
      while (dropped < LINGER_BYTES) {
        const { done, value } = await reader.read();
        if (done) return clearTimeout(timer);
        dropped += value.byteLength;
      }
    } catch {
      /* the client went away */
    }
  })();
}
