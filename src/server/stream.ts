import type Database from 'better-sqlite3';
import type { Deps } from './deps.ts';
import { STREAM_STOPPED_MESSAGE, errorResponse } from './errors.ts';
import { FeedHub } from './feed-hub.ts';
import { CACHE_NONE, corsHeaders } from './http.ts';
import { keyRefusal } from './quota.ts';
import { connectionCloser, drainWaiter } from './node-response.ts';
import { feedRowsAfter, latestFeedSeq } from '../db/launch-feed.ts';

/**
 * `GET /api/v1/stream` (key with the feed entitlement; never counted against the daily quota): the
 * creation feed as Server-Sent Events — every new or changed record, `id:` its change sequence,
 * `data:` `{mint, sha256, class, changed, document}`, a `: heartbeat` comment every
 * STREAM_HEARTBEAT_MS. Resumes after the id in `Last-Event-ID` (or `?after=`): every record changed
 * since that id comes first, at its latest version. Behaviour of the feed: feed-hub.ts. docs/api.md
 * "The creation feed".
 *
 * Answers, in order: 401 `missing_key`/`invalid_key`/`revoked_key`; 403 `feed_not_in_plan` (the
 * key lacks the entitlement: `lpa keys grant --feed`); 400 `invalid_query` (a resume id that is not
 * a whole number); 429 `too_many_streams` (the key has 2 streams open); 200 `text/event-stream`.
 * An open stream ends within STREAM_KEY_CHECK_MS of its key's revocation, rotation or loss of the
 * entitlement (feed-hub.ts checkKeys).
 */

/**
 * The feed hubs of server processes, one per process, keyed by its config (parsed once per process:
 * deps.ts getDeps). Not by the deps object: on a node serving generations each request gets a copy
 * of the deps (generation-lease.ts), and a hub per copy would neither hold a key to its streams per
 * key nor be closed at shutdown.
 */
const hubs = new WeakMap<Deps['config'], FeedHub>();

/** The process's feed hub (created on first use; closed at shutdown: {@link closeFeedOf}). */
export function feedOf(deps: Deps): FeedHub {
  let hub = hubs.get(deps.config);
  if (!hub) hubs.set(deps.config, (hub = createFeedHub(deps)));
  return hub;
}

/** End every feed stream of the process of `deps` cleanly (server shutdown); nothing when none was opened. */
export function closeFeedOf(deps: Pick<Deps, 'config'>): void {
  hubs.get(deps.config)?.closeAll();
}

/**
 * A feed hub reading the public store with the config's intervals and buffer: `deps.publicStore`,
 * or on a node serving generations (`deps.generations`) the newest generation at each read — not
 * the one leased by the request that opened the hub, which is closed once a newer one is served.
 * With `deps.keys`, the key of every open stream is read again every STREAM_KEY_CHECK_MS from the
 * private state (SQLite or PostgreSQL), and a key revoked or without the entitlement ends its streams.
 */
export function createFeedHub(deps: Pick<Deps, 'config' | 'publicStore' | 'log'> & Partial<Pick<Deps, 'keys' | 'generations'>>): FeedHub {
  const reader = deps.generations ?? null;
  const own = deps.publicStore.db;
  // on the newest generation: leased for the read only. Before the first generation (or after
  // shutdown) there is nothing to read; a stream is only opened while its request holds a lease.
  const onDb = <T>(read: (db: Database.Database) => T, none: () => T): T => {
    if (!reader) return read(own);
    const lease = reader.acquire();
    if (!lease) return none();
    try {
      return read(lease.store.db);
    } finally {
      lease.release();
    }
  };
  const keys = deps.keys;
  return new FeedHub({
    source: {
      rowsAfter: (after, limit) => onDb((db) => feedRowsAfter(db, after, limit), () => []),
      latest: () =>
        onDb(latestFeedSeq, () => {
          throw new Error('no public-database generation to read the feed from');
        }),
    },
    pollMs: deps.config.STREAM_POLL_MS,
    heartbeatMs: deps.config.STREAM_HEARTBEAT_MS,
    bufferBytes: deps.config.STREAM_BUFFER_KB * 1024,
    ...(keys ? { keyAllowed: (keyId: number) => keys.mayStream(keyId), keyCheckMs: deps.config.STREAM_KEY_CHECK_MS } : {}),
    log: deps.log,
  });
}

/** The resume id of a request: `Last-Event-ID` (what an EventSource sends back), else `?after=`; null when neither. */
export function resumeIdOf(request: Request): { after: number | null } | { problem: string } {
  const header = request.headers.get('Last-Event-ID');
  const search = new URL(request.url).searchParams;
  // a mistyped resume parameter (`since`, `Last-Event-ID` in the query) would open the live feed without the backlog a mirror needs
  for (const name of new Set(search.keys())) {
    if (name !== 'after') return { problem: `Unknown query parameter "${name}": the feed takes only after (the id of the last event received; or send it as the Last-Event-ID header). Nothing was opened.` };
    if (search.getAll(name).length > 1) return { problem: 'The query parameter "after" is given more than once. Nothing was opened.' };
  }
  const query = search.get('after');
  const raw = header !== null && header.trim() !== '' ? header.trim() : query;
  if (raw === null) return { after: null };
  if (!/^\d{1,15}$/.test(raw)) {
    return { problem: `The resume id (${header !== null && header.trim() !== '' ? 'Last-Event-ID' : 'after'}) must be the id of an event this feed sent: a whole number of at most 15 digits. Nothing was opened.` };
  }
  return { after: Number(raw) };
}

export async function handleStream(request: Request, deps: Deps): Promise<Response> {
  const nowMs = deps.now();
  const key = await deps.keys.check(request);
  if (key.status !== 'ok') return keyRefusal(key.status, request, nowMs);
  if (!(await deps.keys.hasFeed(key.keyId))) {
    return errorResponse('feed_not_in_plan', {
      nowMs,
      message: `This key may not open the creation feed: the live feed is not part of the 10,000-a-day plan but is offered under a separate (enterprise) data agreement. To ask for one, write to ${deps.config.CONTACT_EMAIL}; once agreed, the operator grants the feed to your key. Your other endpoints are unaffected.`,
    });
  }
  const resume = resumeIdOf(request);
  if ('problem' in resume) return errorResponse('invalid_query', { nowMs, message: resume.problem });
  const stream = feedOf(deps).open(key.keyId, resume.after, { room: drainWaiter(), close: connectionCloser() });
  if (stream === 'too_many') return errorResponse('too_many_streams', { nowMs, headers: { 'Retry-After': '15' } });
  if (stream === 'stopped') return errorResponse('busy', { nowMs, headers: { 'Retry-After': '5' }, message: STREAM_STOPPED_MESSAGE });
  return new Response(stream, {
    status: 200,
    headers: {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': CACHE_NONE,
      'X-Content-Type-Options': 'nosniff',
      // a reverse proxy (nginx) must pass events on as they come, not buffer them
      'X-Accel-Buffering': 'no',
      ...corsHeaders(),
    },
  });
}
