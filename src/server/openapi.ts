import { z } from 'zod';
import { ERRORS, STREAM_STOPPED_MESSAGE, type ErrorCode } from './errors.ts';
import { DAILY_QUOTA } from './quota.ts';
import { REBUILDS_PER_CALLER_HOURLY } from './rebuilds.ts';
import { ROUTES, type RouteSpec } from './routes.ts';
import * as S from './schemas.ts';

/**
 * The OpenAPI 3.1 document of the archive (`GET /api/v1/openapi.json`), generated — never written
 * by hand — from three sources that the server itself runs on: the zod schemas of the bodies
 * (schemas.ts, through zod's `z.toJSONSchema`), the route table (routes.ts: paths and methods) and
 * the error vocabulary (errors.ts: each status lists exactly the codes an operation can answer).
 * The test suite checks every `/api/v1/*` response it receives against this document
 * (tests/helpers/conform.ts), so the document and the server cannot drift apart.
 * Pure: no I/O.
 */

type Json = Record<string, unknown>;

/** How an operation answers with success: a JSON schema (zod) or another media type. */
interface Success {
  status: number;
  description: string;
  schema?: z.ZodType | Json;
  media?: string;
  headers?: HeaderName[];
}

/** One operation of the document (a method on a path). */
interface Operation {
  route: RouteSpec;
  /** The OpenAPI path (`{param}` templates); its example must match the route's pattern. */
  path: string;
  method: 'get' | 'post';
  summary: string;
  description?: string;
  tags: string[];
  keyed: boolean;
  /** `Authorization` of the current key on rotate: keyed but never counted. */
  counted?: boolean;
  parameters?: Json[];
  success: Success[];
  /** Error codes the operation can answer (the front door's generic ones are added to all). */
  errors: ErrorCode[];
  /** Error codes whose answers carry Retry-After. */
  retryAfter?: ErrorCode[];
  /** The `message` this operation sends for a code instead of the vocabulary's (errors.ts), when it says something of its own. */
  messages?: Partial<Record<ErrorCode, string>>;
  notModified?: boolean;
  /** Also answered from disk by the static tier (nginx): its ETag may be nginx's `"<mtime>-<size>"`. */
  staticTier?: boolean;
}

/** Errors any path can answer: a request the front door cannot read, the service's own failure, and a generations node with no generation yet. */
const GENERIC_ERRORS: ErrorCode[] = ['bad_request', 'request_timeout', 'headers_too_large', 'internal', 'unavailable'];
const KEY_ERRORS: ErrorCode[] = ['missing_key', 'invalid_key', 'revoked_key'];
const QUOTA_ERRORS: ErrorCode[] = ['quota_exceeded'];

type HeaderName = 'X-Archive-Generation' | 'RateLimit' | 'RateLimit-Policy' | 'Retry-After' | 'WWW-Authenticate' | 'ETag' | 'Cache-Control' | 'Allow' | 'Location' | 'Content-Disposition' | 'Last-Modified' | 'Accept-Ranges' | 'Content-Range';

/** Response headers, by name (components.headers). */
const HEADERS: Record<HeaderName, Json> = {
  'X-Archive-Generation': {
    description:
      'On a node serving generations of the public database (API_GENERATIONS_DIR, docs/scaling.md): the generation this answer was read from. It never goes backwards on one node. Absent on a single-machine archive.',
    schema: { type: 'string', pattern: '^[1-9][0-9]*$' },
  },
  RateLimit: {
    description:
      'draft-ietf-httpapi-ratelimit-headers-10: what is left of each policy. `"daily";r=<requests left today>;t=<seconds until 00:00 UTC>`; a response that started a rebuild adds `"rebuilds";r=<starts left>;t=<seconds until one frees>`.',
    schema: { type: 'string', pattern: '^"daily";r=\\d+;t=\\d+(, "rebuilds";r=\\d+;t=\\d+)?$' },
    example: '"daily";r=9999;t=3600',
  },
  'RateLimit-Policy': {
    description: `draft-ietf-httpapi-ratelimit-headers-10: the policies. \`"daily";q=${DAILY_QUOTA};w=86400\` (requests per key per UTC day), plus \`"rebuilds";q=${REBUILDS_PER_CALLER_HOURLY};w=3600\` (rebuild starts per caller per hour) where a rebuild was started.`,
    schema: { type: 'string', pattern: '^"daily";q=\\d+;w=86400(, "rebuilds";q=\\d+;w=3600)?$' },
    example: `"daily";q=${DAILY_QUOTA};w=86400`,
  },
  'Retry-After': { description: 'Seconds to wait before asking again (RFC 9110 §10.2.3).', schema: { type: 'string', pattern: '^\\d+$' } },
  'WWW-Authenticate': { description: 'The Bearer challenge of a 401 (RFC 6750 §3): `error="invalid_token"` when a key was sent but is unknown or revoked.', schema: { type: 'string', pattern: '^Bearer ' } },
  ETag: { description: 'Strong entity tag: the sha256 (hex) of the document or file. Send it back in If-None-Match for a 304.', schema: { type: 'string', pattern: '^"[0-9a-f]{64}"$' } },
  'Cache-Control': { description: 'Records and their pages: `max-age=3600, stale-while-revalidate=86400` for a settled record, `no-store` for anything unsettled. The bulk files (`/data/*`, replaced as the archive grows) and every error: `no-store`.', schema: { type: 'string' } },
  Allow: { description: 'The methods the path answers (RFC 9110 §10.2.1).', schema: { type: 'string' } },
  Location: { description: 'Where to go next.', schema: { type: 'string' } },
  'Content-Disposition': { description: '`attachment; filename="<name>"`.', schema: { type: 'string' } },
  'Last-Modified': { description: 'When the file was written.', schema: { type: 'string' } },
  'Accept-Ranges': { description: '`bytes`: a download resumes with a Range header (RFC 9110 §14).', schema: { type: 'string', const: 'bytes' } },
  'Content-Range': { description: 'The bytes sent and the file\'s size, `bytes <first>-<last>/<size>` (206), or the size alone, `bytes */<size>` (416).', schema: { type: 'string', pattern: '^bytes (\\d+-\\d+|\\*)/\\d+$' } },
};

const pathParam = (name: string, description: string): Json => ({
  name,
  in: 'path',
  required: true,
  description,
  schema: { type: 'string', minLength: 32, maxLength: 44, pattern: '^[1-9A-HJ-NP-Za-km-z]+$' },
});
const MINT = pathParam('mint', 'Token mint address: base58, 32-44 characters, decoding to 32 bytes.');
const ADDRESS = pathParam('address', 'Wallet address: base58, 32-44 characters, decoding to 32 bytes.');
const IF_NONE_MATCH: Json = { name: 'If-None-Match', in: 'header', required: false, description: 'An ETag from an earlier answer: 304 when it still matches.', schema: { type: 'string' } };

/** A download's Range and If-Range (RFC 9110 §14.2, §13.1.5): src/server/downloads.ts `requestedRange`. */
const RANGE: Json[] = [
  { name: 'Range', in: 'header', required: false, description: 'One byte range, `bytes=<first>-[<last>]` or `bytes=-<suffix length>`: 206 with those bytes. Several ranges, another unit or a malformed header get the whole file (200); a range starting past the end, 416.', schema: { type: 'string' } },
  { name: 'If-Range', in: 'header', required: false, description: 'The ETag (or Last-Modified) of the file a resumed download started: the range only while it is still that file, else the whole new file (200). Send it when resuming: the files are replaced as the archive grows.', schema: { type: 'string' } },
];

const RATE: HeaderName[] = ['RateLimit', 'RateLimit-Policy'];

/** Every operation, route by route. The test "every route is in the document" checks the route table against it. */
export const OPERATIONS: Operation[] = [
  {
    route: ROUTES.token,
    path: '/api/v1/token/{mint}',
    method: 'get',
    summary: 'The launch record of a mint',
    description:
      'Order of checks: the path value (400), the key (401), the daily quota (429 quota_exceeded), then the record. A mint not held is rebuilt from chain: 202 while queued or running (poll after Retry-After), then 200.',
    tags: ['records'],
    keyed: true,
    parameters: [MINT, IF_NONE_MATCH],
    success: [
      { status: 200, description: 'The launch record.', schema: S.TokenRecord, headers: ['ETag', 'Cache-Control', ...RATE] },
      { status: 202, description: 'A rebuild is queued or running; ask again after Retry-After.', schema: S.RebuildInProgress, headers: ['Retry-After', 'Cache-Control', ...RATE] },
    ],
    notModified: true,
    errors: ['not_an_address', ...KEY_ERRORS, 'not_a_curve_launch', 'rebuild_failed', ...QUOTA_ERRORS, 'rate_limited', 'rebuild_budget_exhausted', 'busy'],
    retryAfter: ['quota_exceeded', 'rate_limited', 'rebuild_budget_exhausted', 'busy'],
  },
  {
    route: ROUTES.wallet,
    path: '/api/v1/wallet/{address}',
    method: 'get',
    summary: 'The wallet record of an address',
    tags: ['records'],
    keyed: true,
    parameters: [ADDRESS],
    success: [{ status: 200, description: 'The wallet record (spec §2.4).', schema: S.WalletRecord, headers: ['Cache-Control', ...RATE] }],
    errors: ['not_an_address', ...KEY_ERRORS, ...QUOTA_ERRORS],
    retryAfter: ['quota_exceeded'],
  },
  {
    route: ROUTES.tokens,
    path: '/api/v1/tokens',
    method: 'get',
    summary: 'Up to 100 token lookups at once',
    description:
      'Each distinct mint, in request order, is answered exactly as `GET /api/v1/token/{mint}` would answer it alone: its record (200), its rebuild (202, counting against the rebuild limits), or its error object (a malformed mint: `not_an_address`). Each mint counts one request, as a single call would.',
    tags: ['records'],
    keyed: true,
    parameters: [{ name: 'mints', in: 'query', required: true, description: 'Mint addresses separated by single commas (at most 100 distinct).', schema: { type: 'string' } }],
    success: [{ status: 200, description: 'One entry per distinct mint.', schema: S.TokenBatch, headers: ['Cache-Control', ...RATE] }],
    errors: ['invalid_query', 'invalid_mints', 'too_many_mints', ...KEY_ERRORS, ...QUOTA_ERRORS],
    retryAfter: ['quota_exceeded'],
  },
  {
    route: ROUTES.launches,
    path: '/api/v1/launches',
    method: 'get',
    summary: 'List the records held, or sync a mirror of them',
    description:
      'Browsing (no `since`): newest launch first; `next` is null after the last page. Syncing (`since=<slot>` to start, then `cursor=<next>`): records in the order they were written or last changed; `next` is always given, and a record changed after it was listed comes again. One page counts one request.',
    tags: ['records'],
    keyed: true,
    parameters: [
      { name: 'class', in: 'query', required: false, schema: { type: 'string', enum: ['FINDINGS', 'NOTE', 'NO_MARKERS', 'UNKNOWN'] } },
      { name: 'graduated', in: 'query', required: false, schema: { type: 'string', enum: ['true', 'false'] } },
      { name: 'creator', in: 'query', required: false, description: 'Creator wallet address.', schema: { type: 'string' } },
      { name: 'since', in: 'query', required: false, description: 'Start a sync: records created at or after this slot (0: every record); or the cursor of a sync page.', schema: { type: 'string' } },
      { name: 'cursor', in: 'query', required: false, description: 'The `next` of an earlier page, as it was given (opaque).', schema: { type: 'string' } },
      { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 50 } },
    ],
    success: [{ status: 200, description: 'A page.', schema: S.LaunchList, headers: ['Cache-Control', ...RATE] }],
    errors: ['invalid_query', 'invalid_cursor', ...KEY_ERRORS, ...QUOTA_ERRORS],
    retryAfter: ['quota_exceeded'],
  },
  {
    route: ROUTES.usage,
    path: '/api/v1/usage',
    method: 'get',
    summary: "The key's quota and the caller's rebuild starts",
    description: 'Never counted against the quota; its RateLimit fields are those of the next counted response before it is counted.',
    tags: ['keys'],
    keyed: true,
    counted: false,
    success: [{ status: 200, description: 'The usage.', schema: S.UsageReport, headers: ['Cache-Control', ...RATE] }],
    errors: [...KEY_ERRORS],
  },
  {
    route: ROUTES.stream,
    path: '/api/v1/stream',
    method: 'get',
    summary: 'The creation feed: every new or changed record, as Server-Sent Events (feed entitlement only)',
    description:
      'Only keys with the feed entitlement (a separate agreement; otherwise 403 `feed_not_in_plan`); at most 2 open streams per key (a third: 429 `too_many_streams`). Never counted against the daily quota. ' +
      'Each event: `id: <change sequence>` and one `data:` line of a StreamEvent (`#/components/schemas/StreamEvent`): `{mint, sha256, class, changed, document}`. A `: heartbeat` comment comes every 15 s. ' +
      'Resume with `Last-Event-ID` (or `?after=`): every record written or changed after that id comes first, each at its latest version, then the live events. A stream may be closed by the server (a client reading too slowly, a shutdown): connect again with the last id received.',
    tags: ['records'],
    keyed: true,
    counted: false,
    parameters: [
      { name: 'Last-Event-ID', in: 'header', required: false, description: 'The id of the last event received: the stream resumes after it.', schema: { type: 'string', pattern: '^\\d{1,15}$' } },
      { name: 'after', in: 'query', required: false, description: 'As Last-Event-ID, for clients that cannot set headers (the header wins when both are sent).', schema: { type: 'string', pattern: '^\\d{1,15}$' } },
    ],
    success: [
      {
        status: 200,
        description: 'The event stream (text/event-stream, UTF-8); it stays open. Each `data:` line is a StreamEvent.',
        media: 'text/event-stream',
        schema: { type: 'string', description: 'Server-Sent Events: `retry:`, then events (`id:`, `data:` StreamEvent JSON) and `: heartbeat` comments.' },
        headers: ['Cache-Control'],
      },
    ],
    errors: [...KEY_ERRORS, 'feed_not_in_plan', 'invalid_query', 'too_many_streams', 'busy'],
    retryAfter: ['too_many_streams', 'busy'],
    messages: { busy: STREAM_STOPPED_MESSAGE },
  },
  {
    route: ROUTES.status,
    path: '/api/v1/status',
    method: 'get',
    summary: 'What the archive holds and what it was awake for',
    tags: ['service'],
    keyed: false,
    success: [{ status: 200, description: 'The status.', schema: S.Status, headers: ['Cache-Control'] }],
    errors: [],
  },
  {
    route: ROUTES.openapi,
    path: '/api/v1/openapi.json',
    method: 'get',
    summary: 'This document (OpenAPI 3.1)',
    tags: ['service'],
    keyed: false,
    success: [{ status: 200, description: 'The OpenAPI 3.1 document.', schema: { type: 'object' } }],
    errors: [],
  },
  {
    route: ROUTES.schemas,
    path: '/api/v1/schemas/{name}',
    method: 'get',
    summary: 'JSON Schema (2020-12) of a published record',
    description: '`launch.json`: the launch document (`/d/{mint}`). `wallet.json`: the wallet record without its envelope.',
    tags: ['service'],
    keyed: false,
    parameters: [{ name: 'name', in: 'path', required: true, schema: { type: 'string', enum: ['launch.json', 'wallet.json'] } }],
    success: [{ status: 200, description: 'A JSON Schema.', schema: { type: 'object' }, media: 'application/schema+json' }],
    errors: ['not_found'],
  },
  {
    route: ROUTES.rotate,
    path: '/api/v1/keys/rotate',
    method: 'post',
    summary: 'Rotate the key sent: a new key, shown once; the key sent is revoked',
    description: 'Not counted against the quota; today\'s count carries over to the new key. At most 10 rotations a minute from one caller address (429 `rate_limited`, Retry-After).',
    tags: ['keys'],
    keyed: true,
    counted: false,
    success: [{ status: 200, description: 'The new key.', schema: S.RotatedKey, headers: ['Cache-Control', ...RATE] }],
    errors: [...KEY_ERRORS, 'rate_limited', 'payload_too_large'],
    retryAfter: ['rate_limited'],
  },
  {
    route: ROUTES.document,
    path: '/d/{mint}',
    method: 'get',
    summary: 'The canonical launch document as captured',
    description:
      'Canonical JSON (keys sorted, no whitespace); from the server its sha256 is the ETag. Through the static tier (nginx, docs/scaling.md) the file is sent from disk with nginx\'s ETag (`"<mtime hex>-<size hex>"`); either answers its own tag with 304, and the sha256 of the body is the same.',
    tags: ['records'],
    keyed: false,
    staticTier: true,
    parameters: [MINT, IF_NONE_MATCH],
    success: [{ status: 200, description: 'The launch document.', schema: S.LaunchDocument, headers: ['ETag', 'Cache-Control'] }],
    notModified: true,
    errors: ['not_an_address', 'not_found'],
  },
  ...(['recordDb', 'documentsNdjson'] as const).map(
    (name): Operation => ({
      route: ROUTES[name],
      path: name === 'recordDb' ? '/data/record.db' : '/data/documents.ndjson.gz',
      method: 'get',
      summary: name === 'recordDb' ? 'The public record database (SQLite)' : 'Every launch document held (gzip NDJSON: {mint, sha256, document} a line)',
      tags: ['bulk'],
      keyed: true,
      parameters: [IF_NONE_MATCH, ...RANGE],
      success: [
        {
          status: 200,
          description: 'The file.',
          media: name === 'recordDb' ? 'application/vnd.sqlite3' : 'application/gzip',
          headers: ['ETag', 'Cache-Control', 'Last-Modified', 'Content-Disposition', 'Accept-Ranges', ...RATE],
        },
        {
          status: 206,
          description: 'The bytes of the one range asked for (Range), of the file the ETag names.',
          media: name === 'recordDb' ? 'application/vnd.sqlite3' : 'application/gzip',
          headers: ['ETag', 'Cache-Control', 'Last-Modified', 'Content-Disposition', 'Accept-Ranges', 'Content-Range', ...RATE],
        },
      ],
      notModified: true,
      errors: [...KEY_ERRORS, ...QUOTA_ERRORS, 'not_found', 'range_not_satisfiable'],
      retryAfter: ['quota_exceeded'],
    }),
  ),
  {
    route: ROUTES.tokenPage,
    path: '/t/{file}',
    method: 'get',
    summary: 'The public token page (`/t/{mint}.html`; `/t/{mint}` redirects to it) and its first-30-seconds page (`/t/{mint}.early.html`)',
    tags: ['pages'],
    keyed: false,
    parameters: [
      {
        name: 'file',
        in: 'path',
        required: true,
        description:
          '`{mint}.html`, or `{mint}` (308 to the page); or `{mint}.early.html`: every first-30-s buyer and the buyer timeline as a table, held for a launch with more than 25 first-30-s buyers or 20 trades in its timeline (its token page links it).',
        schema: { type: 'string' },
      },
    ],
    success: [
      { status: 200, description: 'The page.', media: 'text/html', headers: ['ETag', 'Cache-Control'] },
      { status: 308, description: '`/t/{mint}` → `/t/{mint}.html`.', headers: ['Location'] },
      { status: 400, description: 'Not an address (HTML page).', media: 'text/html' },
      { status: 404, description: 'No record held, or (`.early.html`) a launch whose token page holds all its first 30 s (HTML page).', media: 'text/html' },
    ],
    notModified: true,
    errors: [],
  },
  {
    route: ROUTES.walletPage,
    path: '/w/{file}',
    method: 'get',
    summary: 'The public creator page of a wallet (`/w/{address}.html`)',
    description: 'The launches the wallet created, the curves it bought out, and its bundled and first-30-s buys, each linked to its token page.',
    tags: ['pages'],
    keyed: false,
    parameters: [{ name: 'file', in: 'path', required: true, description: '`{address}.html`.', schema: { type: 'string' } }],
    success: [
      { status: 200, description: 'The page.', media: 'text/html', headers: ['Cache-Control'] },
      { status: 308, description: '`/w/{address}` → `/w/{address}.html`.', headers: ['Location'] },
      { status: 400, description: 'Not an address (HTML page).', media: 'text/html' },
      { status: 404, description: 'A wallet the archive has not seen (HTML page saying so).', media: 'text/html' },
    ],
    errors: [],
  },
  {
    route: ROUTES.search,
    path: '/search',
    method: 'get',
    summary: 'Search by mint, creator wallet, name or symbol (public; rate-limited per caller)',
    description: 'A held mint: 302 to its page; a creator wallet: 302 to its creator page; an unheld address: a page saying its provenance is unknown (404); otherwise name or symbol prefix results.',
    tags: ['pages'],
    keyed: false,
    parameters: [{ name: 'q', in: 'query', required: false, description: 'A mint, a wallet address, or words of a name or symbol (at most 200 characters).', schema: { type: 'string' } }],
    success: [
      { status: 200, description: 'Results (or tips for an empty query).', media: 'text/html', headers: ['Cache-Control'] },
      { status: 302, description: 'To the token page or the creator page.', headers: ['Location'] },
      { status: 400, description: 'A query that cannot be searched (HTML page saying why).', media: 'text/html' },
      { status: 404, description: 'An address the archive holds no record of (HTML page).', media: 'text/html' },
      { status: 429, description: 'Too many searches from this caller (HTML page).', media: 'text/html', headers: ['Retry-After'] },
    ],
    errors: [],
  },
  ...(['listPage', 'statusPage', 'methodologyPage', 'apiDocPage'] as const).map(
    (name): Operation => ({
      route: ROUTES[name],
      path: { listPage: '/lists/{list}/{file}', statusPage: '/status.html', methodologyPage: '/methodology.html', apiDocPage: '/api.html' }[name],
      method: 'get',
      summary: { listPage: 'A page of a public list (latest, graduated, findings): `/lists/{list}/{n}.html`', statusPage: 'The status in words', methodologyPage: 'The methodology', apiDocPage: 'This API\'s reference (docs/api.md) as a page' }[name],
      tags: ['pages'],
      keyed: false,
      parameters:
        name === 'listPage'
          ? [
              { name: 'list', in: 'path', required: true, description: '`latest`, `graduated` or `findings`.', schema: { type: 'string' } },
              { name: 'file', in: 'path', required: true, description: '`{n}.html`, n from 1.', schema: { type: 'string' } },
            ]
          : [],
      success: [
        { status: 200, description: 'The page.', media: 'text/html', headers: ['Cache-Control'] },
        ...(name === 'listPage' ? [{ status: 404, description: 'No such list page (HTML page).', media: 'text/html' }] : []),
      ],
      errors: [],
    }),
  ),
  ...(['index', 'pricing', 'success'] as const).map(
    (name): Operation => ({
      route: ROUTES[name],
      path: name === 'index' ? '/' : name === 'pricing' ? '/pricing' : '/billing/success',
      method: 'get',
      summary: name === 'index' ? 'The front page' : name === 'pricing' ? 'The plan and its Subscribe button' : 'After payment: the new key, shown once',
      tags: ['pages'],
      keyed: false,
      parameters: name === 'success' ? [{ name: 'session_id', in: 'query', required: false, schema: { type: 'string' } }] : [],
      success: [
        { status: 200, description: 'The page.', media: 'text/html' },
        ...(name === 'success' ? [202, 400, 404, 502, 503].map((status) => ({ status, description: 'A page saying what happened.', media: 'text/html' })) : []),
      ],
      errors: [],
    }),
  ),
  {
    route: ROUTES.checkout,
    path: '/billing/checkout',
    method: 'post',
    summary: 'The Subscribe button: 303 to the payment processor',
    tags: ['pages'],
    keyed: false,
    success: [
      { status: 303, description: 'To the hosted checkout.', headers: ['Location'] },
      ...[502, 503].map((status) => ({ status, description: 'A page saying what happened.', media: 'text/html' })),
    ],
    errors: [],
  },
  {
    route: ROUTES.webhook,
    path: '/billing/webhook',
    method: 'post',
    summary: "The payment processor's events (signed)",
    tags: ['billing'],
    keyed: false,
    success: [{ status: 200, description: 'Received.', schema: z.object({ received: z.literal(true), duplicate: z.boolean() }) }],
    errors: ['invalid_signature', 'invalid_event', 'billing_not_configured', 'payload_too_large'],
  },
];

/**
 * zod's string checks that JSON Schema has no format for (`startsWith`, `endsWith`, `includes`)
 * come out as `format: "starts_with"` (etc.) beside the `pattern` that says the same: an unknown
 * format a client's validator warns about and ignores. Left out; the pattern stays.
 */
const NOT_JSON_SCHEMA_FORMATS = new Set(['starts_with', 'ends_with', 'includes']);
const standardFormats = (ctx: { jsonSchema: Record<string, unknown> }): void => {
  if (typeof ctx.jsonSchema.format === 'string' && NOT_JSON_SCHEMA_FORMATS.has(ctx.jsonSchema.format)) delete ctx.jsonSchema.format;
};

/** JSON Schema of a zod schema, with named schemas as `$ref`s into components. */
function jsonSchemaOf(schema: z.ZodType | Json): Json {
  if (!(schema instanceof z.ZodType)) return schema;
  const id = S.registry.get(schema)?.id;
  if (id) return { $ref: `#/components/schemas/${id}` };
  return strip(z.toJSONSchema(schema, { target: 'draft-2020-12', unrepresentable: 'throw', override: standardFormats }) as Json);
}

function strip(s: Json): Json {
  const { $schema: _s, $id: _i, ...rest } = s;
  return rest;
}

/** The error response of one status: the Error schema with `error` narrowed to the operation's codes at that status. */
function errorContent(codes: ErrorCode[]): Json {
  return {
    'application/json': {
      schema: { allOf: [{ $ref: '#/components/schemas/Error' }, { type: 'object', properties: { error: { enum: codes } } }] },
    },
  };
}

function headersOfNames(names: HeaderName[] = []): Json | undefined {
  if (names.length === 0) return undefined;
  return Object.fromEntries(names.map((n) => [n, { ...HEADERS[n], required: true }]));
}

/** Headers of a response plus the optional `X-Archive-Generation` every answer of a generations node carries. */
function withGeneration(headers: Json | undefined): Json {
  return { ...(headers ?? {}), 'X-Archive-Generation': HEADERS['X-Archive-Generation'] };
}

/** The ETag of a path the static tier also answers: the server's sha256, or nginx's `"<mtime hex>-<size hex>"`. */
const STATIC_ETAG: Json = {
  description: 'Strong entity tag: from the server the sha256 (hex) of the bytes; from the static tier (nginx) `"<mtime hex>-<size hex>"`. Send it back in If-None-Match for a 304.',
  schema: { type: 'string', pattern: '^"([0-9a-f]{64}|[0-9a-f]+-[0-9a-f]+)"$' },
  required: true,
};

/** The ETag of a page (HTML): the sha256 of its bytes, made weak when the page is sent compressed (src/server/compress.ts). */
const PAGE_ETAG: Json = {
  description: 'Entity tag: the sha256 (hex) of the page\'s bytes; weak (`W/"…"`) when the page is sent compressed (`Content-Encoding`). Send it back in If-None-Match for a 304 (compared weakly).',
  schema: { type: 'string', pattern: '^(W/)?"[0-9a-f]{64}"$' },
  required: true,
};

/** Error statuses a counted keyed request can get after its key was checked and counted: they carry the rate-limit fields. */
const AFTER_ADMISSION = new Set([404, 416, 429, 500, 503]);

function operationObject(op: Operation): Json {
  const page = op.success.some((s) => s.media === 'text/html' && s.headers?.includes('ETag'));
  const headersOf = (names: HeaderName[] = []) => {
    const h = headersOfNames(names);
    if (!h || !('ETag' in h)) return h;
    return op.staticTier ? { ...h, ETag: STATIC_ETAG } : page ? { ...h, ETag: PAGE_ETAG } : h;
  };
  const responses: Record<string, Json> = {};
  for (const s of op.success) {
    responses[String(s.status)] = {
      description: s.description,
      headers: withGeneration(headersOf(s.headers)),
      ...(s.schema ? { content: { [s.media ?? 'application/json']: { schema: jsonSchemaOf(s.schema) } } } : s.media ? { content: { [s.media]: {} } } : {}),
    };
  }
  // a keyed request that is counted carries the rate-limit fields on every answer after the key check (a 304, a 404 finding, a 503), not only on a 429
  const counted = op.keyed && op.counted !== false;
  if (op.notModified) responses['304'] = { description: 'Not modified: the If-None-Match ETag still matches (no body).', headers: withGeneration(headersOf(['ETag', 'Cache-Control', ...(counted ? RATE : [])])) };
  // `unavailable` (in GENERIC_ERRORS) answers every operation when a node cannot reach the private
  // state (cluster mode) or has no generation yet; it always carries Retry-After
  const errors = [...new Set([...op.errors, ...GENERIC_ERRORS])];
  const retryAfter = [...(op.retryAfter ?? []), 'unavailable' as ErrorCode];
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errors) byStatus.set(ERRORS[code].status, [...(byStatus.get(ERRORS[code].status) ?? []), code]);
  for (const [status, codes] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    const retry = codes.some((c) => retryAfter.includes(c));
    // answers after the key check and the count (a 404 finding, 429, a 500, a 503); 400, 401, 408 and 431 come before it
    const rated = counted && AFTER_ADMISSION.has(status);
    responses[String(status)] = {
      description: codes.map((c) => `\`${c}\`: ${op.messages?.[c] ?? ERRORS[c].message}`).join('\n\n'),
      headers: withGeneration({ ...(retry ? { 'Retry-After': { ...HEADERS['Retry-After'], required: true } } : {}), ...(status === 401 ? { 'WWW-Authenticate': { ...HEADERS['WWW-Authenticate'], required: true } } : {}), ...(status === 416 ? { 'Content-Range': { ...HEADERS['Content-Range'], required: true } } : {}), ...(rated ? { RateLimit: HEADERS.RateLimit, 'RateLimit-Policy': HEADERS['RateLimit-Policy'] } : {}) }),
      content: errorContent(codes),
    };
  }
  return {
    operationId: `${op.method}${op.route.name[0]!.toUpperCase()}${op.route.name.slice(1)}`,
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    tags: op.tags,
    ...(op.parameters?.length ? { parameters: op.parameters } : {}),
    security: op.keyed ? [{ bearer: [] }] : [],
    responses,
  };
}

/** The `components.schemas` of the document: every named zod schema (schemas.ts). */
export function componentSchemas(): Record<string, Json> {
  const out = z.toJSONSchema(S.registry, { target: 'draft-2020-12', uri: (id) => `#/components/schemas/${id}`, override: standardFormats }) as { schemas: Record<string, Json> };
  return Object.fromEntries(Object.entries(out.schemas).map(([k, v]) => [k, strip(v)]));
}

/**
 * `schema` with every `additionalProperties: false` taken out (other `additionalProperties`, the
 * maps', kept): objects open to members added later (spec §9: fields are only ever added), so a
 * validator or client generated from a published description accepts the next additive release.
 * The document has no `oneOf` a closed object would disambiguate. Pure: returns a copy.
 */
export function opened<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map(opened) as T;
  if (schema === null || typeof schema !== 'object') return schema;
  return Object.fromEntries(Object.entries(schema).filter(([k, v]) => !(k === 'additionalProperties' && v === false)).map(([k, v]) => [k, opened(v)])) as T;
}

/** How a description is made: `closed` keeps zod's `additionalProperties: false` (the test suite's check, tests/helpers/conform.ts, refuses any member not described); served descriptions are open ({@link opened}). */
export interface DescriptionOptions {
  closed?: boolean;
}

/**
 * The OpenAPI 3.1 document, with `baseUrl` (PUBLIC_BASE_URL) as its server: open objects unless
 * `closed` ({@link DescriptionOptions}).
 * @example openApiDocument('https://archive.example').openapi // '3.1.0'
 */
export function openApiDocument(baseUrl: string, options: DescriptionOptions = {}): Json {
  const doc = describeApi(baseUrl);
  return options.closed ? doc : opened(doc);
}

function describeApi(baseUrl: string): Json {
  const paths: Record<string, Json> = {};
  for (const op of OPERATIONS) {
    const item = (paths[op.path] ??= {});
    item[op.method] = operationObject(op);
  }
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'Launch-Provenance Archive API',
      version: 'v1',
      summary: 'A read-only JSON interface to an archive of pump.fun token launches: one record per launch, with the evidence behind it.',
      description:
        'Branch on `finding.class`; every error also carries `finding.class: "UNKNOWN"`. Absence of a record is not a clean record, and `cleanAtBirth: null` must not be rendered as clean. ' +
        'Every path also answers HEAD (as its GET, no body) and OPTIONS (CORS preflight, 204); any other method gets 405 `method_not_allowed` with `Allow`. ' +
        'CORS is open to every origin, but a key belongs on your server. Documentation: docs/api.md.',
    },
    servers: [{ url: baseUrl }],
    security: [],
    tags: [
      { name: 'records', description: 'Launch and wallet records.' },
      { name: 'bulk', description: 'Bulk downloads.' },
      { name: 'keys', description: 'Key management.' },
      { name: 'service', description: 'The service itself.' },
      { name: 'pages', description: 'HTML pages.' },
      { name: 'billing', description: 'Subscriptions.' },
    ],
    paths,
    components: {
      schemas: componentSchemas(),
      headers: HEADERS,
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: '`Authorization: Bearer lpa_…` — from your server, never from browser code.' } },
    },
  };
}

/** Published JSON Schemas (`/api/v1/schemas/{name}`), by file name. */
export const PUBLISHED_SCHEMAS = { 'launch.json': S.LaunchDocument, 'wallet.json': S.WalletData } as const;

/**
 * A published JSON Schema (2020-12), standalone (shared parts under `$defs`), with its URL as `$id`.
 * @example publishedSchema('https://archive.example', 'launch.json')?.title // 'LaunchDocument'
 */
export function publishedSchema(baseUrl: string, name: string, options: DescriptionOptions = {}): Json | null {
  if (!Object.hasOwn(PUBLISHED_SCHEMAS, name)) return null;
  const schema = PUBLISHED_SCHEMAS[name as keyof typeof PUBLISHED_SCHEMAS];
  const meta = S.registry.get(schema)!;
  const out = z.toJSONSchema(schema, { target: 'draft-2020-12', metadata: S.registry, override: standardFormats }) as Json;
  const published = { $schema: 'https://json-schema.org/draft/2020-12/schema', $id: `${baseUrl}/api/v1/schemas/${name}`, title: meta.id, description: meta.description, ...strip(out) };
  return options.closed ? published : opened(published);
}
