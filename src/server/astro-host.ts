import type { IncomingMessage, ServerResponse } from 'node:http';
import { writeResponse } from 'astro/app/node';
import type { BaseApp } from 'astro/app';
import { bodyPartsOf, untouchedFieldsOf } from './bytes-response.ts';

/**
 * Astro's app answering node:http requests: what @astrojs/node's middleware-mode `handler` does
 * (astro/app/node `createRequestFromNodeRequest`, `app.match`, `app.render`, `writeResponse`),
 * without what costs time on every request and changes no answer here:
 * - the Request of a GET or HEAD is made from one URL string (the adapter parses it three times)
 *   and carries no abort signal wired to the socket (no handler of this app and no stage of
 *   Astro's endpoint pipeline reads `request.signal`; a stream still ends when its socket closes:
 *   `writeResponse` cancels its body);
 * - a Response made with its body bytes (bytes-response.ts) is written with `res.end(bytes)`,
 *   not read back chunk by chunk from its Web stream; any other Response goes through Astro's
 *   `writeResponse` as before.
 * Every other request (a method that may carry a body; `security.allowedDomains` configured, where
 * forwarded headers decide the client address) goes to the adapter's `handler` unchanged. Headers
 * and body bytes of every answer are the adapter's: same header names (lower case, from the
 * Response's Headers), same status line, same bytes (docs/benchmarks.md "Keyed token endpoint").
 */

/** A node:http request listener. */
export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void> | void;

/** What the host uses of Astro's app (BaseApp). */
type App = Pick<BaseApp, 'render' | 'getAllowedDomains' | 'adapterLogger'>;

/**
 * The request listener hosting `app`. `fallback`: the adapter's own handler over the same build,
 * for the requests this one passes on. `port`: the adapter's `port` option (the host of a request
 * without a Host header, as the adapter names it).
 * @example createServer(astroHost(createApp(), handler, options.port))
 */
export function astroHost(app: App, fallback: NodeHandler, port?: number): NodeHandler {
  // forwarded headers are trusted only for allowed domains: the adapter's own reading then
  const lean = (app.getAllowedDomains?.() ?? []).length === 0;
  const logger = app.adapterLogger;
  return async (req, res): Promise<void> => {
    const method = req.method;
    if (!lean || (method !== 'GET' && method !== 'HEAD')) return fallback(req, res);
    const request = requestOf(req, method, port);
    if (!request) return fallback(req, res);
    try {
      const response = await app.render(request, { addCookieHeader: true, clientAddress: req.socket.remoteAddress, prerenderedErrorPageFetch: noErrorPage });
      const bytes = bodyPartsOf(response);
      if (bytes === null) {
        await writeResponse(response, res);
        return;
      }
      res.statusMessage = response.statusText;
      res.writeHead(response.status, untouchedFieldsOf(response) ?? outgoingHeaders(response.headers));
      if (bytes instanceof Uint8Array) res.end(bytes);
      else {
        // the parts in one writev: corked while they are written, uncorked before the end (ended while
        // corked, an answer compressed by the `compression` library was sent empty)
        res.cork();
        for (const part of bytes) res.write(part);
        res.uncork();
        res.end();
      }
    } catch (err) {
      // as the adapter's handler
      logger.error(`Could not render ${request.url}\n${err instanceof Error ? err.stack || err.message : String(err)}`);
      if (!res.headersSent) {
        res.statusCode = 500;
        res.end('Internal Server Error');
      } else {
        res.destroy();
      }
    }
  };
}

/**
 * The Web Request of a GET or HEAD as the adapter makes it (astro/app/node
 * `createRequestFromNodeRequest`: `http(s)://` + the Host header + the target; every header field
 * Node parsed, repeated ones appended; no body), or null when the URL does not parse or a field is
 * refused: the adapter's handler then answers as it did (its own URL fallbacks, or its 500).
 */
function requestOf(req: IncomingMessage, method: string, port: number | undefined): Request | null {
  const protocol = (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
  const host = req.headers.host;
  const hostname = typeof host === 'string' ? host : port ? `localhost:${port}` : 'localhost';
  try {
    const request = new Request(`${protocol}://${hostname}${req.url ?? ''}`, { method });
    // appended to the Request's own Headers (the adapter appends them to a Headers it passes, which
    // the Request then copies field by field: the same fields, the same checks, in the same order)
    const headers = request.headers;
    const fields = req.headers;
    for (const name in fields) {
      const value = fields[name];
      if (value === undefined) continue;
      if (Array.isArray(value)) for (const v of value) headers.append(name, v);
      else headers.append(name, value);
    }
    return request;
  } catch {
    return null;
  }
}

/**
 * Node's header object of a Response's Headers (astro `createOutgoingHttpHeaders`): names in
 * lower case; several `Set-Cookie` fields as a list.
 */
function outgoingHeaders(headers: Headers): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  headers.forEach((v, k) => (out[k] = v));
  if (out['set-cookie'] !== undefined) {
    const cookies = headers.getSetCookie();
    if (cookies.length > 1) out['set-cookie'] = cookies;
  }
  return out;
}

/**
 * The adapter's reader of prerendered 404/500 pages answers this when the build has none (dist/client
 * holds no `404.html` or `500.html`: no page of this app is prerendered), and Astro reads it only for
 * a prerendered error route.
 */
function noErrorPage(): Promise<Response> {
  return Promise.resolve(new Response(null, { status: 404 }));
}
