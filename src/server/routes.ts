/**
 * The archive's route table: every path the server answers, the methods it answers there, how
 * its errors look (the API's JSON vocabulary or a small HTML page), the largest request body it
 * accepts, and whether its answers carry CORS. The front door (front-door.ts) reads it for
 * requests Astro cannot take (TRACE, undecodable paths, oversized bodies); each route file's
 * method set comes from it (methods.ts), so `Allow` and the routes cannot disagree.
 * Pure: no I/O. Limits: README "Security".
 */

/** Methods a route can be written for; HEAD and OPTIONS follow from them (methods.ts). */
export type RouteMethod = 'GET' | 'POST';

/** Largest body of any request the route table does not raise (a GET's body is ignored). */
export const DEFAULT_BODY_LIMIT_BYTES = 16 * 1024;
/** Largest body of `POST /billing/webhook`: Stripe's events are a few KB. */
export const WEBHOOK_BODY_LIMIT_BYTES = 64 * 1024;

export interface RouteSpec {
  /** Short name, for tests and logs. */
  name: string;
  /** Matches the raw (still percent-encoded) pathname; a trailing slash is allowed (Astro's `trailingSlash: 'ignore'`). */
  pattern: RegExp;
  /** Methods with a handler; empty for the catch-alls (every method answers 404 there). */
  methods: readonly RouteMethod[];
  /** `json`: the API's error body (errors.ts); `html`: a small page. */
  errors: 'json' | 'html';
  /** Largest request body accepted, bytes (Content-Length checked first, then streamed bytes counted). */
  maxBodyBytes: number;
  /** CORS headers on its answers: every path but the page that shows a new key. */
  cors: boolean;
}

const path = (p: string) => new RegExp(`^${p}/?$`);
const route = (name: string, pattern: RegExp, methods: RouteMethod[], errors: 'json' | 'html', extra: Partial<RouteSpec> = {}): RouteSpec => ({
  name,
  pattern,
  methods,
  errors,
  maxBodyBytes: DEFAULT_BODY_LIMIT_BYTES,
  cors: true,
  ...extra,
});

/** Every route, by name. The order of {@link ROUTE_LIST} is the order of matching. */
export const ROUTES = {
  token: route('token', path('/api/v1/token/[^/]+'), ['GET'], 'json'),
  wallet: route('wallet', path('/api/v1/wallet/[^/]+'), ['GET'], 'json'),
  status: route('status', path('/api/v1/status'), ['GET'], 'json'),
  rotate: route('rotate', path('/api/v1/keys/rotate'), ['POST'], 'json'),
  tokens: route('tokens', path('/api/v1/tokens'), ['GET'], 'json'),
  launches: route('launches', path('/api/v1/launches'), ['GET'], 'json'),
  usage: route('usage', path('/api/v1/usage'), ['GET'], 'json'),
  stream: route('stream', path('/api/v1/stream'), ['GET'], 'json'),
  openapi: route('openapi', path('/api/v1/openapi\\.json'), ['GET'], 'json'),
  schemas: route('schemas', path('/api/v1/schemas/[^/]+'), ['GET'], 'json'),
  apiUnknown: route('apiUnknown', /^\/api(\/|$)/, [], 'json'),
  document: route('document', path('/d/[^/]+'), ['GET'], 'json'),
  recordDb: route('recordDb', path('/data/record\\.db'), ['GET'], 'json'),
  documentsNdjson: route('documentsNdjson', path('/data/documents\\.ndjson\\.gz'), ['GET'], 'json'),
  // any other path under /d and /data: a JSON 404 as the documents and downloads answer (a download script's typo gets JSON, not a page)
  dataUnknown: route('dataUnknown', /^\/(?:d|data)(\/|$)/, [], 'json'),
  tokenPage: route('tokenPage', path('/t/[^/]+'), ['GET'], 'html'),
  walletPage: route('walletPage', path('/w/[^/]+'), ['GET'], 'html'),
  index: route('index', /^\/$/, ['GET'], 'html'),
  listPage: route('listPage', path('/lists/[^/]+/[^/]+'), ['GET'], 'html'),
  search: route('search', path('/search'), ['GET'], 'html'),
  statusPage: route('statusPage', path('/status\\.html'), ['GET'], 'html'),
  methodologyPage: route('methodologyPage', path('/methodology\\.html'), ['GET'], 'html'),
  apiDocPage: route('apiDocPage', path('/api\\.html'), ['GET'], 'html'),
  pricing: route('pricing', path('/pricing'), ['GET'], 'html'),
  checkout: route('checkout', path('/billing/checkout'), ['POST'], 'html'),
  success: route('success', path('/billing/success'), ['GET'], 'html', { cors: false }),
  webhook: route('webhook', path('/billing/webhook'), ['POST'], 'json', { maxBodyBytes: WEBHOOK_BODY_LIMIT_BYTES }),
  unknown: route('unknown', /^/, [], 'html'),
} as const satisfies Record<string, RouteSpec>;

export const ROUTE_LIST: readonly RouteSpec[] = Object.values(ROUTES);

/** The route of a raw pathname (the catch-alls when no route names it). */
export function routeFor(pathname: string): RouteSpec {
  return ROUTE_LIST.find((r) => r.pattern.test(pathname)) ?? ROUTES.unknown;
}

/**
 * The `Allow` value of a route (RFC 9110 §10.2.1): its methods, HEAD with GET, and OPTIONS.
 * @example allowOf(ROUTES.rotate) // 'POST, OPTIONS'
 */
export function allowOf(spec: RouteSpec): string {
  const m: string[] = [...spec.methods];
  if (spec.methods.includes('GET')) m.splice(1, 0, 'HEAD');
  return [...m, 'OPTIONS'].join(', ');
}

/** The largest body a request of `method` may carry on `spec` (bytes). */
export function bodyLimitOf(spec: RouteSpec, method: string): number {
  return method === 'POST' && spec.methods.includes('POST') ? spec.maxBodyBytes : DEFAULT_BODY_LIMIT_BYTES;
}
