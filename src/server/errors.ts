import { instant } from '../core/canonical.ts';
import { addressProblem, corsHeaders, replyResponse, type Reply } from './http.ts';

/**
 * The archive's one error vocabulary (spec §7). Codes are permanent: never renamed, removed or
 * repurposed (spec §9 rule 2). Each states what happened, why, and what the caller can do.
 * `finding` is what a client that reads only `finding.class` sees: always UNKNOWN.
 */
export const ERRORS = {
  not_an_address: {
    status: 400,
    label: 'Not an address',
    message: 'The path value is not an address: it must be base58 of 32-44 characters. Check the value you sent; nothing was looked up.',
    why: 'The request did not name a valid address, so nothing about any token or wallet was checked.',
  },
  missing_key: {
    status: 401,
    label: 'No key',
    message: 'This endpoint needs an API key and the request carried none. Send it as "Authorization: Bearer <API_KEY>" from your server.',
    why: 'No key was sent, so no record was looked up.',
  },
  invalid_key: {
    status: 401,
    label: 'Key not recognised',
    message: 'The API key on the request is not recognised. Check it was copied whole (keys start with "lpa_"), or create a new one.',
    why: 'The key was not recognised, so no record was looked up.',
  },
  revoked_key: {
    status: 401,
    label: 'Key revoked',
    message: 'The API key on the request has been revoked. Use another key from your account.',
    why: 'The key was revoked, so no record was looked up.',
  },
  not_a_curve_launch: {
    status: 404,
    label: 'Not a curve launch',
    message: 'No launchpad bonding curve exists for this address: the curve account does not exist and has no transaction history. This is a finding, not a failure; retrying will not change it. (Addresses are case-sensitive: a mint copied with its letters changed, such as lowercased, is another address.)',
    why: 'The chain shows no bonding curve for this address; the archive holds no launch record for it and has nothing to say about the token beyond that.',
  },
  rebuild_failed: {
    status: 404,
    label: 'Rebuild failed',
    message: "Reconstructing this launch from chain failed because a chain read failed. This is the service's failure and says nothing about the token. Try again later.",
    why: 'The launch could not be reconstructed, so its provenance is unknown, not clean.',
  },
  quota_exceeded: {
    status: 429,
    label: 'Daily quota used',
    message: "This key's daily request quota is used. It resets at 00:00 UTC (see Retry-After); larger volumes need a data agreement.",
    why: 'The request was refused for quota, so no record was looked up.',
  },
  rate_limited: {
    status: 429,
    label: 'Too many rebuilds',
    message: 'Too many rebuilds were started from your address this hour. Wait (see Retry-After) before asking for more unarchived launches; records already held are unaffected.',
    why: 'The rebuild was not started, so the provenance of this launch is unknown, not clean.',
  },
  rebuild_budget_exhausted: {
    status: 503,
    label: 'Rebuild budget used',
    message: "Today's service-wide rebuild ceiling is reached; only new reconstructions are paused. Records already held are served as usual. Try again after 00:00 UTC.",
    why: 'The rebuild was not started, so the provenance of this launch is unknown, not clean.',
  },
  busy: {
    status: 503,
    label: 'Not available yet',
    message: 'The archive holds no record for this mint yet and cannot build or check one right now. Try again after Retry-After seconds.',
    why: 'No record is held and none could be established now: the provenance of this launch is unknown, not clean.',
  },
  not_found: {
    status: 404,
    label: 'Not found',
    message: 'Nothing is served at this path: check it against the API documentation (a record is GET /api/v1/token/{mint}, singular; many are GET /api/v1/tokens?mints=…). Nothing was looked up.',
    why: 'Nothing is held here, so nothing about any token is established.',
  },
  invalid_signature: {
    status: 400,
    label: 'Signature not verified',
    message: 'The payment webhook was refused: its Stripe-Signature header is missing, malformed, too old, or does not match the body under the endpoint secret. Nothing was changed.',
    why: 'This is a payment notification, not a record; nothing about any token was looked up.',
  },
  billing_not_configured: {
    status: 503,
    label: 'Subscriptions not configured',
    message: 'Subscriptions are not configured on this archive (STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET and STRIPE_PRICE_ID are unset). Nothing was changed.',
    why: 'This is a payment request, not a record; nothing about any token was looked up.',
  },
  internal: {
    status: 500,
    label: 'Internal error',
    message: "An unexpected error occurred in the service. It says nothing about the token. Try again later; if it persists, report it to the operator.",
    why: "The service failed before establishing anything about the token.",
  },
  bad_request: {
    status: 400,
    label: 'Bad request',
    message: 'The request could not be read as HTTP/1.1: its request line, a header line or its URL is malformed (for example malformed percent-encoding in the path or query, a target that is not a path, or a method not in capitals). Check the request you sent; nothing was looked up.',
    why: 'The request could not be read, so nothing about any token was checked.',
  },
  method_not_allowed: {
    status: 405,
    label: 'Method not allowed',
    message: 'This path does not answer this HTTP method. The Allow header lists the methods it answers (the API is read-only GET, except POST /api/v1/keys/rotate).',
    why: 'The request used a method this path does not answer, so nothing about any token was checked.',
  },
  payload_too_large: {
    status: 413,
    label: 'Body too large',
    message: 'The request body is larger than this path accepts (see the API documentation for each limit). It was refused before it was read; nothing was changed.',
    why: 'The request was refused for its size, so nothing about any token was checked.',
  },
  invalid_event: {
    status: 400,
    label: 'Event not understood',
    message: 'The payment webhook was refused: its signature is valid but the event is not JSON or lacks the fields its type needs. Nothing was recorded or changed.',
    why: 'This is a payment notification, not a record; nothing about any token was looked up.',
  },
  headers_too_large: {
    status: 431,
    label: 'Headers too large',
    message: 'The request headers are larger than the server reads (16 KB in all). Nothing was looked up; the connection is closed.',
    why: 'The request could not be read, so nothing about any token was checked.',
  },
  request_timeout: {
    status: 408,
    label: 'Request too slow',
    message: 'The request did not arrive in time (headers within 10 s, the whole request within 30 s). Nothing was looked up; the connection is closed.',
    why: 'The request could not be read, so nothing about any token was checked.',
  },
  invalid_query: {
    status: 400,
    label: 'Query not understood',
    message: 'A query parameter has a value this endpoint does not accept (the message names it). Check the request against the API documentation; nothing was looked up.',
    why: 'The request could not be understood, so nothing about any token was checked.',
  },
  invalid_cursor: {
    status: 400,
    label: 'Cursor not understood',
    message: 'The cursor is not one this archive issued (it is opaque: send back exactly the `next` value of an earlier page). Nothing was looked up.',
    why: 'The request could not be understood, so nothing about any token was checked.',
  },
  too_many_mints: {
    status: 400,
    label: 'Too many mints',
    message: 'The mints parameter lists more than 100 distinct mints. Split the list into requests of at most 100; nothing was looked up.',
    why: 'The request was refused for its size, so nothing about any token was checked.',
  },
  invalid_mints: {
    status: 400,
    label: 'Mints list not understood',
    message: 'The mints parameter is missing or empty, or its list is malformed (mints are separated by single commas, with no spaces and no empty entries). Nothing was looked up.', // the batch's own messages name which (tokens-batch.ts parseMints)
    why: 'The request could not be understood, so nothing about any token was checked.',
  },
  feed_not_in_plan: {
    status: 403,
    label: 'Feed not in plan',
    message:
      "This key may not open the creation feed: the live feed is not part of the 10,000-a-day plan but is offered under a separate (enterprise) data agreement. Ask the archive's operator for one at the contact address on its home page; once agreed, the operator grants the feed to your key. Your other endpoints are unaffected.",
    why: 'The feed was not opened, so nothing about any token was sent.',
  },
  too_many_streams: {
    status: 429,
    label: 'Too many streams',
    message:
      'This key already has 2 creation feed streams open, the most it may hold at once. Close one (or wait until a dropped one is noticed, at most a heartbeat) before opening another; one stream carries every record.',
    why: 'The stream was not opened, so nothing about any token was sent.',
  },
  unavailable: {
    status: 503,
    label: 'Temporarily unavailable',
    message: "This API node cannot answer just now: it cannot reach the archive's key and quota database (cluster mode), or it has no verified copy of the public database yet (API_GENERATIONS_DIR). Nothing was counted. Try again after Retry-After seconds; another node may answer now, and public pages are still served.",
    why: 'The request could not be checked, so no record was looked up: the provenance of this launch is unknown, not clean.',
  },
  range_not_satisfiable: {
    status: 416,
    label: 'Range not satisfiable',
    message: 'The Range header asks for bytes past the end of this file (its size is in Content-Range: "bytes */<size>"). The file may have been replaced by a newer, smaller one: start the download again without Range, or with If-Range set to the ETag you started with. Nothing was sent.',
    why: 'This is a bulk download, not a record; nothing about any token was sent.',
  },
} as const satisfies Record<string, { status: number; label: string; message: string; why: string }>;

/** `busy` from `/api/v1/stream` (stream.ts): the server is stopping, so the creation feed opens no new stream. */
export const STREAM_STOPPED_MESSAGE = 'The server is shutting down and opens no new stream. Connect again after Retry-After seconds with Last-Event-ID.';

/** A permanent error code (spec §7 plus `not_found`, `invalid_signature`, `billing_not_configured`, `internal`, `bad_request`, `method_not_allowed`, `payload_too_large`, `invalid_event`, `headers_too_large`, `request_timeout`, `invalid_query`, `invalid_cursor`, `too_many_mints`, `invalid_mints`, `feed_not_in_plan`, `too_many_streams`, `unavailable`, `range_not_satisfiable`). */
export type ErrorCode = keyof typeof ERRORS;

/** Every error code, in declaration order (for docs and tests). */
export const ERROR_CODES = Object.keys(ERRORS) as ErrorCode[];

/** JSON body of every error response. */
export interface ErrorBody {
  apiVersion: 'v1';
  error: ErrorCode;
  message: string;
  finding: { class: 'UNKNOWN'; label: string; why: string };
  generatedAt: { ms: number; iso: string };
}

/** The error body for a code, generated at `nowMs`. */
export function errorBody(code: ErrorCode, nowMs: number = Date.now()): ErrorBody {
  const e = ERRORS[code];
  return {
    apiVersion: 'v1',
    error: code,
    message: e.message,
    finding: { class: 'UNKNOWN', label: e.label, why: e.why },
    generatedAt: instant(nowMs),
  };
}

/**
 * The one place an error code becomes an HTTP response: JSON body, `Cache-Control: no-store`, CORS.
 * @example errorResponse('missing_key') // 401 {"apiVersion":"v1","error":"missing_key",…}
 */
export function errorResponse(
  code: ErrorCode,
  opts: { nowMs?: number; headers?: Record<string, string>; message?: string } = {},
): Response {
  return replyResponse(errorReply(code, opts));
}

/** {@link errorResponse} as a {@link Reply} (for answers combined into one response: the batch). */
export function errorReply(
  code: ErrorCode,
  opts: { nowMs?: number; headers?: Record<string, string>; message?: string } = {},
): Reply {
  const body = errorBody(code, opts.nowMs);
  if (opts.message) body.message = opts.message;
  // the wait in the body too: a batch entry has no header fields of its own (an API reviewer read "see Retry-After" where none was)
  const wait = opts.headers?.['Retry-After'];
  if (wait !== undefined) body.message = body.message.replace('(see Retry-After)', `(in ${wait} s)`);
  return {
    status: ERRORS[code].status,
    body: JSON.stringify(body),
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
      ...corsHeaders(),
      ...(ERRORS[code].status === 401 ? { 'WWW-Authenticate': wwwAuthenticate(code) } : {}),
      ...opts.headers,
    },
  };
}

/**
 * The challenge of a 401 (RFC 9110 §11.6.1: a 401 carries one): the Bearer scheme of RFC 6750 §3,
 * with `error="invalid_token"` when a key was sent but is not valid (unknown or revoked).
 */
function wwwAuthenticate(code: ErrorCode): string {
  return code === 'missing_key' ? 'Bearer realm="api"' : 'Bearer realm="api", error="invalid_token"';
}

/**
 * 400 `not_an_address` for a path value, its message saying what is wrong with it (length,
 * alphabet, or not 32 bytes decoded: {@link addressProblem}).
 * @example notAnAddress('abc').status // 400
 */
export function notAnAddress(value: string | undefined, nowMs?: number): Response {
  return replyResponse(notAnAddressReply(value, nowMs));
}

/** {@link notAnAddress} as a {@link Reply}. */
export function notAnAddressReply(value: string | undefined, nowMs?: number, subject?: string): Reply {
  return errorReply('not_an_address', { nowMs, message: addressProblem(value, subject) ?? undefined });
}
