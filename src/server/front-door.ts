import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { errorResponse, type ErrorCode } from './errors.ts';
import { CLOSE_CONNECTION, LINGER_BYTES, LINGER_MS, htmlPage } from './http.ts';
import { methodNotAllowed, noSuchPath } from './methods.ts';
import { withNodeResponse } from './node-response.ts';
import { bodyLimitOf, routeFor, type RouteSpec } from './routes.ts';

/**
 * The server's front door: what Node hands over before Astro builds a Web `Request`. Some requests
 * cannot become one (a TRACE, a path with malformed percent-encoding, a target that is not a
 * path) and some must not be read at all (a body over the route's limit); Astro answered those
 * with a 500 and a stack trace, a plain "Bad request." or its own 404. Here they get the archive's
 * one error vocabulary: JSON on the API's routes, a small page elsewhere (routes.ts), never a 500.
 * Also the server's timeouts ({@link SERVER_TIMEOUTS}). Limits: README "Security".
 */

/** Methods a Web `Request` cannot carry (Fetch standard "forbidden methods"). */
const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);

/** A request's target as Node gives it, reduced to what the screen needs. */
export interface RequestHead {
  method: string;
  /** The request-target (`req.url`): origin-form `/path?query` for every ordinary request. */
  target: string;
  /** The `Content-Length` header, if any. */
  contentLength?: string;
}

/** Does the target's percent-encoding decode (RFC 3986 §2.1, UTF-8)? (The result is used: a bundler drops a bare call.) */
function decodes(target: string): boolean {
  try {
    return decodeURI(target).length >= 0;
  } catch {
    return false;
  }
}

function refusal(spec: RouteSpec, code: ErrorCode, heading: string, text: string, headers: Record<string, string> = {}): Response {
  if (spec.errors === 'json') return errorResponse(code, { headers });
  const status = code === 'payload_too_large' ? 413 : 400;
  return htmlPage(status, heading, text, { cors: spec.cors, headers });
}

/** The path of a request target: origin form (`/a?b`) or absolute form (`http://host/a?b`); `/` otherwise. */
function pathOfTarget(target: string): string {
  if (target.startsWith('/')) return target.split('?')[0]!;
  if (/^https?:\/\//i.test(target)) {
    try {
      return new URL(target).pathname;
    } catch {
      return '/';
    }
  }
  return '/';
}

/**
 * The answer to a request Astro must not see, or null to pass it on. In order: a target that is
 * not a path, or whose percent-encoding does not decode → 400 `bad_request`; a method no Web
 * Request can carry → 405 with `Allow` (404 where no route is); a `Content-Length` over the
 * route's limit → 413 `payload_too_large` (connection closed, body unread).
 * @example screenRequest({ method: 'TRACE', target: '/api/v1/status' })?.status // 405
 */
export function screenRequest(head: RequestHead): Response | null {
  const { method, target } = head;
  // an absolute-form target (`http://host/path`: refused below) is answered in its path's error format
  const spec = routeFor(pathOfTarget(target));
  const badTarget = () =>
    refusal(spec, 'bad_request', 'Bad request', 'The address could not be read: its path or query has malformed percent-encoding, or it is not a path.');
  if (!target.startsWith('/') || !decodes(target)) return badTarget();
  if (FORBIDDEN_METHODS.has(method)) return spec.methods.length === 0 ? noSuchPath(spec) : methodNotAllowed(spec);
  const declared = head.contentLength === undefined ? 0 : Number(head.contentLength);
  if (declared > bodyLimitOf(spec, method)) {
    return refusal(spec, 'payload_too_large', 'Body too large', 'The request body is larger than this address accepts; it was not read.');
  }
  return null;
}

/**
 * Write a (small, fully buffered) Web Response to a Node response; `end` false leaves the response
 * open after its last byte (the caller ends it), so Node does not close the connection yet.
 */
async function send(response: Response, res: ServerResponse, head: boolean, end = true): Promise<void> {
  const body = Buffer.from(await response.arrayBuffer());
  const headers: Record<string, string> = {};
  response.headers.forEach((v, k) => (headers[k] = v));
  headers['content-length'] = String(body.length); // a HEAD answer states the length its GET would have
  res.writeHead(response.status, headers);
  if (!head) res.write(body);
  if (end) res.end();
}

/**
 * A Node request listener that screens each request ({@link screenRequest}) and passes the rest to
 * `next` (Astro's handler).
 */
export function frontDoor(next: (req: IncomingMessage, res: ServerResponse) => unknown): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const refused = screenRequest({ method: req.method ?? 'GET', target: req.url ?? '/', contentLength: req.headers['content-length'] });
    if (!refused) {
      withNodeResponse(res, () => next(req, res));
      return;
    }
    const linger = refused.status === 413;
    send(refused, res, req.method === 'HEAD', !linger)
      .then(() => linger && lingerThenClose(req, res))
      .catch(() => res.destroy());
  };
}

/**
 * After a 413 on the declared length: the body is never buffered; what follows is read and
 * dropped up to {@link LINGER_BYTES} (then reading pauses), and the connection is closed after
 * {@link LINGER_MS} (a body that ends sooner leaves it open). See LINGER_MS for why not at once.
 */
function lingerThenClose(req: IncomingMessage, res: ServerResponse): void {
  // The 413 is written whole but ended only now: Node closes a `Connection: close` exchange as its
  // response ends, and closing with the client's bytes unread resets the connection.
  let dropped = 0;
  const timer = setTimeout(() => {
    res.end();
    req.socket.destroy();
  }, LINGER_MS);
  timer.unref();
  req.on('data', (c: Buffer) => {
    dropped += c.length;
    if (dropped > LINGER_BYTES) req.pause();
  });
  req.on('end', () => {
    clearTimeout(timer);
    res.end();
  });
  req.resume();
}

/**
 * Timeouts of the server (README "Security"): a client must send all its headers within 10 s and
 * its whole request within 30 s, or the connection is closed (408 when nothing was answered yet).
 * Node checks them every `connectionsCheckingInterval`; 1 s keeps a trickling client from
 * outliving its deadline by more than that (Node's default, 30 s, let one stay past 100 s).
 */
export const SERVER_TIMEOUTS = { headersTimeout: 10_000, requestTimeout: 30_000, connectionsCheckingInterval: 1_000 } as const;

/**
 * Put the front door and the timeouts on the server Astro's adapter created. Call it before the
 * server's `listening` event (Node reads `connectionsCheckingInterval` then).
 */
export function hardenServer(server: Server): void {
  server.headersTimeout = SERVER_TIMEOUTS.headersTimeout;
  server.requestTimeout = SERVER_TIMEOUTS.requestTimeout;
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval = SERVER_TIMEOUTS.connectionsCheckingInterval;
  server.on('clientError', answerClientError);
  // CONNECT never reaches a request listener (Node emits `connect`, and without a listener drops the connection).
  server.on('connect', (req: IncomingMessage, socket: Duplex) => {
    const response = screenRequest({ method: 'CONNECT', target: req.url ?? '' }) ?? methodNotAllowed(routeFor('/'));
    writeRaw(socket, response);
  });
  const listeners = server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
  server.removeAllListeners('request');
  server.on('request', frontDoor((req, res) => {
    for (const l of listeners) l.call(server, req, res);
  }));
}

/**
 * The answer to a request Node's parser gave up on (Node's own is a bare `400` with no body): the
 * status by the parser's error, the body in the error format of the path on its request line, if
 * one can be read — JSON on the API's paths, else a small page. Always `Connection: close`.
 */
export function clientErrorResponse(code: string | undefined, rawPacket: Buffer | undefined): Response {
  const line = rawPacket ? rawPacket.subarray(0, 2048).toString('latin1').split('\r\n')[0] : '';
  const target = line.split(' ')[1] ?? '/';
  const spec = routeFor(pathOfTarget(target));
  const error: ErrorCode = code === 'HPE_HEADER_OVERFLOW' ? 'headers_too_large' : code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 'request_timeout' : 'bad_request';
  if (spec.errors === 'json') return errorResponse(error, { headers: CLOSE_CONNECTION });
  const status = error === 'headers_too_large' ? 431 : error === 'request_timeout' ? 408 : 400;
  return htmlPage(status, STATUS_CODES[status] ?? 'Bad request', 'The request could not be read, so nothing was looked up.', { cors: spec.cors, headers: CLOSE_CONNECTION });
}

function answerClientError(err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex): void {
  const sent = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent;
  if (err.code === 'ECONNRESET' || !socket.writable || sent) {
    socket.destroy();
    return;
  }
  writeRaw(socket, clientErrorResponse(err.code, err.rawPacket));
}

/** Write a small Web Response as raw HTTP/1.1 on a socket no ServerResponse owns, then close it. */
function writeRaw(socket: Duplex, response: Response): void {
  response
    .text()
    .then((body) => {
      const lines = [`HTTP/1.1 ${response.status} ${STATUS_CODES[response.status] ?? ''}`];
      // the length is the body's as written here: a length the Response carried is not sent twice
      response.headers.forEach((v, k) => {
        if (k !== 'content-length' && k !== 'transfer-encoding') lines.push(`${k}: ${v}`);
      });
      if (!response.headers.has('connection')) lines.push('connection: close');
      lines.push(`content-length: ${Buffer.byteLength(body)}`, '', body);
      socket.end(lines.join('\r\n'), () => socket.destroy());
    })
    .catch(() => socket.destroy());
}
