/**
 * A typed client of the Launch-Provenance Archive API: `fetch` only, no runtime dependencies.
 * Types come from the archive's OpenAPI document (./types.ts, generated). Use it on your server:
 * a key in browser code is readable by anyone.
 *
 * @example
 * const archive = new ArchiveClient({ baseUrl: 'https://archive.example', key: process.env.LPA_KEY! });
 * const record = await archive.getToken(mint); // follows 202 (rebuild) by Retry-After until 200
 * if (record.finding.class === 'NO_MARKERS') …  // branch on finding.class; cleanAtBirth null is never "clean"
 */
import type { ErrorBody, ErrorCode, LaunchDocument, LaunchList, RebuildInProgress, Status, StreamEvent, TokenBatch, TokenRecord, Usage, WalletRecord } from './types.ts';
import { SseParser } from './sse.ts';

export type * from './types.ts';

/** What the `daily` policy of the last keyed answer said (draft-ietf-httpapi-ratelimit-headers). */
export interface RateLimitState {
  /** requests left today */
  remaining: number;
  /** seconds until the count resets (00:00 UTC) */
  resetSeconds: number;
  /** requests per day */
  limit: number | null;
}

/** An error answer of the archive: its code, status, message and (when sent) Retry-After. `finding.class` is always UNKNOWN. */
/**
 * An answer that is not the archive's JSON: a proxy's or load balancer's error page, a body cut
 * short. `status` is the HTTP status, `contentType` its header, `text` the first 500 characters of
 * the body. Not an ArchiveError: it carries no archive error code.
 */
export class UnexpectedAnswerError extends Error {
  constructor(
    readonly status: number,
    readonly contentType: string | null,
    readonly text: string,
  ) {
    super(`${status}: the answer is not the archive's JSON (${contentType ?? 'no Content-Type'}): ${text.slice(0, 200)}`);
    this.name = 'UnexpectedAnswerError';
  }
}

/** The body of `res` as JSON, or UnexpectedAnswerError when it is not JSON. */
async function jsonOf<T>(res: Response): Promise<T> {
  const text = await res.text();
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new UnexpectedAnswerError(res.status, res.headers.get('Content-Type'), text.slice(0, 500));
  }
}

/** One entry of a batch, its body narrowed by its status: `if (e.status === 200) e.body.launch`. */
export type BatchEntry =
  | { mint: string; status: 200; body: TokenRecord }
  | { mint: string; status: 202; body: RebuildInProgress }
  | { mint: string; status: Exclude<TokenBatch['results'][number]['status'], 200 | 202>; body: ErrorBody };

/** `GET /api/v1/tokens`'s answer with its entries narrowed by status ({@link BatchEntry}). */
export type TokenBatchAnswer = Omit<TokenBatch, 'results'> & { results: BatchEntry[] };

export class ArchiveError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly body: ErrorBody;
  /** seconds, when the answer said when to ask again */
  readonly retryAfter: number | null;
  constructor(status: number, body: ErrorBody, retryAfter: number | null) {
    super(`${status} ${body.error}: ${body.message}`);
    this.name = 'ArchiveError';
    this.code = body.error;
    this.status = status;
    this.body = body;
    this.retryAfter = retryAfter;
  }
}

/**
 * 403 `feed_not_in_plan` from `stream()`: the key lacks the creation feed entitlement. The feed is
 * offered under a separate agreement; `message` says whom to ask.
 */
export class FeedNotInPlanError extends ArchiveError {
  constructor(status: number, body: ErrorBody, retryAfter: number | null) {
    super(status, body, retryAfter);
    this.name = 'FeedNotInPlanError';
  }
}

/** One event of the creation feed: its id (resume after it with `after`) and its data. */
export interface FeedEvent extends StreamEvent {
  /** The event id: the record's change sequence (increasing). */
  id: number;
}

export interface StreamOptions {
  /** Resume after this event id (the `id` of the last event you handled); default: from now on. */
  after?: number | undefined;
  /** Stop the stream (the iterator then ends). */
  signal?: AbortSignal | undefined;
  /** Wait before reconnecting after a drop, ms (default: the server's `retry:`, else 2,000). */
  reconnectDelayMs?: number | undefined;
  /** Reconnect when nothing (not even a heartbeat) arrived for this long, ms (default 30,000: two heartbeats; the server sends one every 15 s). */
  idleTimeoutMs?: number | undefined;
  /** Called on each reconnection with the id it resumes after and why (for logs). */
  onReconnect?: ((info: { after: number | null; reason: string }) => void) | undefined;
}

/** A rebuild that did not finish within `maxWaitMs` of getToken: the last 202 body. */
export class RebuildPendingError extends Error {
  readonly pending: RebuildInProgress;
  constructor(pending: RebuildInProgress) {
    super(`rebuild of ${pending.mint} still ${pending.rebuild.state}`);
    this.name = 'RebuildPendingError';
    this.pending = pending;
  }
}

export interface ClientOptions {
  /** e.g. `https://archive.example` (no trailing slash needed) */
  baseUrl: string;
  /** `lpa_…` */
  key: string;
  /** default: the global fetch */
  fetch?: typeof fetch | undefined;
  /** getToken: longest total wait for a rebuild, ms (default 120,000) */
  maxWaitMs?: number | undefined;
  /** how to wait (tests shorten it); default setTimeout */
  sleep?: ((ms: number) => Promise<void>) | undefined;
}

export interface ListOptions {
  class?: 'FINDINGS' | 'NOTE' | 'NO_MARKERS' | 'UNKNOWN' | undefined;
  graduated?: boolean | undefined;
  creator?: string | undefined;
  limit?: number | undefined;
  /** start a sync: 0 for every record, or a slot */
  since?: number | undefined;
  /** the `next` of an earlier page */
  cursor?: string | undefined;
}

export class ArchiveClient {
  /** The `daily` rate-limit state of the last keyed answer (null before one). */
  rateLimit: RateLimitState | null = null;
  private readonly base: string;
  private readonly f: typeof fetch;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly opts: ClientOptions) {
    this.base = opts.baseUrl.replace(/\/+$/, '');
    this.f = opts.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.sleep = opts.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
  }

  /** One GET; 2xx answers return `{status, body}`, errors throw ArchiveError. */
  private async get<T>(path: string, keyed = true): Promise<{ status: number; body: T; retryAfter: number | null }> {
    const res = await this.f(this.base + path, { headers: keyed ? { Authorization: `Bearer ${this.opts.key}` } : {} });
    this.readRateLimit(res.headers);
    const retry = res.headers.get('Retry-After');
    const retryAfter = retry !== null && /^\d+$/.test(retry) ? Number(retry) : null;
    const body = await jsonOf<T | ErrorBody>(res);
    if (!res.ok) throw new ArchiveError(res.status, body as ErrorBody, retryAfter);
    return { status: res.status, body: body as T, retryAfter };
  }

  private readRateLimit(h: Headers): void {
    const rate = /"daily";r=(\d+);t=(\d+)/.exec(h.get('RateLimit') ?? '');
    if (!rate) return;
    const q = /"daily";q=(\d+)/.exec(h.get('RateLimit-Policy') ?? '');
    this.rateLimit = { remaining: Number(rate[1]), resetSeconds: Number(rate[2]), limit: q ? Number(q[1]) : null };
  }

  /**
   * The launch record of a mint. A mint not held is rebuilt from chain: the 202 answers are
   * followed, waiting Retry-After each time, until the 200 (or RebuildPendingError after maxWaitMs).
   */
  async getToken(mint: string): Promise<TokenRecord> {
    const deadline = Date.now() + (this.opts.maxWaitMs ?? 120_000);
    for (;;) {
      const r = await this.get<TokenRecord | RebuildInProgress>(`/api/v1/token/${encodeURIComponent(mint)}`);
      if (r.status === 200) return r.body as TokenRecord;
      const waitMs = (r.retryAfter ?? 2) * 1000;
      if (Date.now() + waitMs > deadline) throw new RebuildPendingError(r.body as RebuildInProgress);
      await this.sleep(waitMs);
    }
  }

  /** The wallet record of an address. */
  async getWallet(address: string): Promise<WalletRecord> {
    return (await this.get<WalletRecord>(`/api/v1/wallet/${encodeURIComponent(address)}`)).body;
  }

  /** Up to 100 token lookups at once; each entry carries the status and body of its single call. */
  async getTokens(mints: string[]): Promise<TokenBatchAnswer> {
    return (await this.get<TokenBatchAnswer>(`/api/v1/tokens?mints=${mints.map(encodeURIComponent).join(',')}`)).body;
  }

  /** One page of the record list (browsing, or a sync with `since`/`cursor`). */
  async listLaunches(o: ListOptions = {}): Promise<LaunchList> {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(o)) if (v !== undefined) q.set(k, String(v));
    return (await this.get<LaunchList>(`/api/v1/launches${q.size ? `?${q}` : ''}`)).body;
  }

  /**
   * Every page of a sync from `since` (default 0) or a saved cursor; yields each page. Keep the last
   * page's `next` and call again later: records written or changed since come then.
   */
  async *sync(o: { since?: number | undefined; cursor?: string | undefined; limit?: number | undefined } = {}): AsyncGenerator<LaunchList> {
    let page = await this.listLaunches(o.cursor ? { cursor: o.cursor, limit: o.limit } : { since: o.since ?? 0, limit: o.limit });
    yield page;
    while (page.hasMore && page.next) {
      page = await this.listLaunches({ cursor: page.next, limit: o.limit });
      yield page;
    }
  }

  /**
   * The creation feed (`GET /api/v1/stream`, keys with the feed entitlement only): every new or
   * changed record, as an async iterator. After a drop (network, server restart, idle timeout) it
   * reconnects with `Last-Event-ID` = the last event yielded, so no record is missed (a record that
   * changed several times meanwhile comes once, at its latest version). It ends when
   * `signal` aborts or the loop breaks. Throws FeedNotInPlanError (403 `feed_not_in_plan`) and
   * ArchiveError for the other refusals (401, 429 `too_many_streams`, 400); a 503 while the server
   * shuts down is retried after Retry-After.
   * @example for await (const e of archive.stream({ after: savedId })) { save(e.mint, e.document); savedId = e.id; }
   */
  async *stream(o: StreamOptions = {}): AsyncGenerator<FeedEvent> {
    let after: number | null = o.after ?? null;
    let retryMs = o.reconnectDelayMs ?? 2000;
    // the server's heartbeat comes every 15 s (STREAM_HEARTBEAT_MS); docs/api.md: none for 30 s or more, reconnect
    const idleMs = o.idleTimeoutMs ?? 30_000;
    for (let attempt = 0; ; attempt++) {
      if (o.signal?.aborted) return;
      const local = new AbortController();
      const onAbort = () => local.abort();
      o.signal?.addEventListener('abort', onAbort, { once: true });
      let idle: ReturnType<typeof setTimeout> | undefined;
      const touch = () => {
        clearTimeout(idle);
        idle = setTimeout(() => local.abort(), idleMs);
      };
      let reason = 'the stream ended';
      try {
        touch();
        const headers: Record<string, string> = { Authorization: `Bearer ${this.opts.key}`, Accept: 'text/event-stream' };
        if (after !== null) headers['Last-Event-ID'] = String(after);
        const res = await this.f(`${this.base}/api/v1/stream`, { headers, signal: local.signal });
        if (!res.ok) {
          const retry = res.headers.get('Retry-After');
          const retryAfter = retry !== null && /^\d+$/.test(retry) ? Number(retry) : null;
          const body = await jsonOf<ErrorBody>(res);
          if (res.status === 503 && retryAfter !== null) {
            reason = `503 ${body.error}`;
            retryMs = Math.max(retryMs, retryAfter * 1000);
          } else if (res.status === 403 && body.error === 'feed_not_in_plan') {
            throw new FeedNotInPlanError(res.status, body, retryAfter);
          } else {
            throw new ArchiveError(res.status, body, retryAfter);
          }
        } else if (res.body) {
          const parser = new SseParser();
          const reader = res.body.getReader();
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            touch();
            for (const ev of parser.push(value)) {
              if (ev.retry !== undefined && o.reconnectDelayMs === undefined) retryMs = ev.retry;
              if (ev.data === undefined || ev.id === undefined || !/^\d+$/.test(ev.id)) continue;
              const data = JSON.parse(ev.data) as StreamEvent;
              after = Number(ev.id);
              yield { id: after, ...data };
            }
          }
        }
      } catch (e) {
        if (e instanceof ArchiveError) throw e;
        if (o.signal?.aborted) return;
        reason = local.signal.aborted ? `nothing arrived for ${idleMs} ms` : e instanceof Error ? e.message : String(e);
      } finally {
        clearTimeout(idle);
        o.signal?.removeEventListener('abort', onAbort);
        local.abort();
      }
      if (o.signal?.aborted) return;
      o.onReconnect?.({ after, reason });
      await this.sleep(retryMs);
    }
  }

  /** The key's quota and the caller's rebuild starts (not counted). */
  async usage(): Promise<Usage> {
    return (await this.get<Usage>('/api/v1/usage')).body;
  }

  /** The archive's state (`GET /api/v1/status`: no key, not counted): what it holds, its coverage and gaps, the collector, the rebuild queue. */
  async status(): Promise<Status> {
    return (await this.get<Status>('/api/v1/status', false)).body;
  }

  /**
   * A launch's canonical document (`GET /d/{mint}`: no key, not counted) — its exact bytes as
   * `text`, parsed as `document` — checked against its sha256, the answer's ETag. Throws
   * ArchiveError (400 `not_an_address`; 404 `not_found` for a mint not held: absence is not a clean
   * record, and this path starts no rebuild — getToken does), and DocumentMismatchError when the
   * bytes do not hash to the ETag (a proxy that changed them).
   */
  async getDocument(mint: string): Promise<{ document: LaunchDocument; text: string; sha256: string }> {
    const res = await this.f(`${this.base}/d/${encodeURIComponent(mint)}`);
    const text = await res.text();
    if (!res.ok) {
      let body: ErrorBody;
      try {
        body = JSON.parse(text) as ErrorBody;
      } catch {
        throw new UnexpectedAnswerError(res.status, res.headers.get('Content-Type'), text.slice(0, 500));
      }
      throw new ArchiveError(res.status, body, null);
    }
    const sha256 = await sha256Hex(text);
    const etag = res.headers.get('ETag') ?? '';
    if (etag.replace(/^W\//, '') !== `"${sha256}"`) throw new DocumentMismatchError(mint, etag, sha256);
    return { document: JSON.parse(text) as LaunchDocument, text, sha256 };
  }

  /**
   * A bulk download (`GET /data/record.db`, `/data/documents.ndjson.gz`: keyed, each request counted).
   * Returns the answer to stream to a file (`response.body`), its `etag` (the file's sha256, quoted)
   * and `size` (the whole file's bytes); or null when `ifNoneMatch` is the current file's ETag (304:
   * keep your copy). Resume a broken download with `start` (the bytes you have) and `ifRange` (the
   * ETag of the file you started): 206 with the rest, or 200 with the whole new file when it was
   * replaced meanwhile — check `status`. Throws ArchiveError (401, 404 `not_found` before the first
   * files are written, 416 `range_not_satisfiable`, 429).
   * @example const d = await archive.download('documents.ndjson.gz', { ifNoneMatch: saved }); if (d) await pipeline(Readable.fromWeb(d.response.body!), createWriteStream(path))
   */
  async download(name: 'record.db' | 'documents.ndjson.gz', o: { ifNoneMatch?: string | undefined; start?: number | undefined; ifRange?: string | undefined } = {}): Promise<{ response: Response; status: 200 | 206; etag: string; size: number } | null> {
    const headers: Record<string, string> = { Authorization: `Bearer ${this.opts.key}` };
    if (o.ifNoneMatch) headers['If-None-Match'] = o.ifNoneMatch;
    if (o.start !== undefined) headers.Range = `bytes=${o.start}-`;
    if (o.ifRange) headers['If-Range'] = o.ifRange;
    const res = await this.f(`${this.base}/data/${name}`, { headers });
    this.readRateLimit(res.headers);
    if (res.status === 304) return null;
    if (res.status !== 200 && res.status !== 206) {
      const retry = res.headers.get('Retry-After');
      throw new ArchiveError(res.status, await jsonOf<ErrorBody>(res), retry !== null && /^\d+$/.test(retry) ? Number(retry) : null);
    }
    const range = /\/(\d+)$/.exec(res.headers.get('Content-Range') ?? '');
    const size = range ? Number(range[1]) : Number(res.headers.get('Content-Length'));
    return { response: res, status: res.status, etag: res.headers.get('ETag') ?? '', size };
  }
}

/** A document whose bytes do not hash to the sha256 its answer named (getDocument). */
export class DocumentMismatchError extends Error {
  constructor(
    readonly mint: string,
    readonly etag: string,
    readonly sha256: string,
  ) {
    super(`the document of ${mint} hashes to ${sha256}, not to its ETag ${etag}`);
    this.name = 'DocumentMismatchError';
  }
}

/** sha256 of a text's UTF-8 bytes, hex (Web Crypto: Node 20+, browsers). */
async function sha256Hex(text: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}
