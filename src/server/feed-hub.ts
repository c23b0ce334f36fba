import type { Logger } from '../log.ts';

/**
 * The creation feed's hub (`GET /api/v1/stream`, stream.ts): one per server process. It is fed
 * from public.db, which the collector (another process) writes — no in-process coupling: one
 * poller reads the record versions written since it last looked (`change_seq` greater than the
 * last seen, every `pollMs`) and hands the same encoded events to every live connection.
 *
 * Each connection has a cursor: the id of the last event queued for it. A connection that resumes
 * (`Last-Event-ID`) first reads from the database itself, a page at a time and only as fast as its
 * client takes them, until it has caught up; from then on it takes the poller's events. Events are
 * Server-Sent Events (`id: <change_seq>`, `data: {mint, sha256, class, changed, document}`).
 *
 * Memory is bounded per connection: events wait in a connection's queue only while the client's
 * socket has no room (node-response.ts drainWaiter); past `bufferBytes` the connection is closed —
 * the client resumes from its last complete event with `Last-Event-ID` and misses nothing.
 * At most {@link STREAMS_PER_KEY} connections per key (per server process).
 *
 * Keys are checked when a stream opens and again every `keyCheckMs` while it is open (one read of
 * each key holding a stream, not one per event): a key revoked, rotated away or stripped of the
 * feed entitlement — by another process (`lpa keys`, another node in cluster mode) as much as by
 * this one — has its streams ended at the next check, after a last comment {@link KEY_GONE}.
 */

/** Open streams one key may hold at once (issue 25: a third gets 429 `too_many_streams`). */
export const STREAMS_PER_KEY = 2;
/** Record versions read per database read (poller and catch-up). */
export const FEED_PAGE = 200;
/** Pages the poller reads in one tick at most before yielding to the event loop. */
const POLL_PAGES_PER_TICK = 20;
/** Sent first on every stream: the reconnection delay an EventSource uses (ms). */
export const RETRY_MS = 2000;
/** The last line of a stream ended because its key may no longer open the feed (an SSE comment: clients ignore it). */
export const KEY_GONE = ': key no longer allowed the feed\n\n';

/** One record version (src/db/launch-feed.ts FeedRow). */
export interface FeedEventRow {
  seq: number;
  mint: string;
  sha256: string;
  findingClass: string;
  changed: boolean;
  /** canonical JSON text */
  document: string;
}

/** Where the hub reads record versions (public.db through src/db/launch-feed.ts; tests pass fakes). */
export interface FeedSource {
  /** Versions with seq > afterSeq, ascending, at most `limit`. */
  rowsAfter(afterSeq: number, limit: number): FeedEventRow[];
  /** The highest seq held (0: none). */
  latest(): number;
}

export interface FeedHubOptions {
  source: FeedSource;
  /** Poll interval, ms (config STREAM_POLL_MS). */
  pollMs: number;
  /** Heartbeat interval, ms (config STREAM_HEARTBEAT_MS). */
  heartbeatMs: number;
  /** Bytes queued for one connection before it is closed as too slow (config STREAM_BUFFER_KB × 1024). */
  bufferBytes: number;
  /**
   * May this key still hold a stream (exists, not revoked, feed entitlement held)? Asked for each
   * key holding a stream every `keyCheckMs`; false ends that key's streams. A rejection (the private
   * database unreachable) keeps them open until a check answers. Absent: keys are never checked again.
   */
  keyAllowed?: (keyId: number) => Promise<boolean>;
  /** How often (ms) `keyAllowed` is asked (config STREAM_KEY_CHECK_MS). */
  keyCheckMs?: number;
  log?: Logger;
}

/** What the handler needs from the Node response (node-response.ts); tests pass no-ops. */
export interface ConnectionIo {
  /** Resolves when the client's socket can take more bytes. */
  room: () => Promise<void>;
  /** Destroy the client's connection at once. */
  close: () => void;
}

/**
 * One Server-Sent Event of a record version: `id: <seq>` and one `data:` line of
 * `{"mint","sha256","class","changed","document"}` (the document embedded as stored: canonical JSON
 * has no line breaks). Pure.
 * @example encodeFeedEvent({ seq: 7, mint: 'M', sha256: 'ab', findingClass: 'NOTE', changed: false, document: '{}' })
 * // 'id: 7\ndata: {"mint":"M","sha256":"ab","class":"NOTE","changed":false,"document":{}}\n\n'
 */
export function encodeFeedEvent(r: FeedEventRow): string {
  const document = /[\r\n]/.test(r.document) ? JSON.stringify(JSON.parse(r.document)) : r.document;
  return `id: ${r.seq}\ndata: {"mint":${JSON.stringify(r.mint)},"sha256":${JSON.stringify(r.sha256)},"class":${JSON.stringify(r.findingClass)},"changed":${r.changed},"document":${document}}\n\n`;
}

/** The heartbeat comment (SSE comments start with a colon; clients ignore them). */
export const HEARTBEAT = ': heartbeat\n\n';

const utf8 = new TextEncoder();
const HEARTBEAT_BYTES = utf8.encode(HEARTBEAT);
const KEY_GONE_BYTES = utf8.encode(KEY_GONE);

/** One open stream. */
class FeedConnection {
  /** Id of the last event queued for the client. */
  cursor: number;
  /** Taking the poller's events (true), or still reading its backlog from the database. */
  live = false;
  closed = false;
  /** Encoded chunks waiting for room in the client's socket (shared, read-only: one copy per poll for all connections). */
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  private wake: (() => void) | null = null;
  private controller!: ReadableStreamDefaultController<Uint8Array>;
  readonly stream: ReadableStream<Uint8Array>;

  constructor(
    private readonly hub: FeedHub,
    readonly keyId: number,
    after: number,
    private readonly io: ConnectionIo,
  ) {
    this.cursor = after;
    this.pending.push(utf8.encode(`retry: ${RETRY_MS}\n\n`));
    this.stream = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.controller = controller;
        },
        pull: () => this.pull(),
        cancel: () => this.end(false),
      },
      { highWaterMark: 0 },
    );
  }

  /** Queue bytes for the client (and the events' last id); closes the connection past the buffer bound. */
  push(bytes: Uint8Array, lastSeq?: number): void {
    if (this.closed) return;
    this.pending.push(bytes);
    this.pendingBytes += bytes.byteLength;
    if (lastSeq !== undefined) this.cursor = lastSeq;
    if (this.pendingBytes > this.hub.bufferBytes) {
      this.hub.slowClosed++;
      this.hub.log?.info({ keyId: this.keyId, queuedBytes: this.pendingBytes }, 'feed stream closed: its client reads too slowly (it resumes with Last-Event-ID)');
      this.end(true);
      this.io.close();
      return;
    }
    this.wake?.();
  }

  private async pull(): Promise<void> {
    for (;;) {
      if (this.closed) return;
      await this.io.room();
      if (this.closed) return;
      if (this.pending.length > 0) {
        const chunks = this.pending;
        this.pending = [];
        this.pendingBytes = 0;
        for (const c of chunks) this.controller.enqueue(c);
        return;
      }
      if (!this.live) {
        this.catchUp();
        continue;
      }
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = null;
    }
  }

  /** Read the next page of the backlog; live once a read finds nothing more. */
  private catchUp(): void {
    const rows = this.hub.source.rowsAfter(this.cursor, FEED_PAGE);
    if (rows.length > 0) this.push(utf8.encode(rows.map(encodeFeedEvent).join('')), rows.at(-1)!.seq);
    // Nothing past the rows just read was committed when they were read, and the poller's last read
    // came before it: every later version has a greater seq and comes through the poller.
    if (rows.length < FEED_PAGE) this.live = true;
  }

  /** End the stream: release the key's slot; `error` true drops what was queued. */
  end(error: boolean): void {
    if (this.closed) return;
    this.closed = true;
    this.hub.release(this);
    const rest = this.pending;
    this.pending = [];
    this.pendingBytes = 0;
    try {
      if (!error) for (const c of rest) this.controller.enqueue(c);
      this.controller.close();
    } catch {
      /* already closed or cancelled by the reader */
    }
    this.wake?.();
  }
}

/** The hub: connections, their slots per key, the poller and the heartbeat. */
export class FeedHub {
  readonly source: FeedSource;
  readonly bufferBytes: number;
  readonly log?: Logger;
  /** Connections closed for reading too slowly since the hub started (for logs and tests). */
  slowClosed = 0;
  /** Connections ended because their key may no longer open the feed, since the hub started. */
  keyClosed = 0;
  private readonly conns = new Set<FeedConnection>();
  private readonly perKey = new Map<number, number>();
  private lastSeq = 0;
  private pollTimer: NodeJS.Timeout | null = null;
  private beatTimer: NodeJS.Timeout | null = null;
  private keyTimer: NodeJS.Timeout | null = null;
  private checking = false;
  private stopped = false;

  constructor(private readonly opts: FeedHubOptions) {
    this.source = opts.source;
    this.bufferBytes = opts.bufferBytes;
    this.log = opts.log;
  }

  /** Open streams now. */
  get size(): number {
    return this.conns.size;
  }

  /**
   * Open a stream for a key, resuming after event id `after` (null: from now on). A resume id past
   * the newest event is taken as the newest. Returns 'too_many' when the key holds
   * {@link STREAMS_PER_KEY} already, 'stopped' after {@link closeAll}.
   */
  open(keyId: number, after: number | null, io: ConnectionIo): ReadableStream<Uint8Array> | 'too_many' | 'stopped' {
    if (this.stopped) return 'stopped';
    const held = this.perKey.get(keyId) ?? 0;
    if (held >= STREAMS_PER_KEY) return 'too_many';
    if (this.conns.size === 0) this.start();
    this.perKey.set(keyId, held + 1);
    const latest = this.source.latest();
    const conn = new FeedConnection(this, keyId, after === null ? latest : Math.min(after, latest), io);
    // Nothing to catch up on: live at once (the poller's next read hands it what comes after `latest`).
    conn.live = conn.cursor >= latest;
    this.conns.add(conn);
    return conn.stream;
  }

  /** Release a connection's slot (called once per connection when it ends). */
  release(conn: FeedConnection): void {
    if (!this.conns.delete(conn)) return;
    const held = (this.perKey.get(conn.keyId) ?? 1) - 1;
    if (held > 0) this.perKey.set(conn.keyId, held);
    else this.perKey.delete(conn.keyId);
    if (this.conns.size === 0) this.stopTimers();
  }

  /** Streams a key holds now. */
  streamsOf(keyId: number): number {
    return this.perKey.get(keyId) ?? 0;
  }

  private start(): void {
    this.lastSeq = this.source.latest();
    this.pollTimer = setInterval(() => this.poll(), this.opts.pollMs);
    this.beatTimer = setInterval(() => this.heartbeat(), this.opts.heartbeatMs);
    this.pollTimer.unref();
    this.beatTimer.unref();
    if (this.opts.keyAllowed) {
      this.keyTimer = setInterval(() => void this.checkKeys(), this.opts.keyCheckMs ?? 5_000);
      this.keyTimer.unref();
    }
  }

  private stopTimers(): void {
    if (this.pollTimer) clearInterval(this.pollTimer);
    if (this.beatTimer) clearInterval(this.beatTimer);
    if (this.keyTimer) clearInterval(this.keyTimer);
    this.pollTimer = this.beatTimer = this.keyTimer = null;
  }

  /**
   * Ask `keyAllowed` about every key holding a stream; end the streams of a key it refuses (what
   * was queued is sent, then {@link KEY_GONE}, then the response ends). One check at a time.
   */
  async checkKeys(): Promise<void> {
    const allowed = this.opts.keyAllowed;
    if (!allowed || this.checking) return;
    this.checking = true;
    try {
      for (const keyId of [...this.perKey.keys()]) {
        let ok: boolean;
        try {
          ok = await allowed(keyId);
        } catch (e) {
          this.log?.warn({ keyId, err: e instanceof Error ? `${e.name}: ${e.message}` : String(e) }, 'feed key check failed; its streams stay open until a check answers');
          continue;
        }
        if (ok) continue;
        for (const c of [...this.conns]) {
          if (c.keyId !== keyId) continue;
          c.push(KEY_GONE_BYTES);
          c.end(false);
          this.keyClosed++;
        }
        this.log?.info({ keyId }, 'feed streams ended: the key was revoked or lost the feed entitlement');
      }
    } finally {
      this.checking = false;
    }
  }

  /** Read what was written since the last read and hand it to every live connection. */
  poll(): void {
    try {
      for (let page = 0; page < POLL_PAGES_PER_TICK; page++) {
        const rows = this.source.rowsAfter(this.lastSeq, FEED_PAGE);
        if (rows.length === 0) return;
        const prev = this.lastSeq;
        this.lastSeq = rows.at(-1)!.seq;
        const events = rows.map(encodeFeedEvent);
        const all = utf8.encode(events.join(''));
        for (const c of this.conns) {
          if (!c.live || c.cursor >= this.lastSeq) continue;
          if (c.cursor <= prev) c.push(all, this.lastSeq);
          else c.push(utf8.encode(events.filter((_, i) => rows[i]!.seq > c.cursor).join('')), this.lastSeq);
        }
        if (rows.length < FEED_PAGE) return;
      }
    } catch (e) {
      this.log?.error({ err: e instanceof Error ? `${e.name}: ${e.message}` : String(e) }, 'feed poll failed; trying again at the next interval');
    }
  }

  /** The heartbeat comment on every stream. */
  heartbeat(): void {
    for (const c of this.conns) c.push(HEARTBEAT_BYTES);
  }

  /** End every stream cleanly (what was queued is sent, then the response ends) and open no more: server shutdown. */
  closeAll(): void {
    this.stopped = true;
    for (const c of [...this.conns]) c.end(false);
    this.stopTimers();
  }
}
